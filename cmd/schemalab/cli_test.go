package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/templatecache"
)

// runBinary runs the built schemalab with args, stdin from a pipe (never
// a terminal), in a state directory of its own; it returns the exit
// status, stdout and stderr.
func runBinary(t *testing.T, state string, args ...string) (int, string, string) {
	t.Helper()
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "SCHEMALAB_STATE_DIR="+state, "NO_COLOR=1", "LANG=C", "LC_ALL=", "LC_MESSAGES=")
	if os.Getenv(templatecache.DirEnv) == "" {
		// A test's runs never read or fill the user's own cache.
		cmd.Env = append(cmd.Env, templatecache.DirEnv+"="+filepath.Join(state, "cache"))
	}
	cmd.Stdin = strings.NewReader("y\n")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("schemalab %q hung", args)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

// Every subcommand answers --help with its usage line and exit 0.
func TestEverySubcommandAnswersHelp(t *testing.T) {
	state := t.TempDir()
	for _, sub := range []string{"serve", "shell", "run", "list", "reset", "doctor", "classroom", "version", "advise"} {
		code, stdout, stderr := runBinary(t, state, sub, "--help")
		if code != 0 {
			t.Errorf("%s --help: exit %d\n%s", sub, code, stderr)
		}
		if want := "usage: schemalab " + sub; !strings.HasPrefix(stdout+stderr, want) {
			t.Errorf("%s --help does not start with %q:\n%s%s", sub, want, stdout, stderr)
		}
	}
}

// reset with no terminal to ask on refuses, names --yes and keeps the
// progress; with --yes it resets.
func TestResetWithoutATerminalNeedsYes(t *testing.T) {
	state := t.TempDir()
	store, err := lessons.OpenStore(state)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.MarkDone("tree", "parent-references"); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(state, "progress.json"))
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runBinary(t, state, "reset", "tree")
	if code != 2 || !strings.Contains(stderr, "--yes") {
		t.Errorf("reset with stdin a pipe: exit %d, want 2 and a message naming --yes:\n%s", code, stderr)
	}
	if after, err := os.ReadFile(filepath.Join(state, "progress.json")); err != nil || string(after) != string(before) {
		t.Errorf("the progress changed (%v):\n%s\nwas\n%s", err, after, before)
	}
	if code, stdout, stderr := runBinary(t, state, "reset", "tree", "--yes"); code != 0 {
		t.Errorf("reset --yes: exit %d\n%s%s", code, stdout, stderr)
	}
}

// reset --all forgets the lessons' saved states too (the template cache):
// the next run builds them again. Files the cache did not write stay.
func TestResetAllClearsTheTemplateCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv(templatecache.DirEnv, cache)
	key := strings.Repeat("ab", 16)
	for _, name := range []string{key + ".tpl", key + "-s0.snap", key + "-p3.snap", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(cache, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if code, stdout, stderr := runBinary(t, t.TempDir(), "reset", "tree", "--yes"); code != 0 {
		t.Fatalf("reset tree: exit %d\n%s%s", code, stdout, stderr)
	}
	if left, _ := os.ReadDir(cache); len(left) != 4 {
		t.Fatalf("resetting one lesson touched the cache: %v", left)
	}
	if code, stdout, stderr := runBinary(t, t.TempDir(), "reset", "--all", "--yes"); code != 0 {
		t.Fatalf("reset --all: exit %d\n%s%s", code, stdout, stderr)
	}
	left, err := os.ReadDir(cache)
	if err != nil || len(left) != 1 || left[0].Name() != "notes.txt" {
		t.Fatalf("after reset --all the cache holds %v (%v)", left, err)
	}
}

// list's columns are two spaces apart at least, so that a progress and a
// title, both with spaces inside, never read as one phrase.
func TestListColumnsStayApart(t *testing.T) {
	state := t.TempDir()
	for _, lang := range []string{"en", "id", "ru"} {
		code, stdout, stderr := runBinary(t, state, "--lang", lang, "list")
		if code != 0 {
			t.Fatalf("list: exit %d\n%s", code, stderr)
		}
		gutter := regexp.MustCompile(` {2,}`)
		for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
			if n := len(gutter.Split(line, -1)); n != 5 {
				t.Errorf("%s: %d columns apart, want 5: %q", lang, n, line)
			}
		}
	}
}
