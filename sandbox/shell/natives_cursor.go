package shell

import (
	"context"

	"github.com/dop251/goja"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// cursorNatives open and iterate cursors.
var cursorNatives = []native{
	{"openFind", (*Shell).openFind, false},
	// An aggregation may end in $out or $merge.
	{"openAggregate", (*Shell).openAggregate, true},
	{"cursorHasNext", (*Shell).cursorHasNext, false},
	{"cursorNext", (*Shell).cursorNext, false},
	{"cursorClose", (*Shell).cursorClose, false},
}

// openFind(db, coll, spec) runs a find and returns the cursor's handle.
func (s *Shell) openFind(c goja.FunctionCall) goja.Value {
	cur := s.findCursor(c.Argument(0).String(), c.Argument(1).String(), s.optDoc(c.Argument(2)))
	return s.vm.ToValue(&cursorHandle{cur: cur})
}

// openAggregate(db, coll or 1, spec) runs an aggregate and returns the
// cursor's handle.
func (s *Shell) openAggregate(c goja.FunctionCall) goja.Value {
	cur := s.aggregateCursor(c.Argument(0).String(), c.Argument(1), s.optDoc(c.Argument(2)))
	return s.vm.ToValue(&cursorHandle{cur: cur})
}

func (s *Shell) cursorHasNext(c goja.FunctionCall) goja.Value {
	return s.vm.ToValue(s.cursorPeek(c.Argument(0)))
}

func (s *Shell) cursorNext(c goja.FunctionCall) goja.Value {
	h := s.handle(c.Argument(0))
	if !s.cursorPeek(c.Argument(0)) {
		return goja.Null()
	}
	h.peeked = false
	return s.fromRaw(h.cur.Current)
}

func (s *Shell) cursorClose(c goja.FunctionCall) goja.Value {
	h := s.handle(c.Argument(0))
	if h.cur != nil {
		_ = h.cur.Close(context.WithoutCancel(s.ctx))
	}
	h.done = true
	return goja.Undefined()
}

type cursorHandle struct {
	cur    *mongo.Cursor
	peeked bool
	done   bool
}

var findOptionKeys = []string{"sort", "projection", "hint", "skip", "limit", "batchSize", "singleBatch", "comment", "maxTimeMS", "collation", "min", "max", "allowDiskUse", "let", "returnKey", "showRecordId"}

func (s *Shell) handle(v goja.Value) *cursorHandle {
	h, ok := v.Export().(*cursorHandle)
	if !ok {
		s.throw("TypeError", "not a cursor")
	}
	return h
}

func (s *Shell) cursorPeek(v goja.Value) bool {
	h := s.handle(v)
	if h.done || h.cur == nil {
		return false
	}
	if h.peeked {
		return true
	}
	if h.cur.Next(s.ctx) {
		h.peeked = true
		return true
	}
	h.done = true
	if err := h.cur.Err(); err != nil {
		s.throwDriver(err)
	}
	return false
}

// findCommand builds a find command from a cursor spec; a negative limit
// means a single batch, as in the shell.
func findCommand(coll string, spec bson.D) bson.D {
	cmd := bson.D{{Key: "find", Value: coll}}
	filter := lookupD(spec, "filter")
	if filter == nil {
		filter = bson.D{}
	}
	cmd = append(cmd, bson.E{Key: "filter", Value: filter})
	for _, k := range findOptionKeys {
		v := lookupD(spec, k)
		if v == nil {
			continue
		}
		if k == "limit" {
			l := toInt64(v)
			if l == 0 {
				continue
			}
			if l < 0 {
				cmd = append(cmd, bson.E{Key: "limit", Value: -l}, bson.E{Key: "singleBatch", Value: true})
				continue
			}
			v = l
		}
		if k == "skip" && toInt64(v) == 0 {
			continue
		}
		cmd = append(cmd, bson.E{Key: k, Value: v})
	}
	return cmd
}

func aggregateCommand(target any, spec bson.D) bson.D {
	pipeline := lookupD(spec, "pipeline")
	if pipeline == nil {
		pipeline = bson.A{}
	}
	cmd := bson.D{{Key: "aggregate", Value: target}, {Key: "pipeline", Value: pipeline}}
	cursor := bson.D{}
	if bs := lookupD(spec, "batchSize"); bs != nil {
		cursor = append(cursor, bson.E{Key: "batchSize", Value: bs})
	}
	cmd = append(cmd, bson.E{Key: "cursor", Value: cursor})
	for _, e := range spec {
		switch e.Key {
		case "pipeline", "batchSize", "explain", "cursor":
		default:
			cmd = append(cmd, e)
		}
	}
	return cmd
}

func (s *Shell) aggTarget(v goja.Value) any {
	if n, ok := v.Export().(int64); ok && n == 1 {
		return int32(1)
	}
	return v.String()
}

func (s *Shell) findCursor(db, coll string, spec bson.D) *mongo.Cursor {
	cur, err := s.client.Database(db).RunCommandCursor(s.ctx, findCommand(coll, spec))
	if err != nil {
		s.throwDriver(err)
	}
	return cur
}

func (s *Shell) aggregateCursor(db string, target goja.Value, spec bson.D) *mongo.Cursor {
	cur, err := s.client.Database(db).RunCommandCursor(s.ctx, aggregateCommand(s.aggTarget(target), spec))
	if err != nil {
		s.throwDriver(err)
	}
	return cur
}

// cursorCommand runs a cursor-returning command and drains it.
func (s *Shell) cursorCommand(db string, cmd bson.D) bson.A {
	cur, err := s.client.Database(db).RunCommandCursor(s.ctx, cmd)
	if err != nil {
		s.throwDriver(err)
	}
	defer cur.Close(context.WithoutCancel(s.ctx))
	var out bson.A
	for cur.Next(s.ctx) {
		d, err := rawToD(cur.Current)
		if err != nil {
			s.throwDriver(err)
		}
		out = append(out, d)
	}
	if err := cur.Err(); err != nil {
		s.throwDriver(err)
	}
	if out == nil {
		out = bson.A{}
	}
	return out
}
