package lessons

import "sync"

// lesson-code: sum/sequential
func sumSequential(numbers []int32) int64 {
	var total int64
	for _, n := range numbers {
		total += int64(n)
	}
	return total
}
// lesson-code-end

// lesson-code: sum/goroutines
// sumConcurrent adds each part in a goroutine of its own; the partial sums
// come back over a channel.
func sumConcurrent(numbers []int32, parts int) int64 {
	size := (len(numbers) + parts - 1) / parts
	sums := make(chan int64, parts)
	var wg sync.WaitGroup
	for start := 0; start < len(numbers); start += size {
		end := min(start+size, len(numbers))
		wg.Add(1)
		go func(part []int32) {
			defer wg.Done()
			sums <- sumSequential(part)
		}(numbers[start:end])
	}
	wg.Wait()
	close(sums)
	var total int64
	for s := range sums {
		total += s
	}
	return total
}
// lesson-code-end
