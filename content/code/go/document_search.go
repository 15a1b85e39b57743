package lessons

import (
	"encoding/xml"
	"strings"
	"sync"
	"time"
)

// lesson-code: docsearch/parse
// feed is the part of an RSS document the search reads: its items.
type feed struct {
	Items []struct {
		Description string `xml:"description"`
	} `xml:"channel>item"`
}

// matchingItems parses one RSS document and counts the items whose
// description mentions topic (a title that does is not a match).
func matchingItems(doc, topic string) int {
	var f feed
	if err := xml.Unmarshal([]byte(doc), &f); err != nil {
		return 0 // a malformed document has no matches
	}
	found := 0
	for _, item := range f.Items {
		if strings.Contains(strings.ToLower(item.Description), strings.ToLower(topic)) {
			found++
		}
	}
	return found
}
// lesson-code-end

// lesson-code: docsearch/sequential
func searchSequential(documents []string, topic string, latency time.Duration) int {
	found := 0
	for _, doc := range documents {
		time.Sleep(latency) // the read: this goroutine waits
		found += matchingItems(doc, topic)
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
				found += matchingItems(doc, topic)
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
