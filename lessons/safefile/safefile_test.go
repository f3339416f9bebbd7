package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestReadTakesOnlyBoundedRegularFiles(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "ok.json")
	os.WriteFile(regular, []byte(`{"ok":1}`), 0o600)
	if b, err := Read(regular, 100); err != nil || string(b) != `{"ok":1}` {
		t.Fatalf("a regular file: %q, %v", b, err)
	}
	if _, err := Read(filepath.Join(dir, "missing"), 100); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
	if _, err := Read(regular, 3); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a file over the limit: %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	os.Symlink("/dev/zero", zero)
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o700)
	for path, kind := range map[string]string{fifo: "a FIFO", zero: "a character device", sub: "a directory"} {
		done := make(chan error, 1)
		go func() { _, err := Read(path, 1<<20); done <- err }()
		select {
		case err := <-done:
			var e *Error
			if !errors.Is(err, ErrNotRegular) || !errors.As(err, &e) || e.Kind != kind {
				t.Errorf("%s: %v, want %s", filepath.Base(path), err, kind)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Read blocked", filepath.Base(path))
		}
	}
}
