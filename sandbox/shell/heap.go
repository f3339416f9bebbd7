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
// it past what its session may still take is stopped like a script that
// runs out of time.
//
// The cap (Options.HeapLimit) is the session's, not each evaluation's: what
// an evaluation leaves reachable (its globals, and what they hold) stays
// charged to the session, so `var g = []` and then g.push('x'.repeat(4e8))
// once per input meets the cap at the second input instead of growing the
// process by 400 MB each time. After each evaluation the growth of the live
// heap over it is added to the session's charge, measured after a
// collection whenever the evaluation allocated enough to matter (a
// collection can also give back what the session's earlier evaluations had
// held). A session stopped by the cap gets a fresh runtime, which frees
// everything it held, and its charge starts again from nothing.
//
// What happens between evaluations is done for the session too: a lesson
// restores a saved state, which lets go of the data and globals its last
// run made, and then runs the step again. Growth alone would charge each
// run anew while the restores' frees went unseen, until a step re-run a
// few times was stopped for memory the process no longer held. So when
// the process is the session's alone, the live heap falling between two
// evaluations is taken off its charge (never growth: only what its own
// scripts grow is charged).
//
// The heap is the process's, so the figures also count what runs beside
// the script: in a classroom that runs many sessions in one process, a
// classmate's script running at the same time, and the embedded server
// storing what the scripts write. Shells of one process share a HeapShare,
// and each script seen running beside one allows the heap its own cap's
// worth of growth, so that scripts side by side are not stopped for each
// other's memory. Between evaluations nothing is charged to a session, so
// a classmate's work is charged to a session only when it happens while
// the session's own script runs; with a process per student, the figures
// are the student's alone.

// HeapShare is the heap of one process as its shells see it: how many of
// their scripts are running, and how many sessions there are. The zero
// value is ready to use.
type HeapShare struct{ running, sessions atomic.Int64 }

// HeapLimitError is the cause of an Eval stopped by the heap cap.
type HeapLimitError struct {
	Limit int64
	// Held is what the session's earlier evaluations held when the script
	// was stopped.
	Held int64
}

func (e *HeapLimitError) Error() string {
	if e.Held >= 1<<20 {
		return fmt.Sprintf("script used more than %d MB of memory, with the %d MB the session's variables held,", e.Limit>>20, e.Held>>20)
	}
	return fmt.Sprintf("script used more than %d MB of memory", e.Limit>>20)
}

// heapPoll is how often the heap is looked at: often enough that a
// script allocating as fast as it can overshoots by little.
const heapPoll = 5 * time.Millisecond

// heapSettled is how much an evaluation may allocate before what it
// leaves behind is measured after a collection; below it, all it
// allocated is charged (an upper bound, which the next measurement
// corrects).
const heapSettled = 8 << 20

// heapSamples reads the figures the watch uses: the bytes of heap objects
// (live, and garbage not yet collected), the live heap as of the last
// collection, and all bytes ever allocated.
type heapSamples [3]metrics.Sample

func newHeapSamples() *heapSamples {
	return &heapSamples{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/allocs:bytes"}}
}

func (h *heapSamples) read() (objects, live, allocs int64) {
	metrics.Read(h[:])
	return int64(h[0].Value.Uint64()), int64(h[1].Value.Uint64()), int64(h[2].Value.Uint64())
}

// heapWatch is the watch over one evaluation.
type heapWatch struct {
	limit      int64
	held       atomic.Int64 // what the session held when the evaluation began (less, once it lets go of some)
	share      *HeapShare
	samples    *heapSamples
	liveStart  int64
	allocStart int64
	liveEnd    int64        // the live heap when the evaluation ended (end)
	peak       atomic.Int64 // the most scripts of share seen running at once
	done       chan struct{}
	finished   chan struct{}
}

// watchHeap starts watching an evaluation of a session that already holds
// held bytes: it cancels stop's context with a *HeapLimitError once the
// live heap has grown by more than the session may still take (limit -
// held, and limit more for each other script of share seen running at the
// same time). Freed garbage does not count: when the allocated bytes pass
// the cap, a collection tells what is really live.
func watchHeap(limit, held int64, share *HeapShare, stop context.CancelCauseFunc) *heapWatch {
	w := &heapWatch{limit: limit, share: share, samples: newHeapSamples(),
		done: make(chan struct{}), finished: make(chan struct{})}
	w.held.Store(held)
	w.peak.Store(share.running.Add(1))
	objects, live, allocs := w.samples.read()
	if objects-live > heapSettled {
		// The live figure is that of the last collection, and much was
		// allocated since: what the evaluation leaves behind is measured
		// against the heap as it is now.
		runtime.GC()
		objects, live, allocs = w.samples.read()
	}
	w.liveStart, w.allocStart = live, allocs
	base := max(objects, live)
	go func() {
		defer close(w.finished)
		samples := newHeapSamples()
		t := time.NewTicker(heapPoll)
		defer t.Stop()
		lastGC := time.Time{}
		for {
			select {
			case <-w.done:
				return
			case <-t.C:
			}
			objects, live, _ := samples.read()
			allowed := w.allowed()
			if objects-base <= allowed && live-w.liveStart <= allowed {
				continue
			}
			if time.Since(lastGC) > 100*time.Millisecond {
				// Some of what is allocated may be garbage: only a
				// collection tells. They are kept rare, since a script
				// that churns garbage would otherwise pay for one every
				// poll.
				runtime.GC()
				lastGC = time.Now()
				_, live, _ = samples.read()
			}
			if live-w.liveStart > allowed {
				stop(&HeapLimitError{Limit: w.limit, Held: w.held.Load()})
				return
			}
		}
	}()
	return w
}

// credit takes off the session's charge what the live heap fell by since
// its last evaluation ended (liveEnd, 0 for none), when the process is
// the session's alone, and returns the charge.
func (w *heapWatch) credit(liveEnd int64) int64 {
	if liveEnd > w.liveStart && w.share.sessions.Load() == 1 {
		w.held.Store(max(w.held.Load()-(liveEnd-w.liveStart), 0))
	}
	return w.held.Load()
}

// allowed is how much the heap may grow over the evaluation. A script
// that ran beside this one may have ended and kept what it made (its
// session's globals, what the server stored), so the most scripts seen
// running at once counts, not those running now.
func (w *heapWatch) allowed() int64 {
	peak := max(w.peak.Load(), w.share.running.Load())
	w.peak.Store(peak)
	return max(w.limit-w.held.Load(), 0) + w.limit*(peak-1)
}

// room is how much more the evaluation may allocate, for the built-ins
// that check an allocation before they make it (allocguard.go): all it
// allocated so far counts, unless a collection is asked for (precise),
// which tells what of it is still live, and what the session held that
// is no longer (the live heap can fall below where it started).
func (w *heapWatch) room(precise bool) int64 {
	if !precise {
		_, _, allocs := w.samples.read()
		return max(w.allowed()-max(allocs-w.allocStart, 0), 0)
	}
	runtime.GC()
	_, live, _ := w.samples.read()
	used := live - w.liveStart
	return max(w.allowed()-max(used, -w.held.Load()), 0)
}

// end ends the watch and returns how much the evaluation grew the live
// heap by (negative when it freed more than it kept).
func (w *heapWatch) end() int64 {
	close(w.done)
	<-w.finished
	w.share.running.Add(-1)
	_, live, allocs := w.samples.read()
	allocated := allocs - w.allocStart
	if allocated < heapSettled {
		w.liveEnd = live
		return allocated
	}
	runtime.GC()
	_, w.liveEnd, _ = w.samples.read()
	return w.liveEnd - w.liveStart
}
