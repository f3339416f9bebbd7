package lesson

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/schemalab/schemalab/lessons/safefile"
)

// Where file events are not to be had, a save is noticed by the file's
// time and size; the new content comes with it.
func TestPollingNoticesASave(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ex.js")
	w := startWatch(path, "answer = ''", 1)
	defer w.stop()
	w.mode = watchPolling
	if _, changed := w.poll(); changed {
		t.Fatal("a file nobody saved was taken for a save")
	}
	later := time.Now().Add(2 * time.Second)
	if err := os.WriteFile(path, []byte("answer = 'bucket'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	ch, changed := w.poll()
	if !changed || ch.text != "answer = 'bucket'\n" || ch.gen != 1 {
		t.Fatalf("poll after a save = %+v, %v", ch, changed)
	}
	if _, changed := w.poll(); changed {
		t.Error("the same save was taken twice")
	}
}

// Where the file cannot even be written, watch mode says why and falls
// back to checking on enter.
func TestManualRunWhereTheFileCannotBeWritten(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	w := startWatch(filepath.Join(blocker, "ex.js"), "x", 1)
	defer w.stop()
	if w.mode != watchManual || w.reason == "" || w.next() != nil {
		t.Fatalf("watcher = %+v", w)
	}
}

// A burst of writes is one check, with the content of the last.
func TestEventsAreDebounced(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ex.js")
	w := startWatch(path, "x", 3)
	defer w.stop()
	if w.mode != watchEvents {
		t.Skipf("file events are not available here (%s); polling covers this case", w.reason)
	}
	done := make(chan any, 1)
	go func() { done <- w.next()() }()
	for i := range 5 {
		if err := os.WriteFile(path, []byte{'a' + byte(i)}, 0o644); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case msg := <-done:
		ch, ok := msg.(fileChanged)
		if !ok || ch.text != "e" || ch.gen != 3 {
			t.Fatalf("after a burst: %#v", msg)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no change reported")
	}
}

// A FIFO in the watched file's place is refused at once, not waited on.
func TestWatchReadsOnlyARegularFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "answer.js")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	w := &watcher{path: path}
	done := make(chan error, 1)
	go func() { _, err := w.read(); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, safefile.ErrNotRegular) {
			t.Fatalf("a FIFO read as %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
}
