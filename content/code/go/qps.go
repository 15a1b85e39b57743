package lessons

import (
	"net/http"
	"time"
)

// lesson-code: qps/pool
// poolServer answers with a fixed pool of workers fed by a queue: a request
// holds its worker for the whole request, wait included.
func poolServer(work func(), wait time.Duration, workers int) http.Handler {
	queue := make(chan chan struct{})
	for i := 0; i < workers; i++ {
		go func() {
			for answered := range queue {
				work()
				time.Sleep(wait)
				close(answered)
			}
		}()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		answered := make(chan struct{})
		queue <- answered
		<-answered
		w.Write([]byte("ok"))
	})
}
// lesson-code-end

// lesson-code: qps/goroutines
// goroutineServer runs each request in its own goroutine (net/http starts
// one per connection); a request that sleeps parks it and frees the thread.
func goroutineServer(work func(), wait time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		work()
		time.Sleep(wait)
		w.Write([]byte("ok"))
	})
}
// lesson-code-end
