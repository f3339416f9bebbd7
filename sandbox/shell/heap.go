package shell

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

// goja has no heap limit, and a script that allocates without end would
// take the whole process down with it. So while an Eval runs, the heap is
// watched through the Go runtime's own statistics, and a script that grows
// it past Options.HeapLimit is stopped like a script that runs out of time.
//
// The heap is the process's, so the figure also counts what runs beside
// the script: another student's shell in a classroom, and the embedded
// server storing what their scripts write. Shells of one process share a
// HeapShare, and each script seen running beside one allows the heap its
// own limit's worth of growth, so that scripts side by side are not
// stopped for each other's memory. The cap is a guard against runaway
// scripts, not an accounting: a runaway script beside another can get
// both stopped, and the process holds at most one limit per script.

// HeapShare is the heap of one process as its shells see it: how many of
// their scripts are running. The zero value is ready to use.
type HeapShare struct{ running atomic.Int64 }

// HeapLimitError is the cause of an Eval stopped by the heap cap.
type HeapLimitError struct{ Limit int64 }

func (e *HeapLimitError) Error() string {
	return fmt.Sprintf("script used more than %d MB of memory", e.Limit>>20)
}

// heapPoll is how often the heap is looked at: often enough that a
// script allocating as fast as it can overshoots by little.
const heapPoll = 5 * time.Millisecond

// watchHeap cancels stop's context with a *HeapLimitError once the live
// heap has grown by more than limit since the call, times the most
// scripts of share seen running at once. Freed garbage does not
// count: when the allocated bytes pass the cap, a collection tells what is
// really live. It returns a function that ends the watch.
func watchHeap(limit int64, share *HeapShare, stop context.CancelCauseFunc) (end func()) {
	// A script that ran beside this one may have ended and kept what it
	// made (its session's globals, what the server stored), so the most
	// scripts seen running at once counts, not those running now.
	peak := share.running.Add(1)
	allowed := func() int64 {
		peak = max(peak, share.running.Load())
		return limit * peak
	}
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	read := func() (allocated, live int64) {
		metrics.Read(samples)
		return int64(samples[0].Value.Uint64()), int64(samples[1].Value.Uint64())
	}
	baseAllocated, baseLive := read()
	base := max(baseAllocated, baseLive)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(heapPoll)
		defer t.Stop()
		lastGC := time.Time{}
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			allocated, live := read()
			if allocated-base <= allowed() && live-baseLive <= allowed() {
				continue
			}
			if time.Since(lastGC) > 100*time.Millisecond {
				// Some of what is allocated may be garbage: only a
				// collection tells. They are kept rare, since a script
				// that churns garbage would otherwise pay for one every
				// poll.
				runtime.GC()
				lastGC = time.Now()
				_, live = read()
			}
			if live-baseLive > allowed() {
				stop(&HeapLimitError{Limit: limit})
				return
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		share.running.Add(-1)
	}
}
