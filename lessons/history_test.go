package lessons

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// A lesson's scratch shell history outlives the store that wrote it (a
// restart), is the lesson's own, keeps mongosh's 1000 newest inputs, and
// keeps multi-line inputs whole.
func TestShellHistoryPersistsPerLessonBounded(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	multi := "db.c.find({\n  a: 1\n})"
	for _, in := range []string{"db.c.countDocuments()", multi, multi} {
		if _, err := s.AddShellHistory("tree", in); err != nil {
			t.Fatal(err)
		}
	}
	reopened, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := reopened.ShellHistory("tree"), []string{"db.c.countDocuments()", multi}; !slices.Equal(got, want) {
		t.Errorf("after a restart the history is %q, want %q (a repeat of the last input is not kept twice)", got, want)
	}
	if got := reopened.ShellHistory("bucket"); len(got) != 0 {
		t.Errorf("another lesson sees this one's history: %q", got)
	}
	for i := range ShellHistoryLength + 5 {
		if _, err := reopened.AddShellHistory("tree", fmt.Sprint("x = ", i)); err != nil {
			t.Fatal(err)
		}
	}
	h := reopened.ShellHistory("tree")
	if len(h) != ShellHistoryLength || h[0] != "x = 5" || h[len(h)-1] != fmt.Sprint("x = ", ShellHistoryLength+4) {
		t.Errorf("%d inputs from %q to %q, want the %d newest", len(h), h[0], h[len(h)-1], ShellHistoryLength)
	}
}

// Large inputs bound the file by size too, dropping the oldest.
func TestShellHistoryBoundedInBytes(t *testing.T) {
	s, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 300<<10)
	for i := range 5 {
		if _, err := s.AddShellHistory("tree", fmt.Sprint(i, big)); err != nil {
			t.Fatal(err)
		}
	}
	info, err := os.Stat(s.ShellHistoryFile("tree"))
	if err != nil {
		t.Fatal(err)
	}
	h := s.ShellHistory("tree")
	if info.Size() > maxHistoryFile || len(h) != 3 || !strings.HasPrefix(h[0], "2") {
		t.Errorf("%d bytes, %d inputs; want at most %d bytes and the 3 newest", info.Size(), len(h), maxHistoryFile)
	}
}

// A damaged history file is only its own loss: the progress and the
// other lessons' histories are as they were, and the next input starts
// the lesson's history again.
func TestACorruptShellHistoryLosesNothingElse(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.MarkDone("tree", "parent-references"); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"tree", "bucket"} {
		if _, err := s.AddShellHistory(l, "db.c.find()"); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(s.ShellHistoryFile("tree"), []byte("[\"db.c.fi"), 0o600); err != nil {
		t.Fatal(err)
	}
	reopened, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if reopened.Warning(nil) != "" || !reopened.Lesson("tree").IsDone("parent-references") {
		t.Error("the progress suffered from a damaged history")
	}
	if got := reopened.ShellHistory("bucket"); !slices.Equal(got, []string{"db.c.find()"}) {
		t.Errorf("the other lesson's history is %q", got)
	}
	if got := reopened.ShellHistory("tree"); len(got) != 0 {
		t.Errorf("a damaged history reads as %q", got)
	}
	if h, err := reopened.AddShellHistory("tree", "db.c.findOne()"); err != nil || !slices.Equal(h, []string{"db.c.findOne()"}) {
		t.Errorf("the next input gives %q, %v", h, err)
	}
}
