package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

func TestRunCheckListReset(t *testing.T) {
	state := t.TempDir()
	t.Setenv("SCHEMALAB_STATE_DIR", state)
	pack := t.TempDir()
	lesson := "---\nid: tiny\ntitle: Tiny\norder: 99\n---\n## Count\n```js setup\ndb.c.insertOne({ a: 1 })\n```\n" +
		"```js run\ndb.c.countDocuments()\n```\n```text expect\n1\n```\n" +
		"## Exercise: two\nMake it two.\n```js exercise check\ndb.c.countDocuments() === 2\n```\n```js exercise solution\ndb.c.insertOne({ a: 2 })\n```\n"
	if err := os.WriteFile(pack+"/tiny.md", []byte(lesson), 0o644); err != nil {
		t.Fatal(err)
	}
	g := defaultGlobalOptions(func(string) string { return "" })
	g.ContentDir = pack
	ctx := context.Background()

	var out, errOut bytes.Buffer
	if code := runLessons(ctx, &g, []string{"--check", "tiny"}, &out, &errOut); code != 0 {
		t.Fatalf("run --check tiny = %d\n%s\n%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{"1. Count", "> db.c.countDocuments()", "✓ expect", "✓ exercise"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("transcript lacks %q:\n%s", want, out.String())
		}
	}

	out.Reset()
	errOut.Reset()
	if code := runLessons(ctx, &g, []string{"--format", "markdown", "tiny"}, &out, &errOut); code != 0 {
		t.Fatalf("run --format markdown = %d: %s", code, errOut.String())
	}
	if !strings.HasPrefix(out.String(), "# Tiny\n") || !strings.Contains(out.String(), "```text\n1\n```") ||
		strings.Contains(out.String(), "insertOne({ a: 2 })") {
		t.Errorf("markdown handout (no solutions):\n%s", out.String())
	}

	// A failing expectation names the lesson and step and exits non-zero.
	broken := strings.Replace(lesson, "```text expect\n1\n", "```text expect\n42\n", 1)
	if err := os.WriteFile(pack+"/tiny.md", []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errOut.Reset()
	if code := runLessons(ctx, &g, []string{"--check", "tiny"}, &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), `FAIL tiny step 1 "Count"`) {
		t.Errorf("broken lesson: code %d, stderr:\n%s", code, errOut.String())
	}

	out.Reset()
	errOut.Reset()
	if code := listLessons(&g, nil, os.Getenv, &out, &errOut); code != 0 {
		t.Fatalf("list = %d: %s", code, errOut.String())
	}
	for _, want := range []string{"outlier", "bucket", "computed", "tree", "choosing", "tiny", "0/2 steps, 0/1 ex"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("list lacks %q:\n%s", want, out.String())
		}
	}

	out.Reset()
	errOut.Reset()
	if code := resetLessons(ctx, &g, []string{"tiny", "--yes"}, os.Getenv, nil, &out, &errOut); code != 0 ||
		!strings.Contains(out.String(), "schemalab_tiny") {
		t.Errorf("reset = %d: %s %s", code, out.String(), errOut.String())
	}
	if code := resetLessons(ctx, &g, nil, os.Getenv, nil, &out, &errOut); code != 2 {
		t.Errorf("reset without lessons or --all = %d, want 2", code)
	}
}

// Issue 11: a progress file that is valid JSON but wrongly shaped must not
// take `schemalab list` down.
func TestListSurvivesWronglyShapedProgress(t *testing.T) {
	state := t.TempDir()
	t.Setenv("SCHEMALAB_STATE_DIR", state)
	if err := os.WriteFile(state+"/progress.json", []byte(`{"version":1,"lessons":{"outlier":{"exercises":{"x":null}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	g := defaultGlobalOptions(func(string) string { return "" })
	var out, errOut bytes.Buffer
	if code := listLessons(&g, nil, os.Getenv, &out, &errOut); code != 0 || !strings.Contains(out.String(), "outlier") {
		t.Fatalf("list = %d\n%s\n%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(errOut.String(), "moved to") {
		t.Errorf("no warning about the moved file: %q", errOut.String())
	}
}

// The authoring guard of `run --check`: a pack whose exercise passes with
// its starter code untouched fails, naming the file and line.
func TestRunCheckReportsAnExerciseThatPassesUntouched(t *testing.T) {
	t.Setenv("SCHEMALAB_STATE_DIR", t.TempDir())
	pack := t.TempDir()
	lesson := "---\nid: loose\ntitle: Loose\n---\n## Exercise: one\nInsert one document.\n" +
		"```js exercise starter\ndb.c.insertOne({ a: 1 })\n```\n" +
		"```js exercise check\ndb.c.countDocuments() === 1\n```\n```js exercise solution\ndb.c.insertOne({ a: 1 })\n```\n"
	if err := os.WriteFile(pack+"/loose.md", []byte(lesson), 0o644); err != nil {
		t.Fatal(err)
	}
	g := defaultGlobalOptions(func(string) string { return "" })
	g.ContentDir = pack
	var out, errOut bytes.Buffer
	code := runLessons(context.Background(), &g, []string{"--check", "loose"}, &out, &errOut)
	if want := pack + "/loose.md:7): the exercise passes with its starter code untouched"; code != 1 || !strings.Contains(errOut.String(), want) {
		t.Errorf("code %d, want 1 and %q in:\n%s", code, want, errOut.String())
	}
}

// An author's note is never shown: a closed HTML comment is hidden from
// the transcript and the handout, and one left open fails run --check,
// naming its file and line.
func TestRunHidesTheAuthorsCommentsAndCheckReportsAnOpenOne(t *testing.T) {
	t.Setenv("SCHEMALAB_STATE_DIR", t.TempDir())
	pack := t.TempDir()
	lesson := "---\nid: notes\ntitle: Notes\n---\n<!-- needs: verify the intro -->\nIntro.\n## Count\n" +
		"Counting <!-- is this the right word? --> documents.\n\n<!--\nTODO: a second example\n-->\n" +
		"```js run\n1 + 1\n```\n"
	if err := os.WriteFile(pack+"/notes.md", []byte(lesson), 0o644); err != nil {
		t.Fatal(err)
	}
	g := defaultGlobalOptions(func(string) string { return "" })
	g.ContentDir = pack
	ctx := context.Background()
	for _, args := range [][]string{{"--check", "notes"}, {"--format", "markdown", "notes"}} {
		var out, errOut bytes.Buffer
		if code := runLessons(ctx, &g, args, &out, &errOut); code != 0 {
			t.Fatalf("run %v = %d: %s", args, code, errOut.String())
		}
		if s := out.String(); strings.Contains(s, "<!--") || strings.Contains(s, "TODO") || strings.Contains(s, "needs:") ||
			(args[0] == "--format" && !strings.Contains(s, "Counting  documents.")) {
			t.Errorf("run %v shows the author's notes:\n%s", args, s)
		}
	}
	open := strings.Replace(lesson, "\n-->\n", "\n\n", 1)
	if err := os.WriteFile(pack+"/notes.md", []byte(open), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := runLessons(ctx, &g, []string{"--check", "notes"}, &out, &errOut)
	if want := pack + "/notes.md:10): an HTML comment is shown"; code != 1 || !strings.Contains(errOut.String(), want) {
		t.Errorf("an open comment: code %d, want 1 and %q in:\n%s", code, want, errOut.String())
	}
}
