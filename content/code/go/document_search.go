package lessons

import (
	"strings"
	"sync"
	"time"
)

// lesson-code: docsearch/sequential
func searchSequential(documents []string, topic string, latency time.Duration) int {
	found := 0
	for _, doc := range documents {
		time.Sleep(latency) // the read: this goroutine waits
		found += strings.Count(doc, topic)
	}
	return found
}
// lesson-code-end

// lesson-code: docsearch/goroutines
// searchConcurrent lets searchers goroutines take documents from one queue;
// while one waits for its read, another searches.
func searchConcurrent(documents []string, topic string, latency time.Duration, searchers int) int {
	queue := make(chan string)
	go func() {
		for _, doc := range documents {
			queue <- doc
		}
		close(queue)
	}()
	counts := make(chan int, searchers)
	var wg sync.WaitGroup
	for s := 0; s < searchers; s++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			found := 0
			for doc := range queue {
				time.Sleep(latency)
				found += strings.Count(doc, topic)
			}
			counts <- found
		}()
	}
	wg.Wait()
	close(counts)
	total := 0
	for c := range counts {
		total += c
	}
	return total
}
// lesson-code-end
