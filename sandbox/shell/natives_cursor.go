package shell

import (
	"context"
	"slices"
	"sync"

	"github.com/dop251/goja"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// cursorNatives open and iterate cursors.
func cursorNatives() []native {
	return []native{
		{"openFind", (*Shell).openFind, false},
		// An aggregation may end in $out or $merge.
		{"openAggregate", (*Shell).openAggregate, true},
		{"cursorHasNext", (*Shell).cursorHasNext, false},
		{"cursorNext", (*Shell).cursorNext, false},
		{"cursorTake", (*Shell).cursorTake, false},
		{"cursorCount", (*Shell).cursorCount, false},
		{"cursorClose", (*Shell).cursorClose, false},
		{"cursorClosed", (*Shell).cursorClosed, false},
	}
}

// cursorHandle is a cursor of the script. Its command runs at the first
// read, as the Node driver's cursors do. Reads from async code run on
// goroutines of their own, so they take turns.
type cursorHandle struct {
	t   target
	cmd bson.D

	mu     sync.Mutex
	cur    *mongo.Cursor
	peeked bool // cur.Current is the next document
	done   bool
	// bufferedAtClose: close() left documents unread, which keeps a
	// Node driver cursor from counting as closed.
	bufferedAtClose bool
}

// openFind(db, coll, spec) is a find cursor's handle.
func (s *Shell) openFind(c goja.FunctionCall) goja.Value {
	return s.vm.ToValue(&cursorHandle{t: s.target(c.Argument(0)), cmd: findCommand(c.Argument(1).String(), s.optDoc(c.Argument(2)))})
}

// openAggregate(db, coll or 1, spec) is an aggregation cursor's handle.
func (s *Shell) openAggregate(c goja.FunctionCall) goja.Value {
	return s.vm.ToValue(&cursorHandle{t: s.target(c.Argument(0)), cmd: aggregateCommand(s.aggTarget(c.Argument(1)), s.optDoc(c.Argument(2)))})
}

// cursorOp runs read on the cursor of handle v.
func cursorOp[T any](s *Shell, v goja.Value, read func(h *cursorHandle, ctx context.Context, db *mongo.Database) (T, error), done func(T) goja.Value) goja.Value {
	h := s.handle(v)
	return runOp(s, h.t, func(ctx context.Context, db *mongo.Database) (T, error) {
		h.mu.Lock()
		defer h.mu.Unlock()
		return read(h, ctx, db)
	}, done)
}

func (s *Shell) cursorHasNext(c goja.FunctionCall) goja.Value {
	return cursorOp(s, c.Argument(0), (*cursorHandle).peek, func(ok bool) goja.Value { return s.vm.ToValue(ok) })
}

func (s *Shell) cursorNext(c goja.FunctionCall) goja.Value {
	return cursorOp(s, c.Argument(0), func(h *cursorHandle, ctx context.Context, db *mongo.Database) ([]bson.Raw, error) {
		return h.take(ctx, db, 1)
	}, func(docs []bson.Raw) goja.Value {
		if len(docs) == 0 {
			return goja.Null()
		}
		return s.fromRaw(docs[0])
	})
}

// cursorTake(h, max) reads up to max documents; 0 means the rest of the
// batch at hand (one batch read if none is), -1 all of them.
func (s *Shell) cursorTake(c goja.FunctionCall) goja.Value {
	limit := int(c.Argument(1).ToInteger())
	return cursorOp(s, c.Argument(0), func(h *cursorHandle, ctx context.Context, db *mongo.Database) ([]bson.Raw, error) {
		return h.take(ctx, db, limit)
	}, func(docs []bson.Raw) goja.Value {
		vals := make([]any, len(docs))
		for i, d := range docs {
			vals[i] = s.fromRaw(d)
		}
		return s.vm.NewArray(vals...)
	})
}

// cursorCount reads the rest of the cursor and says how many documents
// it had, without converting them (itcount).
func (s *Shell) cursorCount(c goja.FunctionCall) goja.Value {
	return cursorOp(s, c.Argument(0), func(h *cursorHandle, ctx context.Context, db *mongo.Database) (int, error) {
		n := 0
		for {
			ok, err := h.peek(ctx, db)
			if err != nil || !ok {
				return n, err
			}
			h.peeked = false
			n++
		}
	}, func(n int) goja.Value { return s.vm.ToValue(n) })
}

func (s *Shell) cursorClose(c goja.FunctionCall) goja.Value {
	return cursorOp(s, c.Argument(0), func(h *cursorHandle, ctx context.Context, _ *mongo.Database) (struct{}, error) {
		if h.cur != nil && !h.done {
			h.bufferedAtClose = h.peeked || h.cur.RemainingBatchLength() > 0
			_ = h.cur.Close(context.WithoutCancel(ctx))
		}
		h.done = true
		return struct{}{}, nil
	}, func(struct{}) goja.Value { return goja.Undefined() })
}

// cursorClosed(h) is the Node driver's cursor.closed, which mongosh's
// isClosed() and isExhausted() read: the server has nothing more for the
// cursor (or close() was called) and nothing it sent is left unread. A
// cursor that has not run yet is not closed.
func (s *Shell) cursorClosed(c goja.FunctionCall) goja.Value {
	h := s.handle(c.Argument(0))
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.done {
		return s.vm.ToValue(!h.bufferedAtClose)
	}
	return s.vm.ToValue(h.cur != nil && h.cur.ID() == 0 && !h.peeked && h.cur.RemainingBatchLength() == 0)
}

func (s *Shell) handle(v goja.Value) *cursorHandle {
	h, ok := v.Export().(*cursorHandle)
	if !ok {
		s.throw("TypeError", "not a cursor")
	}
	return h
}

// peek reports whether the cursor has a next document, running its
// command first if it has not run yet.
func (h *cursorHandle) peek(ctx context.Context, db *mongo.Database) (bool, error) {
	if h.done {
		return false, nil
	}
	if h.cur == nil {
		cur, err := db.RunCommandCursor(ctx, h.cmd)
		if err != nil {
			h.done = true
			return false, err
		}
		h.cur = cur
	}
	if h.peeked {
		return true, nil
	}
	if h.cur.Next(ctx) {
		h.peeked = true
		return true, nil
	}
	h.done = true
	return false, h.cur.Err()
}

// take reads up to max documents (see cursorTake), copied: the driver
// reuses the bytes of its batches.
func (h *cursorHandle) take(ctx context.Context, db *mongo.Database, max int) ([]bson.Raw, error) {
	var out []bson.Raw
	for max < 0 || len(out) < max || max == 0 && (len(out) == 0 || h.cur.RemainingBatchLength() > 0) {
		ok, err := h.peek(ctx, db)
		if err != nil || !ok {
			return out, err
		}
		out = append(out, slices.Clone(h.cur.Current))
		h.peeked = false
	}
	return out, nil
}

var findOptionKeys = []string{"sort", "projection", "hint", "skip", "limit", "batchSize", "singleBatch", "comment", "maxTimeMS", "collation", "min", "max", "allowDiskUse", "let", "returnKey", "showRecordId"}

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
