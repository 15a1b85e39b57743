package lessons

import (
	"runtime"
	"sync"
)

// lesson-code: task-memory/goroutines
// bytesPerWaitingGoroutine starts n goroutines that all wait on one channel
// and says how many more bytes of heap and goroutine stacks are in use for
// each: what they hold while parked, as the panel counts its tasks' heap bytes.
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
	inUse := func(m *runtime.MemStats) float64 { return float64(m.HeapInuse + m.StackInuse) }
	return (inUse(&after) - inUse(&before)) / float64(n)
}
// lesson-code-end
