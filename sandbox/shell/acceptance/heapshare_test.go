package acceptance

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schemalab/schemalab/sandbox/shell"
)

// Two students' scripts that each hold most of their heap cap at the same
// time run to the end when their shells share the process's HeapShare, as
// a classroom's do; with a share each, each is charged the other's memory
// and stopped. (The heap is the process's: a watch cannot tell whose
// objects it sees.)
func TestScriptsSideBySideShareTheHeap(t *testing.T) {
	client, _ := startServer(t)
	// Each holds about 40 MB for a second and a half, under a 64 MB cap.
	const hold = `const held = Array.from({ length: 400 }, (_, i) => new Array(6250).fill(i + 0.5));
const until = Date.now() + 1500; while (Date.now() < until) {}
held.length`
	sideBySide := func(limitMB int64, share func() *shell.HeapShare) []string {
		var wg sync.WaitGroup
		out := make([]string, 2)
		for i := range out {
			sh, err := shell.New(client, "heapshare", shell.Options{Timeout: time.Minute, HeapLimit: limitMB << 20, HeapShare: share()})
			if err != nil {
				t.Fatal(err)
			}
			wg.Go(func() {
				time.Sleep(time.Duration(i) * 300 * time.Millisecond)
				res, _ := sh.Eval(context.Background(), hold)
				out[i] = res.Transcript
			})
		}
		wg.Wait()
		return out
	}
	shared := &shell.HeapShare{}
	for i, got := range sideBySide(64, func() *shell.HeapShare { return shared }) {
		if got != "400\n" {
			t.Errorf("sharing the heap, script %d: %s", i+1, got)
		}
	}
	// The control, with a cap each still holds alone: how the two overlap
	// depends on the scheduler, so one round of three in which a script is
	// stopped shows the difference.
	stopped := 0
	for range 3 {
		for _, got := range sideBySide(56, func() *shell.HeapShare { return nil }) {
			if strings.Contains(got, "script used more than 56 MB of memory") {
				stopped++
			}
		}
		if stopped > 0 {
			break
		}
	}
	if stopped == 0 {
		t.Error("with a share each, neither script was charged the other's memory: the test shows nothing")
	}
}
