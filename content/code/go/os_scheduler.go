package lessons

import (
	"fmt"
	"runtime"
	"sync"
	"time"
)

// lesson-code: os-scheduler/bursts
// cpuBound computes in long bursts, a short wait between them.
// ioBound computes briefly, then waits long, as a thread that
// reads a disk or waits for a reply does. time.Sleep stands in
// for the IO: the goroutine waits without using the CPU.
func cpuBound(name string, note func(string)) {
	for burst := 0; burst < 2; burst++ {
		note(name + " computes")
		busy(30 * time.Millisecond)
		time.Sleep(time.Millisecond)
	}
	note(name + " is done")
}

func ioBound(name string, note func(string)) {
	for burst := 0; burst < 4; burst++ {
		note(name + " computes")
		busy(500 * time.Microsecond)
		time.Sleep(8 * time.Millisecond)
	}
	note(name + " is done")
}

// busy uses the CPU for d and never waits.
func busy(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}
// lesson-code-end

// lesson-code: os-scheduler/one-core
// oneCore runs two CPU-bound and two IO-bound goroutines on one
// P, the Go runtime's stand-in for a core: one computes at a time.
// A goroutine that sleeps gives the P up at once, and the next
// runnable one takes it. One that computes keeps the P until its
// burst ends or the runtime preempts it after about 10 ms and
// queues it again: this scheduler's quantum. (Go preempted at
// function calls before; since Go 1.14 it also preempts a loop
// that calls nothing, asynchronously: Go 1.14 release notes.) So an
// IO-bound goroutine gets the P soon after its wait, not 30 ms on.
// (A real read blocks its OS thread in a system call; the runtime
// hands the P to another thread, and the OS schedules threads.)
func oneCore() []string {
	// Since Go 1.25 this call also stops GOMAXPROCS from following
	// a container's CPU limit, for good (runtime.GOMAXPROCS's doc).
	previous := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(previous)
	var mu sync.Mutex
	var events []string
	note := func(event string) {
		mu.Lock()
		events = append(events, event)
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		cpu, io := fmt.Sprintf("cpu-%d", i), fmt.Sprintf("io-%d", i)
		wg.Add(2)
		go func() { defer wg.Done(); cpuBound(cpu, note) }()
		go func() { defer wg.Done(); ioBound(io, note) }()
	}
	wg.Wait()
	return events
}
// lesson-code-end
