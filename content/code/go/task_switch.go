package lessons

// lesson-code: ping-pong/goroutines
// pingPong hands a turn between two goroutines roundTrips times. Each
// hand-over parks one goroutine and wakes the other: one switch.
func pingPong(roundTrips int) {
	ping, pong := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() {
		for i := 0; i < roundTrips; i++ {
			<-ping
			pong <- struct{}{}
		}
		close(done)
	}()
	for i := 0; i < roundTrips; i++ {
		ping <- struct{}{}
		<-pong
	}
	<-done
}
// lesson-code-end
