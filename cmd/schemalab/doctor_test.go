package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDoctorAllGood(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	getenv := func(k string) string {
		if k == "SCHEMALAB_STATE_DIR" {
			return state
		}
		return ""
	}
	g := defaultGlobalOptions(getenv)
	var out, errOut bytes.Buffer
	code := doctor(context.Background(), &g, nil, getenv, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{
		"--   terminal   output is not a terminal",
		"mongod     ",
		"mongosh    ",
		"ok   backend    embedded sandbox (MongoDB 8.0.4-compatible), connected in",
		"ok   progress   " + filepath.Join(state, "progress.json") + " (created on first use)",
		"Everything schemalab needs is in place.",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestDoctorReportsWhatIsMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		if k == "SCHEMALAB_STATE_DIR" {
			return filepath.Join(blocker, "state") // under a file: unusable
		}
		return ""
	}
	g := defaultGlobalOptions(getenv)
	g.Sandbox = "mongod"
	var out, errOut bytes.Buffer
	code := doctor(context.Background(), &g, nil, getenv, &out, &errOut)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, out.String())
	}
	for _, want := range []string{
		"!!   mongod     not on PATH",
		"--   mongosh    not on PATH",
		"Missing or not working:",
		"  - mongod: not on PATH; --sandbox mongod needs it: install MongoDB Community Server or pass --mongod PATH",
		"  - backend: --sandbox mongod: mongod was not found on PATH",
		"  - progress: " + filepath.Join(blocker, "state", "progress.json") + ": " + blocker + " is not a directory",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out.String())
		}
	}
}
