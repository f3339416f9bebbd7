package shell

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/dop251/goja"
)

// EvalFunction runs body as the body of a JavaScript function whose
// parameters are the keys of args, with Eval's deadline, interrupt and
// output capture. The value body returns is the Result's one output,
// printed as a statement result is (a cursor prints its first batch).
// The parameters are visible to body alone: nothing is added to the
// session's global scope, so a caller can hand code its own helpers
// without the learner's session seeing them. Go functions among args are
// callable from JavaScript; file names body in stack traces.
func (s *Shell) EvalFunction(ctx context.Context, file, body string, args map[string]any) (Result, error) {
	names := make([]string, 0, len(args))
	for k := range args {
		names = append(names, k)
	}
	slices.Sort(names)
	src := "(function (" + strings.Join(names, ", ") + ") {\n" + body + "\n})"
	return s.evaluate(ctx, func(ctx context.Context) error {
		s.beginInput(Span{StartLine: 1, EndLine: strings.Count(body, "\n") + 1, End: len(body)})
		defer s.endInput()
		err := s.guard(func() error {
			c, err := compileScript(file, src)
			if err != nil {
				return &syntaxError{msg: err.Error()}
			}
			if c.index != nil {
				s.asyncCode[file] = c.index
			}
			fnv, err := s.vm.RunProgram(c.prog)
			if err != nil {
				return err
			}
			fn, ok := goja.AssertFunction(fnv)
			if !ok {
				return fmt.Errorf("internal error: %s is not a function", file)
			}
			vals := make([]goja.Value, len(names))
			for i, n := range names {
				vals[i] = s.vm.ToValue(args[n])
			}
			v, err := fn(goja.Undefined(), vals...)
			if err != nil {
				return err
			}
			return s.emitValue(v)
		})
		if err != nil {
			return s.fail(err, ctx)
		}
		return nil
	})
}

// Globals is a checkpoint of a session's global bindings: each global's
// name and value (not a copy of the object a value points to), and the
// current database.
type Globals struct {
	values map[string]goja.Value
	db     string
}

// SaveGlobals checkpoints the global scope: every top-level declaration
// (the shell turns const and let into var) and every global assignment.
func (s *Shell) SaveGlobals() *Globals {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.vm.GlobalObject()
	cp := &Globals{values: map[string]goja.Value{}, db: s.DB()}
	for _, name := range g.GetOwnPropertyNames() {
		cp.values[name] = g.Get(name)
	}
	return cp
}

// RestoreGlobals puts a checkpoint back: globals it holds get their values
// again, and globals declared since are removed, or set to undefined when
// a declaration made them undeletable.
func (s *Shell) RestoreGlobals(cp *Globals) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.vm.GlobalObject()
	for _, name := range g.GetOwnPropertyNames() {
		if _, ok := cp.values[name]; ok {
			continue
		}
		if err := g.Delete(name); err != nil {
			_ = g.Set(name, goja.Undefined())
		}
	}
	for name, v := range cp.values {
		if err := g.Set(name, v); err != nil {
			_ = g.DefineDataProperty(name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
		}
	}
	s.dbMu.Lock()
	s.db = cp.db
	s.dbMu.Unlock()
	s.lastCursor = nil
}
