package lessons

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/shell"
)

// A classroom builds each lesson's template once, in the room's process,
// and runs every student's session in a process of its own: the template
// crosses to those processes as bytes. Its snapshots stay on the server;
// what crosses is the rest, the portable globals of each state and the
// results of the setup blocks a seeded runner reports as its own.

type templateWire struct {
	Lesson   string
	DB       string
	Problems []string
	States   map[string]stateWire
	Complete bool
	Goals    map[int]goalWire
}

// goalWire is an exercise's goal (templateGoal): the documents of each
// small collection as BSON, the collections too large to list by name.
type goalWire struct {
	Solved      bool
	None        bool // the solution writes nothing, or fails its check
	Collections []string
	Docs        map[string][][]byte
	Counts      map[string]int64
	Snapshot    string
	Checked     map[string]bool
}

type stateWire struct {
	Globals []byte
	Setup   []blockWire
	Blocked string
}

// blockWire is a block's result, the block by its line: a display-ready
// BlockResult whose errors travel as their text.
type blockWire struct {
	Line       int
	Statements []Statement
	Output     string
	Elapsed    time.Duration
	Err        string
	Passed     bool
	Message    string
	Variants   []variantWire
}

type variantWire struct {
	Label      string
	Line       int
	Statements []Statement
	Output     string
	Err        string
	Figures    []Figure
}

// resultWire is a step's result (Result.MarshalBinary): what a session
// that takes it shows. The run's notes are its own session's, not the
// learner's, and stay behind.
type resultWire struct {
	Step     int
	Blocks   []blockWire
	Failures []Failure
	Pictures Pictures
}

func encodeBlock(br BlockResult) blockWire {
	w := blockWire{Statements: br.Statements, Output: br.Output, Elapsed: br.Elapsed, Err: errString(br.Err),
		Passed: br.Passed, Message: br.Message}
	if br.Block != nil {
		w.Line = br.Block.Line
	}
	for _, v := range br.Variants {
		vw := variantWire{Label: v.Label, Statements: v.Statements, Output: v.Output, Err: errString(v.Err), Figures: v.Figures}
		if v.Block != nil {
			vw.Line = v.Block.Line
		}
		w.Variants = append(w.Variants, vw)
	}
	return w
}

// decodeBlock is encodeBlock's result again, its blocks those of step st
// at the lines it names.
func decodeBlock(st *Step, w blockWire) (BlockResult, error) {
	br := BlockResult{Statements: w.Statements, Output: w.Output, Elapsed: w.Elapsed, Err: errorOf(w.Err),
		Passed: w.Passed, Message: w.Message}
	var err error
	if br.Block, err = blockAt(st, w.Line); err != nil {
		return br, err
	}
	for _, vw := range w.Variants {
		v := VariantResult{Label: vw.Label, Statements: vw.Statements, Output: vw.Output, Err: errorOf(vw.Err), Figures: vw.Figures}
		if v.Block, err = blockAt(st, vw.Line); err != nil {
			return br, err
		}
		br.Variants = append(br.Variants, v)
	}
	return br, nil
}

func blockAt(st *Step, line int) (*Block, error) {
	for bi := range st.Blocks {
		if b := &st.Blocks[bi]; b.Line == line {
			return b, nil
		}
	}
	return nil, fmt.Errorf("no block at line %d", line)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func errorOf(text string) error {
	if text == "" {
		return nil
	}
	return errors.New(text)
}

// MarshalBinary encodes a step's result (OpRun's) for UnmarshalResult: a
// room's run of a step crosses to its students' processes so.
func (r *Result) MarshalBinary() ([]byte, error) {
	return gobBytes(resultWire{Step: r.Step, Failures: r.Failures, Pictures: r.Pictures, Blocks: blockWires(r.Blocks)})
}

func blockWires(brs []BlockResult) []blockWire {
	var ws []blockWire
	for _, br := range brs {
		ws = append(ws, encodeBlock(br))
	}
	return ws
}

// UnmarshalResult decodes a result of step (0-based) of lesson l that
// MarshalBinary wrote; its blocks are l's own.
func UnmarshalResult(l *Lesson, step int, data []byte) (*Result, error) {
	var w resultWire
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&w); err != nil {
		return nil, fmt.Errorf("a result of %s: %w", l.ID, err)
	}
	if w.Step != step || step < 0 || step >= len(l.Steps) {
		return nil, fmt.Errorf("a result of %s: step %d, not step %d", l.ID, w.Step+1, step+1)
	}
	r := &Result{Op: OpRun, Step: w.Step, Failures: w.Failures, Pictures: w.Pictures}
	for _, bw := range w.Blocks {
		br, err := decodeBlock(&l.Steps[w.Step], bw)
		if err != nil {
			return nil, fmt.Errorf("a result of %s, step %d: %w", l.ID, w.Step+1, err)
		}
		r.Blocks = append(r.Blocks, br)
	}
	return r, nil
}

func gobBytes(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// MarshalBinary encodes t for UnmarshalTemplate.
func (t *Template) MarshalBinary() ([]byte, error) {
	w := templateWire{Lesson: t.lesson.ID, DB: t.db, Problems: t.problems, States: map[string]stateWire{}, Complete: t.complete}
	for name, ts := range t.states {
		g, err := ts.globals.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("template of %s, %s: %w", t.lesson.ID, name, err)
		}
		w.States[name] = stateWire{Globals: g, Blocked: ts.blocked, Setup: blockWires(ts.setup)}
	}
	for i, tg := range t.goals {
		gw, err := encodeGoal(tg)
		if err != nil {
			return nil, fmt.Errorf("template of %s, goal of step %d: %w", t.lesson.ID, i+1, err)
		}
		if w.Goals == nil {
			w.Goals = map[int]goalWire{}
		}
		w.Goals[i] = gw
	}
	return gobBytes(&w)
}

// UnmarshalTemplate decodes a template of lesson l that MarshalBinary
// wrote. The template's states point at l's own steps and blocks.
func UnmarshalTemplate(l *Lesson, data []byte) (*Template, error) {
	var w templateWire
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&w); err != nil {
		return nil, fmt.Errorf("template of %s: %w", l.ID, err)
	}
	if w.Lesson != l.ID {
		return nil, fmt.Errorf("a template of %s is not one of %s", w.Lesson, l.ID)
	}
	t := &Template{lesson: l, db: w.DB, problems: w.Problems, states: map[string]*templateState{}, complete: w.Complete}
	for name, sw := range w.States {
		k, before := beforeStep(name)
		i, setup := setupStep(name)
		switch {
		case before && k >= 0 && k <= len(l.Steps):
		case setup && i >= 0 && i < len(l.Steps):
		default:
			return nil, fmt.Errorf("template of %s: no state %q in this lesson", l.ID, name)
		}
		if len(sw.Setup) > 0 && !setup {
			return nil, fmt.Errorf("template of %s: setup results for %q", l.ID, name)
		}
		g, err := shell.UnmarshalPortable(sw.Globals)
		if err != nil {
			return nil, fmt.Errorf("template of %s, %s: %w", l.ID, name, err)
		}
		ts := &templateState{globals: g, blocked: sw.Blocked}
		for _, bw := range sw.Setup {
			br, err := decodeBlock(&l.Steps[i], bw)
			if err != nil {
				return nil, fmt.Errorf("template of %s, %s: %w", l.ID, name, err)
			}
			ts.setup = append(ts.setup, br)
		}
		t.states[name] = ts
	}
	t.goals = map[int]*templateGoal{}
	for i, gw := range w.Goals {
		if i < 0 || i >= len(l.Steps) || l.Steps[i].Exercise == nil {
			return nil, fmt.Errorf("template of %s: a goal for step %d, which is no exercise", l.ID, i+1)
		}
		tg, err := decodeGoal(i, gw)
		if err != nil {
			return nil, fmt.Errorf("template of %s, goal of step %d: %w", l.ID, i+1, err)
		}
		t.goals[i] = tg
	}
	return t, nil
}

func encodeGoal(tg *templateGoal) (goalWire, error) {
	gw := goalWire{Solved: tg.solved, None: tg.want == nil}
	if tg.want == nil {
		return gw, nil
	}
	want := tg.want
	gw.Collections, gw.Counts, gw.Snapshot, gw.Checked = want.collections, want.counts, want.snapshot, want.checked
	gw.Docs = map[string][][]byte{}
	for c, docs := range want.docs {
		if docs == nil {
			continue
		}
		raws := make([][]byte, 0, len(docs))
		for _, d := range docs {
			raw, err := bson.Marshal(d)
			if err != nil {
				return gw, err
			}
			raws = append(raws, raw)
		}
		gw.Docs[c] = raws
	}
	return gw, nil
}

func decodeGoal(i int, gw goalWire) (*templateGoal, error) {
	tg := &templateGoal{solved: gw.Solved}
	if gw.None {
		return tg, nil
	}
	if gw.Snapshot != "" && gw.Snapshot != stateGoal(i) {
		return nil, fmt.Errorf("no state %q for this goal", gw.Snapshot)
	}
	want := &goal{collections: gw.Collections, docs: map[string][]bson.D{}, counts: gw.Counts, snapshot: gw.Snapshot,
		digests: map[string]*digest{}, checked: gw.Checked}
	if want.counts == nil {
		want.counts = map[string]int64{}
	}
	for _, c := range gw.Collections {
		raws, listed := gw.Docs[c]
		if !listed {
			want.docs[c] = nil
			continue
		}
		docs := make([]bson.D, 0, len(raws))
		for _, raw := range raws {
			var d bson.D
			if err := bson.Unmarshal(raw, &d); err != nil {
				return nil, err
			}
			docs = append(docs, d)
		}
		want.docs[c] = docs
	}
	tg.want = want
	return tg, nil
}
