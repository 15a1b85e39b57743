package lessons

import (
	"sync"
	"sync/atomic"
)

// lesson-code: shared-total/goroutines
// sumIntoOneCounter: every goroutine adds every number into one atomic
// counter. The total is right, but each Add waits for the counter's
// cache line to come to its core.
func sumIntoOneCounter(numbers []int32, parts int) int64 {
	var total atomic.Int64
	var wg sync.WaitGroup
	size := (len(numbers) + parts - 1) / parts
	for start := 0; start < len(numbers); start += size {
		end := min(start+size, len(numbers))
		wg.Add(1)
		go func(part []int32) {
			defer wg.Done()
			for _, n := range part {
				total.Add(int64(n))
			}
		}(numbers[start:end])
	}
	wg.Wait()
	return total.Load()
}

// sumIntoCountersSideBySide: each goroutine has a counter of its own, but
// the counters are 8 bytes apart, so up to eight share one cache line of
// 64 bytes (sixteen on Apple's M-series chips, whose lines are 128 bytes):
// false sharing. Padding each counter to 128 bytes parts them on both;
// Rust's crossbeam pads to 128 on x86-64 and arm64, since x86 cores also
// fetch a line's neighbour in pairs (crossbeam-utils's CachePadded doc).
func sumIntoCountersSideBySide(numbers []int32, parts int) int64 {
	counters := make([]atomic.Int64, parts)
	var wg sync.WaitGroup
	size := (len(numbers) + parts - 1) / parts
	for i, start := 0, 0; start < len(numbers); i, start = i+1, start+size {
		end := min(start+size, len(numbers))
		wg.Add(1)
		go func(counter *atomic.Int64, part []int32) {
			defer wg.Done()
			for _, n := range part {
				counter.Add(int64(n))
			}
		}(&counters[i], numbers[start:end])
	}
	wg.Wait()
	var total int64
	for i := range counters {
		total += counters[i].Load()
	}
	return total
}
// lesson-code-end
