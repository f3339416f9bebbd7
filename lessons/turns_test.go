package lessons

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// At most n operations hold a turn at once; the others wait in line, and
// one that gives up waiting (its learner left) does not take a turn.
func TestTurnsLetAFewRunAtOnce(t *testing.T) {
	turns := NewTurns(2, 0)
	var running, most atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done, err := turns.take(context.Background())
			if err != nil {
				t.Error(err)
				return
			}
			n := running.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(5 * time.Millisecond)
			running.Add(-1)
			done()
			done() // giving a turn back twice gives it back once
		}()
	}
	wg.Wait()
	if m := most.Load(); m != 2 {
		t.Fatalf("%d operations ran at once, want 2", m)
	}
	hold1, _ := turns.take(context.Background())
	hold2, _ := turns.take(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := turns.take(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiting past the context: %v", err)
	}
	hold1()
	hold2()
}

// An operation that runs past the hold gives its turn back then, so that
// a learner's long loop delays the others by the hold at most.
func TestTurnsAreHeldForALimitedTime(t *testing.T) {
	turns := NewTurns(1, 20*time.Millisecond)
	// The hold runs from when the long operation took its turn, so the
	// wait is measured from before that.
	start := time.Now()
	long, err := turns.take(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer long()
	next, err := turns.take(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	next()
	if waited := time.Since(start); waited < 20*time.Millisecond || waited > time.Second {
		t.Fatalf("the next operation waited %v for a turn held 20ms at most", waited)
	}
	var none *Turns
	if done, err := none.take(context.Background()); err != nil {
		t.Fatal(err)
	} else {
		done()
	}
}
