package tui

import (
	"context"
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/tui/styles"
)

func TestInputComplete(t *testing.T) {
	for src, want := range map[string]bool{
		"db.people.find()":             true,
		"db.people.find({":             false,
		"db.people.find({ a: '}' })":   true,
		"db.people.aggregate([\n  {":   false,
		"print('it\\'s (')":            true,
		"const s = `multi\nline":       false,
		"db.people.find({ a: 1 })\n})": true,
	} {
		if got := inputComplete(src); got != want {
			t.Errorf("inputComplete(%q) = %v, want %v", src, got, want)
		}
	}
}

func TestDistributionPicture(t *testing.T) {
	st := styles.New(true, true)
	bars := []lessons.Bar{{Label: "0–50", Count: 950}, {Label: "50–10000", Count: 40}, {Label: "10000+", Count: 1}}
	s := ansi.Strip(distribution(st, bars, 60, false))
	lines := strings.Split(s, "\n")
	if len(lines) != 4 || !strings.Contains(lines[1], "0–50") || !strings.Contains(lines[3], "10000+") {
		t.Fatalf("unexpected chart:\n%s", s)
	}
	// The long tail stays visible: one book still gets a sliver of bar.
	if !strings.ContainsAny(lines[3], "▏▎▍▌▋▊▉█") {
		t.Errorf("the single outlier has no bar:\n%s", s)
	}
}

func TestBucketPicture(t *testing.T) {
	st := styles.New(true, true)
	s := ansi.Strip(bucketPicture(st, &lessons.BucketSeries{Values: []float64{20, 21, 22}, Count: 3, Min: 20, Max: 22, Avg: 21}, 40))
	if !strings.Contains(s, "▁▄█") || !strings.Contains(s, "count 3 · min 20 · max 22 · avg 21.00") {
		t.Fatalf("unexpected bucket picture:\n%s", s)
	}
}

// A bucket's 60 readings are drawn one cell each, in equal rows when the
// pane is narrower than the hour.
func TestBucketPictureRows(t *testing.T) {
	st := styles.New(true, true)
	vals := make([]float64, 60)
	for i := range vals {
		vals[i] = 20 + float64(i%7)/4
	}
	s := ansi.Strip(bucketPicture(st, &lessons.BucketSeries{Values: vals, Count: 60, Min: 20, Max: 21.5}, 50))
	lines := strings.Split(s, "\n")
	if lines[0] != "bucket · 60 readings" || len(lines) != 4 {
		t.Fatalf("want a title, two rows of 30 readings and the figures:\n%s", s)
	}
	for _, row := range lines[1:3] {
		if n := len([]rune(row)); n != 30 {
			t.Errorf("row %q has %d readings, want 30", row, n)
		}
	}
}

func TestTreePicture(t *testing.T) {
	tr := &lessons.Tree{
		IDs:    []string{"electronics", "phones", "smartphones", "android", "books"},
		Name:   map[string]string{"electronics": "Electronics", "phones": "Phones", "smartphones": "Smartphones", "android": "Android", "books": "Books"},
		Parent: map[string]string{"phones": "electronics", "smartphones": "phones", "android": "smartphones"},
		Hits:   map[string]int{"phones": 1, "smartphones": 0, "android": -1},
	}
	pic := ansi.Strip(treePicture(styles.New(true, true), tr))
	for _, want := range []string{"Electronics", "Phones · depth 1", "Smartphones · depth 0", "Android", "Books"} {
		if !strings.Contains(pic, want) {
			t.Errorf("tree lacks %q:\n%s", want, pic)
		}
	}
}

func TestFiguresTableHighlightsBetter(t *testing.T) {
	st := styles.New(true, true)
	vs := []lessons.VariantResult{
		{Label: "flat", Figures: []lessons.Figure{{Key: "keys", Value: 720}, {Key: "docs", Value: 720}}},
		{Label: "bucketed", Figures: []lessons.Figure{{Key: "keys", Value: 12}, {Key: "docs", Value: 12}}},
	}
	s := figuresTable(st, vs, 80, false)
	plain := ansi.Strip(s)
	if !strings.Contains(plain, "keys examined") || !strings.Contains(plain, "720") || !strings.Contains(plain, "12") {
		t.Fatalf("figures missing:\n%s", plain)
	}
	// Monochrome marks the better value with bold+underline.
	if !strings.Contains(s, "\x1b[1;4;4m1") {
		t.Errorf("the better value 12 is not highlighted:\n%q", s)
	}
}

func TestTooSmall(t *testing.T) {
	m := newTestApp(t, testOptions(t))
	m.Update(tea.WindowSizeMsg{Width: 59, Height: 30})
	if !strings.Contains(m.render(), "terminal too small") {
		t.Error("59 columns should say the terminal is too small")
	}
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	if strings.Contains(m.render(), "terminal too small") {
		t.Error("60×20 is big enough")
	}
}

// TestProgressAndStages runs steps synchronously (no program) to check
// that progress is saved on step changes and runs, and that the stage
// preview walks the pipeline.
func TestProgressAndStages(t *testing.T) {
	store, err := lessons.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts := testOptions(t)
	opts.Store = store
	m := newTestApp(t, opts)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(backendReadyMsg{backend: testSandbox(testBackend)})
	m.openLesson("basics", 0)
	exec := func(cmd tea.Cmd) {
		for cmd != nil {
			msg := cmd()
			if b, ok := msg.(tea.BatchMsg); ok {
				var next tea.Cmd
				for _, c := range b {
					if c == nil {
						continue
					}
					if r, ok := c().(runDoneMsg); ok {
						_, next = m.Update(r)
					}
				}
				cmd = next
				continue
			}
			_, cmd = m.Update(msg)
		}
	}
	_, cmd := m.Update(press("enter"))
	exec(cmd)
	if p := store.Lesson("basics"); !p.IsDone("insert-and-find") || p.Current != "insert-and-find" {
		t.Fatalf("progress after running step 1: %+v", p)
	}
	m.Update(press("n"))
	m.Update(press("n"))
	m.Update(press("n"))
	if p := store.Lesson("basics"); p.Current != "group-by-decade" {
		t.Fatalf("current step = %q, want group-by-decade", p.Current)
	}
	_, cmd = m.Update(press("s"))
	exec(cmd)
	if m.lesson.mode != modeStages || len(m.lesson.stages) != 3 || m.lesson.stage != 0 {
		t.Fatalf("stage preview: mode %v stages %v at %d", m.lesson.mode, m.lesson.stages, m.lesson.stage)
	}
	_, cmd = m.Update(press("s"))
	exec(cmd)
	if m.lesson.stage != 1 || !strings.Contains(m.lesson.output.title, "$group") {
		t.Fatalf("second stage: %d %q", m.lesson.stage, m.lesson.output.title)
	}
	m.Update(press("esc"))
}

func TestThemeAndNoColor(t *testing.T) {
	m := newTestApp(t, testOptions(t))
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.Update(tea.BackgroundColorMsg{Color: color.White})
	if m.styles.IsDark || m.styles.Glamour != "light" {
		t.Errorf("a white background should select the light theme, got dark=%v glamour=%s", m.styles.IsDark, m.styles.Glamour)
	}
	opts := testOptions(t)
	opts.NoColor = true
	mono := newTestApp(t, opts)
	mono.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	mono.Update(backendReadyMsg{backend: testSandbox(testBackend)})
	mono.openLesson("basics", 2)
	if s := mono.render(); strings.Contains(s, "[38;") || strings.Contains(s, "[48;") {
		t.Errorf("--no-color output has colours: %q", s[:200])
	}
}

// --present reveals a step one part at a time: its prose, then on enter
// its code, then on the next enter its output.
func TestPresentRevealsOnePartAtATime(t *testing.T) {
	opts := testOptions(t)
	opts.Present = true
	m := newTestApp(t, opts)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 34})
	m.Update(backendReadyMsg{backend: testSandbox(testBackend)})
	m.openLesson("basics", 0)
	screen := func() string { return ansi.Strip(m.render()) }
	if s := screen(); !strings.Contains(s, "insertMany") || strings.Contains(s, "born: 1815") {
		t.Fatalf("the step should open with its prose only:\n%s", s)
	}
	if s := screen(); !strings.Contains(s, "enter reveals the code") {
		t.Fatalf("no hint that enter reveals the code:\n%s", s)
	}
	if _, cmd := m.Update(press("enter")); cmd != nil {
		t.Fatal("the first enter should reveal, not run")
	}
	if s := screen(); !strings.Contains(s, "born: 1815") || !strings.Contains(s, "Press enter to run") {
		t.Fatalf("the first enter did not reveal the code:\n%s", s)
	}
	_, cmd := m.Update(press("enter"))
	if cmd == nil || !m.runs.active {
		t.Fatal("the second enter should run the step")
	}
}

// A step that compares twice shows one comparison at a time, each column
// with its own code and output, and g moves to the next.
func TestTwoComparisonsInOneStep(t *testing.T) {
	cat, errs := lessons.Load(nil, "testdata/twocompare")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	opts := testOptions(t)
	opts.Catalog = cat
	m := newTestApp(t, opts)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 34})
	m.Update(backendReadyMsg{backend: testSandbox(testBackend)})
	m.openLesson("two", 0)
	p := m.lesson
	msg := p.sess.runStepCmd(context.Background(), 0, 0)()
	p.Update(msg)
	if err := msg.(runDoneMsg).err; err != nil {
		t.Fatal(err)
	}
	screen := ansi.Strip(m.render())
	if len(p.variants) != 2 || !strings.Contains(screen, "db.a.countDocuments()") || strings.Contains(screen, "'three'") ||
		!strings.Contains(screen, "comparison 1 of 2") {
		t.Fatalf("the first comparison should fill the columns:\n%s", screen)
	}
	m.Update(press("g"))
	screen = ansi.Strip(m.render())
	if len(p.variants) != 3 || !strings.Contains(screen, "'three'") || strings.Contains(screen, "db.a.countDocuments()") ||
		!strings.Contains(screen, "comparison 2 of 2") {
		t.Fatalf("g should show the second comparison:\n%s", screen)
	}
}
