package lessons

import (
	"math"
	"sync"
	"sync/atomic"
)

// sqrtTask computes n square roots near 13 and returns their sum in thousandths.
func sqrtTask(n, task int) uint64 {
	total := 0.0
	for j := 0; j < n; j++ {
		total += math.Sqrt(13 + float64((task+j)%7))
	}
	return uint64(total * 1000)
}

// lesson-code: granularity/sequential
func granularitySequential(tasks, roots int) uint64 {
	var total uint64
	for task := 0; task < tasks; task++ {
		total += sqrtTask(roots, task)
	}
	return total
}
// lesson-code-end

// lesson-code: granularity/goroutines
// granularityConcurrent starts one goroutine per item, however little it does.
func granularityConcurrent(tasks, roots int) uint64 {
	var total atomic.Uint64
	var wg sync.WaitGroup
	wg.Add(tasks)
	for task := 0; task < tasks; task++ {
		go func(task int) {
			defer wg.Done()
			total.Add(sqrtTask(roots, task))
		}(task)
	}
	wg.Wait()
	return total.Load()
}
// lesson-code-end
