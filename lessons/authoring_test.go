package lessons

import (
	"strings"
	"testing"
)

// A lesson with an author's note in each place one can sit: the parser
// hides every closed comment from what a renderer receives, keeps code
// as it is, and keeps every later line number.
func TestParseHidesTheAuthorsComments(t *testing.T) {
	src := "---\nid: notes\ntitle: Notes\n---\n" + // 1-4
		"<!-- needs: a better introduction -->\n" + // 5
		"Intro.\n" + // 6
		"## First <!-- rename? -->\n" + // 7
		"Prose before <!-- inline note --> and after, `<!-- code span -->`.\n" + // 8
		"<!--\n" + // 9
		"## Not a step\n" + // 10
		"```js run\nthrow new Error('hidden')\n```\n" + // 11-13
		"-->\n" + // 14
		"Second paragraph.\n" + // 15
		"```html\n<!-- shown code -->\n```\n" + // 16-18
		"```js run\n1 <!-- not HTML --> 2\n```\n" + // 19-21
		"## Exercise: hint\n" + // 22
		"Do it.\n" + // 23
		"```md exercise hint\nA hint. <!-- for authors -->\n```\n" + // 24-26
		"```js exercise check\ntrue\n```\n```js exercise solution\n1\n```\n"
	l, err := Parse("notes.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Steps) != 2 || l.Steps[0].Title != "First" || l.Intro != "Intro." || l.IntroLine != 6 {
		t.Fatalf("steps %d, first %q, intro %q at %d", len(l.Steps), l.Steps[0].Title, l.Intro, l.IntroLine)
	}
	var prose []Block
	for _, b := range l.Steps[0].Blocks {
		if b.Kind == Prose {
			prose = append(prose, b)
		}
	}
	all := l.Steps[0].Prose() + l.Steps[1].Exercise.Hints[0]
	for _, hidden := range []string{"inline note", "rename?", "Not a step", "hidden", "for authors", "needs:"} {
		if strings.Contains(all+l.Intro, hidden) {
			t.Errorf("%q is shown:\n%s", hidden, all)
		}
	}
	for _, kept := range []string{"`<!-- code span -->`", "<!-- shown code -->", "Second paragraph."} {
		if !strings.Contains(all, kept) {
			t.Errorf("%q is gone:\n%s", kept, all)
		}
	}
	if runs := l.Steps[0].Code(Run); len(runs) != 1 || runs[0].Text != "1 <!-- not HTML --> 2" || runs[0].Line != 19 {
		t.Errorf("run blocks: %+v", runs)
	}
	// Every line keeps its number: the hidden ones are blank.
	if len(prose) != 1 || prose[0].Line != 8 || strings.Split(prose[0].Text, "\n")[15-8] != "Second paragraph." {
		t.Errorf("prose blocks and their lines: %+v", prose)
	}
	if ps := CheckText(l); len(ps) != 0 {
		t.Errorf("a lesson whose comments are all closed has text problems: %+v", ps)
	}
}

// A `<!--` that nothing closes cannot be hidden: run --check names its
// line, wherever it is.
func TestCheckTextReportsACommentLeftOpen(t *testing.T) {
	for _, tc := range []struct {
		src  string
		line int
	}{
		{"---\nid: a\ntitle: A\n---\nIntro <!-- todo\n## S\nText.\n", 5},
		{"---\nid: a\ntitle: A\n---\n## S\nText.\n\nMore <!-- todo: check this\n", 8},
		{"---\nid: a\ntitle: A\n---\n## S\nDo it.\n```md exercise hint\nHint.\n<!-- todo\n```\n```js exercise check\ntrue\n```\n```js exercise solution\n1\n```\n", 9},
	} {
		l, err := Parse("a.md", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		ps := CheckText(l)
		if len(ps) != 1 || ps[0].Line != tc.line || !strings.Contains(ps[0].Msg, "HTML comment") {
			t.Errorf("%q: problems %+v, want one at line %d", tc.src, ps, tc.line)
		}
	}
}

// A claim of provenance needs a link in its own paragraph, in the lesson's
// language and in English.
func TestCheckTextWantsASourceForAClaim(t *testing.T) {
	lesson := func(lang, body string) *Lesson {
		l, err := Parse("p.md", []byte("---\nid: p\ntitle: P\n---\n## S\n"+body))
		if err != nil {
			t.Fatal(err)
		}
		l.Lang = lang
		return l
	}
	for _, tc := range []struct {
		lang, body string
		want       []int // lines of the problems
	}{
		{"en", "A published run on a real mongod took 127 ms.\n", []int{6}},
		{"en", "Figures from a run on a real server.\n", []int{6}},
		{"en", "It was reported\nby [the manual](https://www.mongodb.com/docs/manual/).\n", nil},
		{"en", "It was reported.\n\nSee [the manual](https://www.mongodb.com/docs/manual/).\n", []int{6}},
		{"en", "The `reported` field, and unreported figures.\n", nil},
		{"en", "```js\n// published\n```\n", nil},
		{"id", "Sebuah run pada mongod sungguhan memakan 127 ms.\n", []int{6}},
		{"id", "Angka yang dilaporkan collStats.\n", []int{6}},
		{"ru", "В опубликованном прогоне на настоящем mongod индекс уменьшился.\n", []int{6, 6}},
		{"ru", "Сервер сообщает размер (reported).\n", []int{6}},
		{"ru", "Сервер сообщает размер.\n", nil},
	} {
		var got []int
		for _, p := range CheckText(lesson(tc.lang, tc.body)) {
			got = append(got, p.Line)
		}
		if len(got) != len(tc.want) || (len(got) > 0 && got[0] != tc.want[0]) {
			t.Errorf("%s %q: problems at %v, want %v", tc.lang, tc.body, got, tc.want)
		}
	}
}
