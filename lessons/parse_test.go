package lessons

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

const goodLesson = "---\n" +
	"id: demo\n" +
	"title: \"A demo: lesson\"\n" +
	"summary: Shows every block kind.\n" +
	"order: 7\n" +
	"minutes: 5\n" +
	"---\n" +
	"# A demo\n" +
	"\n" +
	"Intro text.\n" +
	"\n" +
	"## First step\n" +
	"\n" +
	"Some prose.\n" +
	"\n" +
	"```js setup\n" +
	"db.c.insertOne({ a: 1 })\n" +
	"```\n" +
	"\n" +
	"```js run\n" +
	"db.c.countDocuments()\n" +
	"```\n" +
	"\n" +
	"```text expect\n" +
	"1\n" +
	"```\n" +
	"\n" +
	"```js\n" +
	"// only shown\n" +
	"```\n" +
	"\n" +
	"## Compare things\n" +
	"\n" +
	"```js compare label=\"flat one\" collection=flat\n" +
	"db.flat.find().explain('executionStats')\n" +
	"```\n" +
	"\n" +
	"```js compare label=\"bucketed\" collection=\"buckets\" figures=\"{ extra: 1 }\"\n" +
	"db.buckets.find().explain('executionStats')\n" +
	"```\n" +
	"\n" +
	"```js expect\n" +
	"db.c.countDocuments() === 1\n" +
	"```\n" +
	"\n" +
	"## Exercise: do it\n" +
	"\n" +
	"Insert a document.\n" +
	"\n" +
	"```js exercise starter\n" +
	"// your code\n" +
	"```\n" +
	"\n" +
	"```js exercise check\n" +
	"db.c.countDocuments() === 2 || 'insert one more'\n" +
	"```\n" +
	"\n" +
	"```md exercise hint\n" +
	"Use insertOne.\n" +
	"```\n" +
	"\n" +
	"```md exercise hint\n" +
	"db.c.insertOne({})\n" +
	"```\n" +
	"\n" +
	"```js exercise solution\n" +
	"db.c.insertOne({ a: 2 })\n" +
	"```\n" +
	"\n" +
	"```js run throws\n" +
	"db.c.insertOne({ _id: 1 }); db.c.insertOne({ _id: 1 })\n" +
	"```\n"

func TestParseAllBlockKinds(t *testing.T) {
	l, err := Parse("demo.md", []byte(goodLesson))
	if err != nil {
		t.Fatal(err)
	}
	if l.ID != "demo" || l.Title != "A demo: lesson" || l.Summary != "Shows every block kind." || l.Order != 7 || l.Minutes != 5 {
		t.Errorf("front matter: %+v", l)
	}
	if l.Intro != "Intro text." {
		t.Errorf("intro = %q", l.Intro)
	}
	if len(l.Steps) != 3 {
		t.Fatalf("steps = %d, want 3", len(l.Steps))
	}
	ids := []string{l.Steps[0].ID, l.Steps[1].ID, l.Steps[2].ID}
	if strings.Join(ids, ",") != "first-step,compare-things,exercise-do-it" {
		t.Errorf("step ids = %v", ids)
	}
	var kinds []string
	for _, b := range l.Steps[0].Blocks {
		kinds = append(kinds, b.Kind.String())
	}
	if got := strings.Join(kinds, ","); got != "prose,setup,run,expect (output),prose" {
		t.Errorf("step 1 blocks = %s", got)
	}
	if b := l.Steps[0].Blocks[1]; b.Line != 16 || b.Text != "db.c.insertOne({ a: 1 })" {
		t.Errorf("setup block = %+v", b)
	}
	if !strings.Contains(l.Steps[0].Prose(), "// only shown") {
		t.Error("a fence without a kind should stay in the prose")
	}
	cmp := l.Steps[1].Code(Compare)
	if len(cmp) != 2 || cmp[0].Group != cmp[1].Group {
		t.Fatalf("compare blocks = %+v", cmp)
	}
	if v := cmp[0].Variant; v.Label != "flat one" || v.Collection != "flat" {
		t.Errorf("variant 1 = %+v", v)
	}
	if v := cmp[1].Variant; v.Label != "bucketed" || v.Collection != "buckets" || v.Figures != "{ extra: 1 }" {
		t.Errorf("variant 2 = %+v", v)
	}
	ex := l.Steps[2].Exercise
	if ex == nil {
		t.Fatal("step 3 is not an exercise")
	}
	if ex.Task != "Insert a document." || ex.Starter != "// your code" || len(ex.Hints) != 2 || ex.Solution != "db.c.insertOne({ a: 2 })" ||
		!strings.Contains(ex.Check, "insert one more") {
		t.Errorf("exercise = %+v", ex)
	}
	if r := l.Steps[2].Code(Run); len(r) != 1 || !r[0].Throws {
		t.Errorf("run throws = %+v", r)
	}
}

func TestParseErrorsNameFileLineAndProblem(t *testing.T) {
	head := "---\nid: x\ntitle: X\n---\n"
	tests := []struct {
		name, src string
		line      int
		msg       string
	}{
		{"no front matter", "## Step\n", 1, "missing front matter"},
		{"unclosed front matter", "---\nid: x\n", 1, "never closed"},
		{"missing id", "---\ntitle: X\n---\n## S\n", 3, `no "id"`},
		{"bad id", "---\nid: Bad Id\ntitle: X\n---\n", 2, "must be lower-case"},
		{"unknown key", "---\nid: x\ntitel: X\n---\n", 3, `unknown front matter key "titel"`},
		{"order not a number", "---\nid: x\ntitle: X\norder: first\n---\n", 4, "order must be a number such as 3 or 2.5"},
		{"order in another notation", "---\nid: x\ntitle: X\norder: 1e3\n---\n", 4, "order must be a number such as 3 or 2.5"},
		{"minutes not whole", "---\nid: x\ntitle: X\nminutes: 2.5\n---\n", 4, "minutes must be a whole number"},
		{"no steps", head + "Just prose.\n", 0, "no steps"},
		{"unclosed fence", head + "## S\n\n```js run\ndb.c.find()\n", 7, "never closed"},
		{"unknown kind", head + "## S\n```js rnu\nx\n```\n", 6, `unknown block kind "rnu"`},
		{"block before first step", head + "```js run\nx\n```\n", 5, "before the first step"},
		{"compare without label", head + "## S\n```js compare\nx\n```\n", 6, "needs a label"},
		{"single compare variant", head + "## S\n```js compare label=a\nx\n```\n", 6, "only one variant"},
		{"duplicate label", head + "## S\n```js compare label=a\nx\n```\n```js compare label=a\ny\n```\n", 9, `repeats the label "a"`},
		{"exercise without solution", head + "## S\n```js exercise check\ntrue\n```\n", 6, "no solution block"},
		{"exercise without check", head + "## S\n```js exercise solution\nx\n```\n", 6, "no check block"},
		{"exercise without role", head + "## S\n```js exercise\nx\n```\n", 6, "exactly one role"},
		{"empty run block", head + "## S\n```js run\n```\n", 6, "run block is empty"},
		{"setup in markdown", head + "## S\n```md setup\nx\n```\n", 6, "must be JavaScript"},
		{"output expect first", head + "## S\n```text expect\n1\n```\n", 6, "no run or compare block before it"},
		{"unknown attribute", head + "## S\n```js run label=x\ny\n```\n", 6, `does not take attribute "label"`},
		{"unterminated quote", head + "## S\n```js compare label=\"a\nx\n```\n", 6, "unterminated quote"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("pack/bad.md", []byte(tt.src))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if pe.File != "pack/bad.md" || pe.Line != tt.line || !strings.Contains(pe.Msg, tt.msg) {
				t.Errorf("got %q (line %d), want line %d and %q", err, pe.Line, tt.line, tt.msg)
			}
		})
	}
}

func TestLoadKeepsGoodLessonsBesideBadOnes(t *testing.T) {
	fsys := fstest.MapFS{
		"good.md":   {Data: []byte(goodLesson)},
		"bad.md":    {Data: []byte("---\nid: bad\ntitle: Bad\n---\n## S\n```js run\nunclosed\n")},
		"README.md": {Data: []byte("# not a lesson")},
		"notes.txt": {Data: []byte("ignored")},
	}
	ls, errs := LoadFS(fsys, "pack/")
	if len(ls) != 1 || ls[0].ID != "demo" {
		t.Errorf("lessons = %v", ls)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "pack/bad.md:6: ") {
		t.Errorf("errors = %v", errs)
	}
}

func TestLoadOrdersAndRejectsDuplicateIDs(t *testing.T) {
	mk := func(id, order string) []byte {
		return []byte("---\nid: " + id + "\ntitle: T\norder: " + order + "\n---\n## S\ntext\n")
	}
	// "aside" sorts before "beta" by id, but its order 2.5 puts it after.
	builtin := fstest.MapFS{"b.md": {Data: mk("beta", "2")}, "a.md": {Data: mk("alpha", "1")}, "c.md": {Data: mk("aside", "2.5")}}
	dir := t.TempDir()
	writeFile(t, dir+"/extra.md", mk("extra", "3"))
	writeFile(t, dir+"/dup.md", mk("alpha", "4"))
	cat, errs := Load(builtin, dir)
	var ids []string
	for _, l := range cat.Lessons {
		ids = append(ids, l.ID)
	}
	if strings.Join(ids, ",") != "alpha,beta,aside,extra" {
		t.Errorf("ids = %v", ids)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `lesson id "alpha" is already used by builtin:a.md`) {
		t.Errorf("errs = %v", errs)
	}
	if _, err := cat.Select([]string{"beta", "nope"}); err == nil || !strings.Contains(err.Error(), "unknown lesson nope") {
		t.Errorf("Select error = %v", err)
	}
}

func TestMatchFragment(t *testing.T) {
	out := "{\n  acknowledged: true,\n  insertedId: ObjectId('6ad39b39a4366d64684ef1c2')\n}\nkeys=720 docs=720 ms=3  \n"
	tests := []struct {
		frag string
		want bool
	}{
		{"insertedId: ObjectId('...')", false}, // indentation is significant
		{"  insertedId: ObjectId('...')", true},
		{"{\n  acknowledged: true,\n  insertedId: ObjectId('...')\n}", true},
		{"\n\nkeys=720 docs=720 ms=...\n\n", true},
		{"keys=720 docs=72 ms=...", false},
		{"  acknowledged: true,\n}", false}, // lines must be consecutive
	}
	for _, tt := range tests {
		if got := MatchFragment(out, tt.frag); got != tt.want {
			t.Errorf("MatchFragment(%q) = %v, want %v", tt.frag, got, tt.want)
		}
	}
}

// TestAuthoringGuideExampleRuns keeps content/README.md honest: its worked
// example must parse and pass `run --check`.
func TestAuthoringGuideExampleRuns(t *testing.T) {
	src, err := os.ReadFile("../content/README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	start := strings.Index(s, "````markdown\n")
	end := strings.Index(s[start+1:], "\n````\n")
	if start < 0 || end < 0 {
		t.Fatal("README.md has no ````markdown worked example")
	}
	l, err := Parse("README.md example", []byte(s[start+len("````markdown\n"):start+1+end]+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	be := startSandbox(t)
	r := newTestRunner(t, be, l, "guide_")
	for i := range l.Steps {
		res, err := r.Do(context.Background(), Request{Op: OpCheck, Step: i})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Failures {
			t.Errorf("step %d: %s", i+1, f)
		}
	}
}
