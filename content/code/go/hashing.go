package lessons

import (
	"hash"
	"sync"
)

// lesson-code: hashing/sequential
// advanceSequential feeds one slice of the data to every hash in turn.
func advanceSequential(states []hash.Hash, slice []byte) {
	for _, h := range states {
		h.Write(slice)
	}
}
// lesson-code-end

// lesson-code: hashing/goroutines
// advanceConcurrent feeds the slice to every hash at once, a goroutine per
// hash; Wait is the barrier before the next slice is read.
func advanceConcurrent(states []hash.Hash, slice []byte) {
	var wg sync.WaitGroup
	for _, h := range states {
		wg.Add(1)
		go func(h hash.Hash) {
			defer wg.Done()
			h.Write(slice)
		}(h)
	}
	wg.Wait()
}
// lesson-code-end
