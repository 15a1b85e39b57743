package lessons

import "sync"

// lesson-code: spin/work
// spin does units of CPU work and returns a value that depends on every step.
func spin(units int, seed uint64) uint64 {
	x := seed*0x9E3779B97F4A7C15 | 1
	for u := 0; u < units; u++ {
		for i := 0; i < 1000; i++ {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
	}
	return x
}
// lesson-code-end

// lesson-code: spin/sequential
func spinSequential(tasks, units int) uint64 {
	var total uint64
	for task := 0; task < tasks; task++ {
		total += spin(units, uint64(task))
	}
	return total
}
// lesson-code-end

// lesson-code: spin/goroutines
func spinConcurrent(tasks, units int) uint64 {
	results := make([]uint64, tasks)
	var wg sync.WaitGroup
	for task := 0; task < tasks; task++ {
		wg.Add(1)
		go func(task int) {
			defer wg.Done()
			results[task] = spin(units, uint64(task))
		}(task)
	}
	wg.Wait()
	var total uint64
	for _, r := range results {
		total += r
	}
	return total
}
// lesson-code-end
