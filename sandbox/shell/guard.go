package shell

import (
	"github.com/dop251/goja"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// The guard keeps a learner on a shared server inside the sandbox's
// databases: Options.CheckDB is asked before the shell switches to a
// database and before the write natives touch one, and
// Options.CheckCommand before runCommand and aggregate send a command
// (the sandbox package knows which databases a command writes to: $out,
// $merge, renameCollection, ...). Reads of other databases through
// runCommand stay possible; nothing outside the allowed names changes.

// writeNatives are the natives whose first argument is the database they
// write to.
var writeNatives = []string{"insertOne", "insertMany", "update", "deleteDocs", "findAndModify",
	"bulkWrite", "createIndexes", "dropCollection", "dropDatabase"}

// checkDB applies Options.CheckDB, throwing its refusal as a JS error.
func (s *Shell) checkDB(db string) {
	if s.opts.CheckDB == nil {
		return
	}
	if err := s.opts.CheckDB(db); err != nil {
		s.throw("SandboxSafetyError", "%s", err.Error())
	}
}

// guardNatives wraps the natives that write so that their target database
// is checked first, and adds checkDB for the prelude's database switches.
func (s *Shell) guardNatives(n *goja.Object) {
	_ = n.Set("checkDB", func(c goja.FunctionCall) goja.Value {
		s.checkDB(c.Argument(0).String())
		return goja.Undefined()
	})
	if s.opts.CheckDB == nil && s.opts.CheckCommand == nil {
		return
	}
	for _, name := range writeNatives {
		inner, ok := goja.AssertFunction(n.Get(name))
		if !ok {
			continue
		}
		_ = n.Set(name, func(c goja.FunctionCall) goja.Value {
			s.checkDB(c.Argument(0).String())
			v, err := inner(c.This, c.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		})
	}
	for _, name := range []string{"runCommand", "openCursor"} {
		inner, ok := goja.AssertFunction(n.Get(name))
		if !ok {
			continue
		}
		_ = n.Set(name, func(c goja.FunctionCall) goja.Value {
			db := c.Argument(0).String()
			switch name {
			case "runCommand":
				s.checkCommand(db, s.optDoc(c.Argument(1)))
			case "openCursor":
				if c.Argument(2).String() != "find" {
					s.checkCommand(db, aggregateCommand(s.aggTarget(c.Argument(1)), s.optDoc(c.Argument(3))))
				}
			}
			v, err := inner(c.This, c.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		})
	}
}

// checkCommand asks Options.CheckCommand about a command the shell is
// about to send, throwing its refusal as a JS error.
func (s *Shell) checkCommand(db string, cmd bson.D) {
	if s.opts.CheckCommand == nil {
		return
	}
	if err := s.opts.CheckCommand(db, cmd); err != nil {
		s.throw("SandboxSafetyError", "%s", err.Error())
	}
}
