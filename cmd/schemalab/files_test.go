package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A progress file that is not a file, or not one of progress's size, is
// moved aside with a warning and `schemalab list` goes on, at once: a
// FIFO used to hang it forever and /dev/zero to grow it to gigabytes.
// Through the real binary.
func TestListMovesAsideWhatIsNotAProgressFile(t *testing.T) {
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	for what, make := range map[string]func(path string) error{
		"a FIFO":             func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"a character device": func(p string) error { return os.Symlink("/dev/zero", p) },
		"a directory":        func(p string) error { return os.Mkdir(p, 0o700) },
		"more than the 16777216": func(p string) error {
			f, err := os.Create(p)
			if err == nil {
				err = f.Truncate(64 << 20)
				f.Close()
			}
			return err
		},
	} {
		t.Run(what, func(t *testing.T) {
			state := t.TempDir()
			if err := make(filepath.Join(state, "progress.json")); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "list")
			cmd.Env = append(os.Environ(), "SCHEMALAB_STATE_DIR="+state, "NO_COLOR=1", "LANG=C")
			out, err := cmd.CombinedOutput()
			if ctx.Err() != nil {
				t.Fatal("schemalab list hung")
			}
			if err != nil || !strings.Contains(string(out), "outlier") {
				t.Fatalf("list: %v\n%s", err, out)
			}
			if !strings.Contains(string(out), what) || !strings.Contains(string(out), "moved to") {
				t.Errorf("no warning naming %s and where it went:\n%s", what, out)
			}
			if _, err := os.Lstat(filepath.Join(state, "progress.json")); err == nil {
				t.Error("the file is still in progress's place")
			}
		})
	}
}
