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
}

type stateWire struct {
	Globals []byte
	Setup   []setupWire
	Blocked string
}

// setupWire is a setup block's result: the block by its line, the
// outputs' values as BSON where they have a BSON form (setup output is
// never shown, so a display-only value is left out).
type setupWire struct {
	Line       int
	Outputs    []outputWire
	Statements []shell.Statement
	Printed    string
	Transcript string
	Elapsed    time.Duration
	Metrics    []shell.ExplainMetrics
	Wrote      bool
	Err        string
	Passed     bool
	Message    string
}

type outputWire struct {
	Text  string
	Value []byte
	Span  shell.Span
}

// MarshalBinary encodes t for UnmarshalTemplate.
func (t *Template) MarshalBinary() ([]byte, error) {
	w := templateWire{Lesson: t.lesson.ID, DB: t.db, Problems: t.problems, States: map[string]stateWire{}}
	for name, ts := range t.states {
		g, err := ts.globals.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("template of %s, %s: %w", t.lesson.ID, name, err)
		}
		sw := stateWire{Globals: g, Blocked: ts.blocked}
		for _, br := range ts.setup {
			s := setupWire{Statements: br.Result.Statements, Printed: br.Result.Printed, Transcript: br.Result.Transcript,
				Elapsed: br.Result.Elapsed, Metrics: br.Result.Metrics, Wrote: br.Result.Wrote, Passed: br.Passed, Message: br.Message}
			if br.Block != nil {
				s.Line = br.Block.Line
			}
			if br.Err != nil {
				s.Err = br.Err.Error()
			}
			for _, o := range br.Result.Outputs {
				ow := outputWire{Text: o.Text, Span: o.Span}
				if raw, err := bson.Marshal(bson.D{{Key: "v", Value: o.Value}}); err == nil {
					ow.Value = raw
				}
				s.Outputs = append(s.Outputs, ow)
			}
			sw.Setup = append(sw.Setup, s)
		}
		w.States[name] = sw
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&w); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
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
	t := &Template{lesson: l, db: w.DB, problems: w.Problems, states: map[string]*templateState{}}
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
		for _, s := range sw.Setup {
			br := BlockResult{Result: shell.Result{Statements: s.Statements, Printed: s.Printed, Transcript: s.Transcript,
				Elapsed: s.Elapsed, Metrics: s.Metrics, Wrote: s.Wrote}, Passed: s.Passed, Message: s.Message}
			if s.Err != "" {
				br.Err = errors.New(s.Err)
			}
			for bi := range l.Steps[i].Blocks {
				if b := &l.Steps[i].Blocks[bi]; b.Line == s.Line {
					br.Block = b
				}
			}
			if br.Block == nil {
				return nil, fmt.Errorf("template of %s, %s: no block at line %d", l.ID, name, s.Line)
			}
			for _, ow := range s.Outputs {
				o := shell.Output{Text: ow.Text, Span: ow.Span}
				var d bson.D
				if ow.Value != nil && bson.Unmarshal(ow.Value, &d) == nil && len(d) == 1 {
					o.Value = d[0].Value
				}
				br.Result.Outputs = append(br.Result.Outputs, o)
			}
			ts.setup = append(ts.setup, br)
		}
		t.states[name] = ts
	}
	return t, nil
}
