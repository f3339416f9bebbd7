package lessons

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"time"

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

// setupWire is a setup block's result, the block by its line: a
// display-ready BlockResult whose error travels as its text.
type setupWire struct {
	Line       int
	Statements []Statement
	Output     string
	Elapsed    time.Duration
	Err        string
	Passed     bool
	Message    string
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
			s := setupWire{Statements: br.Statements, Output: br.Output, Elapsed: br.Elapsed, Passed: br.Passed, Message: br.Message}
			if br.Block != nil {
				s.Line = br.Block.Line
			}
			if br.Err != nil {
				s.Err = br.Err.Error()
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
			br := BlockResult{Statements: s.Statements, Output: s.Output, Elapsed: s.Elapsed, Passed: s.Passed, Message: s.Message}
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
			ts.setup = append(ts.setup, br)
		}
		t.states[name] = ts
	}
	return t, nil
}
