package lesson

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/components/figures"
	"github.com/schemalab/schemalab/tui/components/notebook"
	"github.com/schemalab/schemalab/tui/components/pane"
	"github.com/schemalab/schemalab/tui/components/pictures"
	"github.com/schemalab/schemalab/tui/components/prose"
	"github.com/schemalab/schemalab/tui/components/tree"
	"github.com/schemalab/schemalab/tui/components/viewport"
)

var (
	msgIntroTitle  = &locale.Message{ID: "step.introTitle", Other: "Introduction"}
	msgStepTitle   = &locale.Message{ID: "step.title", Other: "Step {{.N}} of {{.Total}} · {{.Title}}"}
	msgSetupFolded = &locale.Message{ID: "step.setupFolded", One: "▸ setup · {{.Count}} line, runs first · {{.Key}} shows it", Other: "▸ setup · {{.Count}} lines, runs first · {{.Key}} shows it"}
	msgSetupShown  = &locale.Message{ID: "step.setupShown", Other: "▾ setup · runs first · {{.Key}} hides it"}
	msgRevealCode  = &locale.Message{ID: "step.revealCode", Other: "▸ enter reveals the code"}
	msgRevealMore  = &locale.Message{ID: "step.revealMore", Other: "▸ enter runs it; more follows the output"}
	msgHint        = &locale.Message{ID: "step.hint", Other: "Hint {{.N}}/{{.Total}}"}
	msgHintsLeft   = &locale.Message{ID: "step.hintsLeft", One: "{{.Count}} hint available: press {{.Key}}", Other: "{{.Count}} hints available: press {{.Key}}"}
	msgExpectMet   = &locale.Message{ID: "step.expectMet", Other: "✓ expected output found"}
	msgCheckMet    = &locale.Message{ID: "step.checkMet", Other: "✓ check passed"}
	msgFigsBefore  = &locale.Message{ID: "step.figuresBefore", Other: "Press enter to run the variants and compare their figures."}
	msgFigsReveal  = &locale.Message{ID: "step.figuresReveal", Other: "Press enter to reveal the variants' code."}
	msgPrintedNone = &locale.Message{ID: "step.printedNothing", Other: "The step ran and printed nothing."}
)

// stepState is what happened at one step; it outlives the step's view, so
// that going back to a step shows what it did.
type stepState struct {
	ran      *Ran
	attempt  *Ran
	edit     *Ran
	hints    int
	revealed bool
}

// reveal is how much of a step --present shows.
type reveal int

const (
	revealAll   reveal = iota // everything: not presenting, or run
	revealProse               // the prose before the first code block
	revealCode                // up to the last code block
)

// owner says which notebook a row of the document belongs to, for the
// show-all key.
type owner struct {
	nb  *notebook.Notebook
	row int
}

// part is one block of the step, laid out by its renderer.
type part struct {
	prose *prose.Document
	nb    *notebook.Notebook
	// vars are a comparison's variants, on the group's first block.
	vars   []*notebook.Notebook
	labels []string
}

// stepView is a step (or the lesson's introduction) as one scrolling
// document: prose at its measure, each code block with every statement's
// output under it, a comparison's variants side by side, pictures under
// the output they picture; and, for a comparison, the figures panel.
type stepView struct {
	common.Common
	lesson    *lessons.Lesson
	index     int // -1: the introduction
	state     *stepState
	showSetup bool
	doc       *pane.Model
	figs      *figures.Model
	group     int
	parts     map[int]*part
	intro     *prose.Document
	owners    []owner
	groupRows []int
}

func newStepView(c common.Common, l *lessons.Lesson, index int, state *stepState) *stepView {
	v := &stepView{Common: c, lesson: l, index: index, state: state, parts: map[int]*part{}}
	v.doc = pane.New(c, "")
	v.doc.Focus(true)
	v.figs = figures.New(c)
	if index < 0 {
		v.intro = prose.Parse(c, l.Intro, prose.Options{})
		v.doc.SetTitle(prose.Plain(l.Title) + " · " + c.T(msgIntroTitle, nil))
		return v
	}
	st := v.step()
	v.doc.SetTitle(c.T(msgStepTitle, map[string]any{"N": index + 1, "Total": len(l.Steps), "Title": prose.Plain(st.Title)}))
	v.rebuild()
	return v
}

func (v *stepView) step() *lessons.Step { return &v.lesson.Steps[v.index] }

func (v *stepView) isIntro() bool { return v.index < 0 }

// isCompare reports whether the step compares variants.
func (v *stepView) isCompare() bool {
	return !v.isIntro() && len(v.step().Code(lessons.Compare)) > 0
}

// hasCode reports whether the step has anything to run.
func (v *stepView) hasCode() bool {
	return !v.isIntro() && slices.ContainsFunc(v.step().Blocks, func(b lessons.Block) bool { return isCode(b.Kind) })
}

func isCode(k lessons.BlockKind) bool {
	return k == lessons.Run || k == lessons.Setup || k == lessons.Compare
}

// groups is the number of comparisons in the step.
func (v *stepView) groups() int {
	n, last := 0, -1
	if v.isIntro() {
		return 0
	}
	for _, b := range v.step().Code(lessons.Compare) {
		if b.Group != last {
			n, last = n+1, b.Group
		}
	}
	return n
}

// largestGroup is the number of variants of the step's largest
// comparison.
func (v *stepView) largestGroup() int {
	n := 0
	for _, p := range v.parts {
		n = max(n, len(p.vars))
	}
	return n
}

// rebuild makes the blocks' renderers from the step and its results.
func (v *stepView) rebuild() {
	st := v.step()
	results := v.results()
	for i := range st.Blocks {
		b := &st.Blocks[i]
		p := v.parts[i]
		if p == nil {
			p = &part{}
			v.parts[i] = p
		}
		switch b.Kind {
		case lessons.Prose:
			if p.prose == nil {
				p.prose = prose.Parse(v.Common, b.Text, prose.Options{})
			}
		case lessons.Run, lessons.Setup:
			blk := notebook.Block{Code: b.Text}
			if r, ok := results[b]; ok {
				blk.Statements = toNotebook(r.Statements)
			}
			p.nb = notebook.New(v.Common, blk, notebook.Options{})
		case lessons.Compare:
			if i > 0 && st.Blocks[i-1].Kind == lessons.Compare && st.Blocks[i-1].Group == b.Group {
				continue
			}
			p.vars, p.labels = nil, nil
			var vs []lessons.VariantResult
			if r, ok := results[b]; ok {
				vs = r.Variants
			}
			for j := i; j < len(st.Blocks) && st.Blocks[j].Kind == lessons.Compare && st.Blocks[j].Group == b.Group; j++ {
				vb := &st.Blocks[j]
				blk := notebook.Block{Code: vb.Text}
				if k := j - i; k < len(vs) {
					blk.Statements = toNotebook(vs[k].Statements)
				}
				p.vars = append(p.vars, notebook.New(v.Common, blk, notebook.Options{CollapseAfter: -1}))
				p.labels = append(p.labels, vb.Variant.Label)
			}
		}
	}
	if r := v.state.ran; r != nil && !v.isCompare() {
		v.doc.SetFooter(footerOf(v.Common, r.Result.Elapsed, r.Result.Notes))
	}
	v.showGroup(v.group)
}

// results are the step's block results by block.
func (v *stepView) results() map[*lessons.Block]lessons.BlockResult {
	out := map[*lessons.Block]lessons.BlockResult{}
	if v.state.ran == nil || v.state.ran.Result == nil {
		return out
	}
	for _, r := range v.state.ran.Result.Blocks {
		if r.Block != nil {
			out[r.Block] = r
		}
	}
	return out
}

func toNotebook(sts []lessons.Statement) []notebook.Statement {
	out := make([]notebook.Statement, len(sts))
	for i, s := range sts {
		out[i] = notebook.Statement{Span: notebook.Span{Start: s.StartLine, End: s.EndLine}, Printed: s.Printed, Output: s.Output, Error: s.Error}
	}
	return out
}

// showGroup puts comparison g's figures in the panel.
func (v *stepView) showGroup(g int) {
	n := v.groups()
	if n == 0 {
		return
	}
	v.group = (g%n + n) % n
	var vs []lessons.VariantResult
	if r := v.state.ran; r != nil && r.Result != nil {
		k := 0
		for _, b := range r.Result.Blocks {
			if b.Variants == nil {
				continue
			}
			if k == v.group {
				vs = b.Variants
			}
			k++
		}
		v.figs.SetFooter(footerOf(v.Common, r.Result.Elapsed, r.Result.Notes))
	}
	v.figs.SetVariants(vs, v.group, n)
	switch {
	case v.revealLevel() == revealProse:
		v.figs.SetPlaceholder(v.Styles.Muted.Render(v.T(msgFigsReveal, nil)))
	default:
		v.figs.SetPlaceholder(v.Styles.Muted.Render(v.T(msgFigsBefore, nil)))
	}
	if g < len(v.groupRows) {
		v.doc.SetYOffset(max(v.groupRows[v.group]-1, 0))
	}
}

// revealLevel is how much of the step is shown. Exercises are shown
// whole: the editor is their code.
func (v *stepView) revealLevel() reveal {
	if !v.Present || v.isIntro() || v.step().Exercise != nil || v.state.ran != nil || !v.hasCode() {
		return revealAll
	}
	if v.state.revealed {
		return revealCode
	}
	return revealProse
}

// shownBlocks is the number of the step's blocks the reveal level shows.
func (v *stepView) shownBlocks() int {
	blocks := v.step().Blocks
	switch v.revealLevel() {
	case revealProse:
		return max(slices.IndexFunc(blocks, func(b lessons.Block) bool { return isCode(b.Kind) }), 0)
	case revealCode:
		last := 0
		for i, b := range blocks {
			if isCode(b.Kind) {
				last = i + 1
			}
		}
		return last
	}
	return len(blocks)
}

// SetSize lays the document out: the figures panel, for a comparison,
// under the document at the height its figures need.
func (v *stepView) SetSize(w, h int) {
	v.Common.SetSize(w, h)
	docH := h
	if v.isCompare() {
		fh := min(v.figs.Rows(), max(h/2, 3))
		v.figs.SetSize(w, fh)
		docH = h - fh
	}
	v.doc.SetSize(w, docH)
	v.layout()
}

// layout lays the document's rows out for the pane's inner width.
func (v *stepView) layout() {
	w := v.doc.InnerWidth()
	if v.isIntro() {
		v.doc.SetRows(v.intro.Rows(w))
		return
	}
	var rows []viewport.Row
	v.owners = v.owners[:0]
	v.groupRows = v.groupRows[:0]
	add := func(rs []viewport.Row, nb *notebook.Notebook) {
		if len(rows) > 0 && len(rs) > 0 && rows[len(rows)-1].Text != "" {
			rows = append(rows, viewport.Row{})
			v.owners = append(v.owners, owner{})
		}
		for i, r := range rs {
			rows = append(rows, r)
			v.owners = append(v.owners, owner{nb: nb, row: i})
		}
	}
	st := v.step()
	results := v.results()
	pics := v.pictures()
	lastRun := -1
	for i := range st.Blocks[:v.shownBlocks()] {
		if st.Blocks[i].Kind == lessons.Run {
			lastRun = i
		}
	}
	for i := range st.Blocks[:v.shownBlocks()] {
		b := &st.Blocks[i]
		p := v.parts[i]
		switch b.Kind {
		case lessons.Prose:
			add(p.prose.Rows(w), nil)
		case lessons.Setup:
			n := strings.Count(b.Text, "\n") + 1
			if !v.showSetup {
				add([]viewport.Row{{Text: v.Styles.Muted.Render(v.N(msgSetupFolded, n, map[string]any{"Key": v.KeyMap.Setup.Help().Key}))}}, nil)
				continue
			}
			add([]viewport.Row{{Text: v.Styles.Muted.Render(v.T(msgSetupShown, map[string]any{"Key": v.KeyMap.Setup.Help().Key}))}}, nil)
			add(v.notebookRows(p.nb, w), p.nb)
		case lessons.Run:
			add(v.notebookRows(p.nb, w), p.nb)
			for _, pic := range pics[b] {
				add(pic, nil)
			}
			if i == lastRun && v.state.ran != nil {
				add(fixedRows(tree.Render(v.Common, v.state.ran.Result.Pictures.Tree)), nil)
			}
		case lessons.Compare:
			if p.vars == nil {
				continue
			}
			v.groupRows = append(v.groupRows, len(rows)+1)
			add(v.variantRows(p, w), nil)
		case lessons.ExpectOutput, lessons.ExpectJS:
			if r, ok := results[b]; ok {
				add(v.verdictRows(b, r, w), nil)
			}
		}
	}
	if v.state.ran != nil && v.state.ran.Err != nil {
		add(errorRows(v.Common, v.state.ran.Err, w), nil)
	} else if v.state.ran != nil && v.printedNothing() {
		add([]viewport.Row{{Text: v.Styles.Muted.Render(v.T(msgPrintedNone, nil))}}, nil)
	}
	switch v.revealLevel() {
	case revealProse:
		add([]viewport.Row{{Text: v.Styles.Muted.Render(v.T(msgRevealCode, nil))}}, nil)
	case revealCode:
		if v.shownBlocks() < len(st.Blocks) {
			add([]viewport.Row{{Text: v.Styles.Muted.Render(v.T(msgRevealMore, nil))}}, nil)
		}
	}
	if ex := st.Exercise; ex != nil {
		add(v.hintRows(ex, w), nil)
	}
	v.doc.SetRows(rows)
}

// printedNothing reports whether a run step's blocks printed nothing at
// all, so that the learner knows it ran.
func (v *stepView) printedNothing() bool {
	r := v.state.ran.Result
	if r == nil || v.isCompare() {
		return false
	}
	for _, b := range r.Blocks {
		if b.Block != nil && (b.Block.Kind == lessons.Run) && (b.Output != "" || b.Err != nil) {
			return false
		}
	}
	return true
}

// notebookRows lays nb out at w; its row info then matches the rows, for
// the show-all key.
func (v *stepView) notebookRows(nb *notebook.Notebook, w int) []viewport.Row { return nb.Rows(w) }

func fixedRows(lines []string) []viewport.Row {
	rows := make([]viewport.Row, len(lines))
	for i, l := range lines {
		rows[i] = viewport.Row{Text: l}
	}
	return rows
}

// pictures are the charts of the step's run blocks, drawn, by block.
func (v *stepView) pictures() map[*lessons.Block][][]viewport.Row {
	out := map[*lessons.Block][][]viewport.Row{}
	r := v.state.ran
	if r == nil {
		return out
	}
	w := v.doc.InnerWidth()
	for _, c := range r.Result.Pictures.Charts {
		if c.Block < 0 || c.Block >= len(r.Result.Blocks) {
			continue
		}
		b := r.Result.Blocks[c.Block].Block
		if lines := pictures.Render(v.Common, c, min(w, 100), v.Present); len(lines) > 0 {
			out[b] = append(out[b], fixedRows(lines))
		}
	}
	return out
}

func (v *stepView) verdictRows(b *lessons.Block, r lessons.BlockResult, w int) []viewport.Row {
	if r.Passed {
		msg := msgExpectMet
		if b.Kind == lessons.ExpectJS {
			msg = msgCheckMet
		}
		return []viewport.Row{{Text: v.Styles.Success.Render(v.T(msg, nil))}}
	}
	return wrapRows(v.Styles.Error, "✗ "+r.Message, w)
}

func (v *stepView) hintRows(ex *lessons.Exercise, w int) []viewport.Row {
	var rows []viewport.Row
	n := min(v.state.hints, len(ex.Hints))
	for i := range n {
		rows = append(rows, viewport.Row{Text: v.Styles.Warning.Render(v.T(msgHint, map[string]any{"N": i + 1, "Total": len(ex.Hints)}))})
		rows = append(rows, prose.Parse(v.Common, ex.Hints[i], prose.Options{}).Rows(w)...)
		rows = append(rows, viewport.Row{})
	}
	if left := len(ex.Hints) - n; left > 0 {
		rows = append(rows, viewport.Row{Text: v.Styles.Muted.Render(v.N(msgHintsLeft, left, map[string]any{"Key": v.KeyMap.Hint.Help().Key}))})
	}
	return rows
}

// ToggleOutput expands or collapses the long output nearest the top of
// the window; it reports whether there was one.
func (v *stepView) ToggleOutput() bool {
	top := v.doc.YOffset()
	for y := top; y < min(top+v.doc.InnerHeight(), len(v.owners)); y++ {
		o := v.owners[y]
		if o.nb == nil {
			continue
		}
		info := o.nb.Info()
		if o.row >= len(info) {
			continue
		}
		ri := info[o.row]
		if ri.Statement >= 0 && (ri.Part == notebook.Hint || (ri.Part == notebook.Output && o.nb.Collapsible(ri.Statement))) {
			o.nb.SetExpanded(ri.Statement, !o.nb.Expanded(ri.Statement))
			v.layout()
			v.doc.SetYOffset(top)
			return true
		}
	}
	return false
}

// hasCollapsible reports whether any output of the step collapses.
func (v *stepView) hasCollapsible() bool {
	for _, p := range v.parts {
		if p.nb == nil {
			continue
		}
		for _, ri := range p.nb.Info() {
			if ri.Part == notebook.Hint {
				return true
			}
		}
	}
	return false
}

// ran shows the step's result; the reader's place in the document stays
// where it was, as a run must not move the prose being read.
func (v *stepView) ran() {
	y := v.doc.YOffset()
	v.rebuild()
	v.SetSize(v.Width, v.Height)
	v.doc.SetYOffset(y)
}

// nextGroup puts the next comparison's figures in the panel, which is as
// tall as they need, and shows its variants.
func (v *stepView) nextGroup() {
	v.showGroup(v.group + 1)
	y := v.doc.YOffset()
	v.SetSize(v.Width, v.Height)
	v.doc.SetYOffset(y)
}

// reveal shows the step's code (presenting); when the prose already
// filled the window, the code comes into view.
func (v *stepView) reveal() {
	v.state.revealed = true
	seen := v.doc.TotalRows()
	v.layout()
	v.showGroup(v.group)
	if seen > v.doc.InnerHeight()/2 {
		v.doc.SetYOffset(seen - 3)
	}
}

// showHints lays the hints out again with one more, at the bottom.
func (v *stepView) showHints() {
	v.layout()
	v.doc.GotoBottom()
}

// toggleSetup shows or hides the step's setup code.
func (v *stepView) toggleSetup() {
	v.showSetup = !v.showSetup
	v.layout()
}

// scrollWidth is the natural width of the step's widest code or table.
func (v *stepView) scrollWidth() int { return v.doc.ScrollWidth() }

// widths are the columns a run's outputs are laid out for: those of the
// document, and of a comparison's variant boxes.
func (v *stepView) widths() lessons.Widths {
	w := lessons.Widths{Output: outputWidth(v.doc)}
	if v.isCompare() {
		inner := v.doc.InnerWidth()
		cols := variantColumns(v.largestGroup(), inner)
		w.Variant = max(inner/cols-pane.ChromeW-notebookGutter, 20)
	}
	return w
}

func (v *stepView) Init() tea.Cmd { return nil }

// Update scrolls the document, for the keys and the wheel over it.
func (v *stepView) Update(msg tea.Msg) (common.Model, tea.Cmd) {
	switch m := msg.(type) {
	case common.FocusMsg:
		v.doc.Focus(bool(m))
		return v, nil
	case tea.MouseWheelMsg:
		if m.Y >= v.doc.Height {
			return v, nil // the figures panel does not scroll
		}
	}
	v.doc.Handle(msg)
	return v, nil
}

// View is the document, and the figures panel under a comparison.
func (v *stepView) View() string {
	if v.isCompare() {
		return v.doc.View() + "\n" + v.figs.View()
	}
	return v.doc.View()
}

// ShortHelp is the step's own keys: show all when an output collapses,
// the next comparison when there are several.
func (v *stepView) ShortHelp() []key.Binding {
	var out []key.Binding
	if v.hasCollapsible() {
		out = append(out, v.KeyMap.ShowAll)
	}
	if v.groups() > 1 {
		out = append(out, v.KeyMap.Group)
	}
	return out
}

func (v *stepView) FullHelp() [][]key.Binding { return v.doc.FullHelp() }

var _ common.Component = (*stepView)(nil)
