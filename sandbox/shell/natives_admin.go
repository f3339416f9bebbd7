package shell

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// adminNatives run commands and manage indexes, collections and databases.
func adminNatives() []native {
	return []native{
		{"runCommand", (*Shell).runCommand, true},
		{"explainCommand", (*Shell).explainCommand, false},
		{"explain", (*Shell).explain, false},
		{"createIndexes", (*Shell).createIndexes, true},
		{"getIndexes", (*Shell).getIndexes, false},
		{"listCollections", (*Shell).listCollections, false},
		{"listDatabases", (*Shell).listDatabases, false},
		{"dropCollection", (*Shell).dropCollection, true},
		{"dropDatabase", (*Shell).dropDatabase, true},
	}
}

func (s *Shell) runCommand(c goja.FunctionCall) goja.Value {
	cmd := s.mustDoc(c.Argument(1), "command")
	return s.commandOp(s.target(c.Argument(0)), cmd, func(res bson.D) goja.Value { return s.fromBSON(res) })
}

func (s *Shell) explainCommand(c goja.FunctionCall) goja.Value {
	cmd := s.mustDoc(c.Argument(1), "command")
	return s.explainResult(s.target(c.Argument(0)), cmd, c.Argument(2))
}

func (s *Shell) explain(c goja.FunctionCall) goja.Value {
	spec := s.optDoc(c.Argument(3))
	var cmd bson.D
	if c.Argument(2).String() == "find" {
		cmd = findCommand(c.Argument(1).String(), spec)
	} else {
		cmd = aggregateCommand(s.aggTarget(c.Argument(1)), spec)
	}
	return s.explainResult(s.target(c.Argument(0)), cmd, c.Argument(4))
}

func (s *Shell) createIndexes(c goja.FunctionCall) goja.Value {
	collName := c.Argument(1).String()
	keysList, ok := s.mustValue(c.Argument(2)).(bson.A)
	if !ok {
		s.throw("MongoshInvalidInputError", "The \"indexSpecs\" argument must be an array of index specs")
	}
	opts := s.optDoc(c.Argument(3))
	var specs bson.A
	var names []any
	for _, k := range keysList {
		keys, ok := k.(bson.D)
		if !ok {
			s.throw("MongoshInvalidInputError", "The \"keys\" argument must be an object")
		}
		spec := bson.D{{Key: "key", Value: keys}}
		name, _ := lookupD(opts, "name").(string)
		if name == "" || len(keysList) > 1 {
			name = indexName(keys)
		}
		spec = append(spec, bson.E{Key: "name", Value: name})
		for _, e := range opts {
			if e.Key != "name" {
				spec = append(spec, e)
			}
		}
		specs = append(specs, spec)
		names = append(names, name)
	}
	cmd := bson.D{{Key: "createIndexes", Value: collName}, {Key: "indexes", Value: specs}}
	return s.commandOp(s.target(c.Argument(0)), cmd, func(bson.D) goja.Value { return s.fromBSON(bson.A(names)) })
}

func (s *Shell) getIndexes(c goja.FunctionCall) goja.Value {
	return s.cursorCommandOp(s.target(c.Argument(0)), bson.D{{Key: "listIndexes", Value: c.Argument(1).String()}})
}

func (s *Shell) listCollections(c goja.FunctionCall) goja.Value {
	cmd := bson.D{{Key: "listCollections", Value: 1}, {Key: "filter", Value: s.mustDoc(c.Argument(1), "filter")}}
	if c.Argument(2).ToBoolean() {
		cmd = append(cmd, bson.E{Key: "nameOnly", Value: true})
	}
	return s.cursorCommandOp(s.target(c.Argument(0)), cmd)
}

func (s *Shell) listDatabases(goja.FunctionCall) goja.Value {
	return s.commandOp(target{db: "admin"}, bson.D{{Key: "listDatabases", Value: 1}}, func(res bson.D) goja.Value {
		return s.fromBSON(lookupD(res, "databases"))
	})
}

func (s *Shell) dropCollection(c goja.FunctionCall) goja.Value {
	cmd := bson.D{{Key: "drop", Value: c.Argument(1).String()}}
	return runOp(s, s.target(c.Argument(0)), func(ctx context.Context, db *mongo.Database) (bool, error) {
		_, err := runCommand(ctx, db, cmd)
		var ce mongo.CommandError
		if errors.As(err, &ce) && ce.Code == 26 {
			return false, nil
		}
		return err == nil, err
	}, func(dropped bool) goja.Value { return s.vm.ToValue(dropped) })
}

func (s *Shell) dropDatabase(c goja.FunctionCall) goja.Value {
	t := s.target(c.Argument(0))
	return s.commandOp(t, bson.D{{Key: "dropDatabase", Value: 1}}, func(bson.D) goja.Value {
		r := s.vm.NewObject()
		_ = r.Set("ok", 1)
		_ = r.Set("dropped", t.db)
		return r
	})
}

// cursorCommandOp runs a cursor-returning command and gives all it
// returns.
func (s *Shell) cursorCommandOp(t target, cmd bson.D) goja.Value {
	return runOp(s, t, func(ctx context.Context, db *mongo.Database) (bson.A, error) {
		return drainCursor(ctx, db, cmd)
	}, func(docs bson.A) goja.Value { return s.fromBSON(docs) })
}

// command runs cmd and waits for it, for the shell's own commands (show).
func (s *Shell) command(db string, cmd bson.D) bson.D {
	d, err := runCommand(s.ctx, s.client.Database(db), cmd)
	if err != nil {
		s.throwDriver(err)
	}
	return d
}

// cursorCommand runs a cursor-returning command and waits for all it
// returns, for the shell's own commands (show).
func (s *Shell) cursorCommand(db string, cmd bson.D) bson.A {
	docs, err := drainCursor(s.ctx, s.client.Database(db), cmd)
	if err != nil {
		s.throwDriver(err)
	}
	return docs
}

func (s *Shell) explainResult(t target, cmd bson.D, verbosity goja.Value) goja.Value {
	v := "queryPlanner"
	if !isNullish(verbosity) {
		switch x := verbosity.Export().(type) {
		case bool:
			if x {
				v = "allPlansExecution"
			}
		default:
			v = verbosity.String()
		}
	}
	return s.commandOp(t, bson.D{{Key: "explain", Value: cmd}, {Key: "verbosity", Value: v}}, func(res bson.D) goja.Value {
		o := s.fromBSON(res).(*goja.Object)
		_ = o.DefineDataPropertySymbol(s.typeSym, s.vm.ToValue("ExplainOutput"), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		return o
	})
}

// indexName is the driver's default index name: key_value pairs joined by _.
func indexName(keys bson.D) string {
	parts := make([]string, 0, len(keys)*2)
	for _, e := range keys {
		var v string
		switch x := e.Value.(type) {
		case int32:
			v = strconv.Itoa(int(x))
		case int64:
			v = strconv.FormatInt(x, 10)
		case float64:
			v = jsNumberString(x, false)
		case string:
			v = x
		default:
			v = Format(x, resultFormat)
		}
		parts = append(parts, e.Key, v)
	}
	return strings.Join(parts, "_")
}
