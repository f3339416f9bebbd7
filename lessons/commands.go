package lessons

import (
	"context"
	"slices"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"

	"github.com/schemalab/schemalab/sandbox/stages"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// Command is one command a learner's code sent to the server, as the
// driver's command monitoring saw it: what checks use to grade how the
// learner got their result, not only what it is, and what a step's
// pictures are drawn from.
type Command struct {
	// Name is the command's name: find, aggregate, insert, update, ...
	Name string `json:"name"`
	// DB is the database it ran on; Collection the collection it names
	// ("" for commands on the database as a whole).
	DB         string `json:"db"`
	Collection string `json:"collection"`
	// Reads lists the collections the command reads: its own for find,
	// count, distinct and aggregate, and every collection a pipeline's
	// $lookup, $graphLookup or $unionWith reads.
	Reads []string `json:"reads"`
	// Writes is the number of write operations: the documents of an
	// insert, the statements of an update or delete, one for
	// findAndModify and for an aggregate ending in $out or $merge.
	Writes int `json:"writes"`
	// Target is the collection written: the command's own, or the
	// $out/$merge target of an aggregate.
	Target string `json:"target,omitempty"`
	// Index is the command's position among everything recorded in the
	// attempt, for explain.
	Index int `json:"index"`
	raw   bson.Raw
}

// IsRead reports whether the command reads documents.
func (c Command) IsRead() bool { return len(c.Reads) > 0 }

// plumbing are the commands the driver and the shell send for their own
// needs, which say nothing about how a learner solved an exercise.
var plumbing = map[string]bool{"hello": true, "isMaster": true, "ismaster": true, "ping": true, "buildInfo": true,
	"endSessions": true, "getMore": true, "killCursors": true, "saslStart": true, "saslContinue": true,
	"getParameter": true, "hostInfo": true, "getLog": true, "getCmdLineOpts": true, "connectionStatus": true,
	vocab.SnapshotCommand: true}

// recorder collects the commands a session's client sends while
// recording is on. The driver calls it from whatever goroutine runs the
// operation, hence the lock.
type recorder struct {
	mu        sync.Mutex
	recording bool
	// summaries keeps of each command only its summary, and the document
	// of an aggregate (whose stages a step's pictures read): what a step
	// run records, where nothing is explained and no check reads a
	// command document.
	summaries bool
	commands  []Command
}

func (r *recorder) monitor() *event.CommandMonitor {
	return &event.CommandMonitor{Started: func(_ context.Context, e *event.CommandStartedEvent) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if !r.recording || plumbing[e.CommandName] {
			return
		}
		c := describeCommand(e.CommandName, e.DatabaseName, e.Command)
		switch {
		case r.summaries && c.Name != "aggregate":
			c.raw = nil
		case !c.IsRead() && len(c.raw) > maxCommandBytes:
			// Checks see only the summary of a large write (commandDocs),
			// and only reads are explained: an insertMany of 144,000
			// documents is not kept.
			c.raw = nil
		}
		c.Index = len(r.commands)
		r.commands = append(r.commands, c)
	}}
}

// start clears the log and records from now on, each command whole (an
// attempt's, which its check reads and explains), or only its summary.
func (r *recorder) start(summaries bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recording, r.summaries, r.commands = true, summaries, nil
}

// pause stops recording and returns whether it was on, for resume.
func (r *recorder) pause() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	was := r.recording
	r.recording = false
	return was
}

func (r *recorder) resume(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recording = on
}

// stop ends recording and returns what was recorded.
func (r *recorder) stop() []Command {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recording = false
	return slices.Clone(r.commands)
}

// since returns the commands recorded from index n on.
func (r *recorder) since(n int) []Command {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n < 0 || n > len(r.commands) {
		n = len(r.commands)
	}
	return slices.Clone(r.commands[n:])
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.commands)
}

func (r *recorder) command(i int) (Command, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if i < 0 || i >= len(r.commands) {
		return Command{}, false
	}
	return r.commands[i], true
}

// describeCommand classifies one command document.
func describeCommand(name, db string, raw bson.Raw) Command {
	c := Command{Name: name, DB: db, raw: raw}
	if coll, ok := raw.Lookup(name).StringValueOK(); ok {
		c.Collection = coll
	}
	arrayLen := func(key string) int {
		arr, ok := raw.Lookup(key).ArrayOK()
		if !ok {
			return 0
		}
		vals, _ := arr.Values()
		return len(vals)
	}
	switch name {
	case "find", "count", "distinct":
		c.Reads = []string{c.Collection}
	case "aggregate":
		c.Reads = []string{c.Collection}
		if arr, ok := raw.Lookup("pipeline").ArrayOK(); ok {
			c.Reads, c.Target = pipelineNamespaces(arr, c.Reads)
		}
		if c.Target != "" {
			c.Writes = 1
		}
	case "insert":
		c.Writes, c.Target = arrayLen("documents"), c.Collection
	case "update":
		c.Writes, c.Target = arrayLen("updates"), c.Collection
	case "delete":
		c.Writes, c.Target = arrayLen("deletes"), c.Collection
	case "findAndModify", "findandmodify":
		c.Reads, c.Writes, c.Target = []string{c.Collection}, 1, c.Collection
	case "create", "drop", "createIndexes", "dropIndexes", "collMod":
		c.Writes, c.Target = 1, c.Collection
	case "renameCollection":
		c.Writes = 1
	case "explain":
		// An explain with executionStats runs the read it explains.
		if inner, ok := raw.Lookup("explain").DocumentOK(); ok {
			if first, err := inner.IndexErr(0); err == nil {
				in := describeCommand(first.Key(), db, bson.Raw(inner))
				c.Collection, c.Reads = in.Collection, in.Reads
			}
		}
	}
	return c
}

// pipelineNamespaces adds the collections a pipeline reads to reads and
// returns the collection its final $out or $merge writes, as the stage
// descriptors (sandbox/stages) name them.
func pipelineNamespaces(pipeline bson.RawArray, reads []string) ([]string, string) {
	var stagesDocs bson.A
	if err := (bson.RawValue{Type: bson.TypeArray, Value: pipeline}).Unmarshal(&stagesDocs); err != nil {
		return reads, ""
	}
	target := ""
	stages.Walk(stagesDocs, func(r stages.Ref) {
		switch {
		case r.Coll == "":
		case r.Write:
			target = r.Coll
		default:
			reads = appendNew(reads, r.Coll)
		}
	})
	return reads, target
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
