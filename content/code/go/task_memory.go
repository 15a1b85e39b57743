package lessons

import (
	"runtime"
	"sync"
)

// lesson-code: task-memory/goroutines
// bytesPerWaitingGoroutine starts n goroutines that all wait on one channel
// and says how much more memory the runtime took from the system for them.
func bytesPerWaitingGoroutine(n int) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	gate := make(chan struct{})
	var started, finished sync.WaitGroup
	started.Add(n)
	finished.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			started.Done()
			<-gate
			finished.Done()
		}()
	}
	started.Wait()
	runtime.ReadMemStats(&after)
	close(gate)
	finished.Wait()
	return (float64(after.Sys) - float64(before.Sys)) / float64(n)
}
// lesson-code-end
