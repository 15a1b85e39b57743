package lessons

import "sync"

// lesson-code: sort/bubble
func bubbleSort(values []int) {
	for end := len(values); end > 1; end-- {
		swapped := false
		for i := 1; i < end; i++ {
			if values[i-1] > values[i] {
				values[i-1], values[i] = values[i], values[i-1]
				swapped = true
			}
		}
		if !swapped {
			return
		}
	}
}
// lesson-code-end

// lesson-code: sort/chunked
// bubbleSortChunked sorts each chunk in a goroutine of its own, then the
// whole list once more: that last sort runs alone and does most of the work.
func bubbleSortChunked(values []int, chunks int) {
	size := (len(values) + chunks - 1) / chunks
	var wg sync.WaitGroup
	for start := 0; start < len(values); start += size {
		chunk := values[start:min(start+size, len(values))]
		wg.Add(1)
		go func() {
			defer wg.Done()
			bubbleSort(chunk)
		}()
	}
	wg.Wait()
	bubbleSort(values)
}
// lesson-code-end
