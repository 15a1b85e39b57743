package lessons

import (
	"runtime"
	"sync"
	"time"
)

// lesson-code: scenario/goroutines
// runScenario starts tasks goroutines on workers Ps and waits for them all,
// then sets GOMAXPROCS back to the number it had. (Since Go 1.25, setting
// it also stops the runtime from following a container's CPU limit, and
// setting the old number back does not restart that;
// runtime.SetDefaultGOMAXPROCS does. Source: runtime.GOMAXPROCS's doc.)
func runScenario(kind string, workers, tasks int) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(workers))
	var wg sync.WaitGroup
	for task := 0; task < tasks; task++ {
		wg.Add(1)
		go func(task int) {
			defer wg.Done()
			scenarioTask(kind, task)
		}(task)
	}
	wg.Wait()
}
// lesson-code-end

// lesson-code: scenario/task
func scenarioTask(kind string, task int) {
	compute := func(tenthsOfMs int) { spin(tenthsOfMs*100, uint64(task)) }
	switch kind {
	case "spawn-on-one":
		compute(15)
	case "many-tasks":
		compute(3)
	case "long-task":
		if task == 0 {
			compute(250)
		} else {
			compute(15)
		}
	case "io-mix":
		for round := 0; round < 3; round++ {
			time.Sleep(time.Duration(1+(task+round)%3) * time.Millisecond)
			compute(2)
		}
	}
}
// lesson-code-end
