package engine

import (
	"sort"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
)

// serverMetrics are the counters serverStatus reports in opcounters and
// metrics (src/mongo/db/stats/counters.h OpCounters, the per-command
// counters Command::initializeClusterRole registers in commands.cpp, and
// the metrics.document counters recordCurOpMetrics feeds in curop.cpp).
// Each counts what the engine really did; nothing is estimated.
type serverMetrics struct {
	// opcounters.
	insert, query, update, delete, getmore, command atomic.Int64
	// unknown is metrics.commands.<UNKNOWN>: commands no one registered.
	unknown atomic.Int64
	// commands holds one entry per registered command name; the map is
	// built once in New and only read afterwards.
	commands map[string]*commandCounters
	// metrics.document.
	docDeleted, docInserted, docReturned, docUpdated atomic.Int64
	// metrics.queryExecutor: keys and documents examined, and the
	// collection scans (CollectionIndexUsageTracker::recordCollectionScans),
	// those of tailable cursors left out of nonTailable.
	scanned, scannedObjects, collScans, collScansNonTailable atomic.Int64
	// metrics.commands.findAndModify and .update's pipeline and
	// arrayFilters (CmdFindAndModify::collectMetrics, UpdateMetrics).
	famPipeline, famArrayFilters, updPipeline, updArrayFilters atomic.Int64
}

// commandCounters is metrics.commands.<name>: total counts every run,
// failed the runs that answered an error. rejected counts the runs a
// query setting with reject: true refused; a standalone mongod, as the
// sandbox is, can set no query settings, so it stays 0.
type commandCounters struct {
	total, failed atomic.Int64
}

func newServerMetrics(cmds []*command) *serverMetrics {
	m := &serverMetrics{commands: make(map[string]*commandCounters, len(cmds))}
	for _, c := range cmds {
		m.commands[c.name] = &commandCounters{}
	}
	return m
}

// countsAsCommand is shouldAffectCommandCounter: false in mongod 8.0 for
// find, which counts in opcounters.query, getMore, in opcounters.getmore
// (find_cmd.cpp, getmore_cmd.cpp), and the write commands, which count
// their statements in insert, update and delete (write_commands.cpp).
func countsAsCommand(name string) bool {
	switch name {
	case "find", "getMore", "insert", "update", "delete":
		return false
	}
	return true
}

// started counts a command as execCommandDatabase does before running it:
// its own total, and opcounters.command, query or getmore. Its statements'
// opcounters are counted as they are attempted, by the write paths.
func (m *serverMetrics) started(c *command) *commandCounters {
	switch c.name {
	case "find":
		m.query.Add(1)
	case "getMore":
		m.getmore.Add(1)
	}
	if countsAsCommand(c.name) {
		m.command.Add(1)
	}
	cc := m.commands[c.name]
	if cc != nil {
		cc.total.Add(1)
	}
	return cc
}

// updateStatementMetrics is UpdateMetrics::collectMetrics for one update
// statement: a pipeline update and one with arrayFilters each count.
func updateStatementMetrics(pipeline, arrayFilters *atomic.Int64, st *updateStatement) {
	if _, ok := st.update.(bson.A); ok {
		pipeline.Add(1)
	}
	if st.arrayFilters != nil {
		arrayFilters.Add(1)
	}
}

// opcounters renders serverStatus's opcounters (OpCounters::getObj).
func (m *serverMetrics) opcounters() bson.D {
	return bson.D{
		{Key: "insert", Value: m.insert.Load()},
		{Key: "query", Value: m.query.Load()},
		{Key: "update", Value: m.update.Load()},
		{Key: "delete", Value: m.delete.Load()},
		{Key: "getmore", Value: m.getmore.Load()},
		{Key: "command", Value: m.command.Load()},
	}
}

// metricsSection renders metrics as mongod's metric tree does: every
// level's names in byte order. spec is the command's metrics field: a
// document there may leave out a subtree with a false value.
func (m *serverMetrics) metricsSection(spec any, cursors *cursorTable) bson.D {
	excluded := func(name string) bool {
		d, ok := spec.(bson.D)
		if !ok {
			return false
		}
		for _, e := range d {
			if e.Key == name {
				return !expr.IsTrue(e.Value)
			}
		}
		return false
	}
	var out bson.D
	if !excluded("commands") {
		names := make([]string, 0, len(m.commands))
		for name := range m.commands {
			names = append(names, name)
		}
		sort.Strings(names)
		cmds := bson.D{{Key: "<UNKNOWN>", Value: m.unknown.Load()}}
		for _, name := range names {
			c := m.commands[name]
			fields := bson.D{{Key: "failed", Value: c.failed.Load()}, {Key: "rejected", Value: int64(0)}, {Key: "total", Value: c.total.Load()}}
			switch name {
			case "findAndModify":
				fields = withUpdateMetrics(fields, &m.famPipeline, &m.famArrayFilters)
			case "update":
				fields = withUpdateMetrics(fields, &m.updPipeline, &m.updArrayFilters)
			}
			cmds = append(cmds, bson.E{Key: name, Value: fields})
		}
		out = append(out, bson.E{Key: "commands", Value: cmds})
	}
	if !excluded("cursor") {
		out = append(out, bson.E{Key: "cursor", Value: cursors.cursorMetrics()})
	}
	if !excluded("document") {
		out = append(out, bson.E{Key: "document", Value: bson.D{
			{Key: "deleted", Value: m.docDeleted.Load()},
			{Key: "inserted", Value: m.docInserted.Load()},
			{Key: "returned", Value: m.docReturned.Load()},
			{Key: "updated", Value: m.docUpdated.Load()},
		}})
	}
	if !excluded("queryExecutor") {
		out = append(out, bson.E{Key: "queryExecutor", Value: bson.D{
			{Key: "collectionScans", Value: bson.D{
				{Key: "nonTailable", Value: m.collScansNonTailable.Load()},
				{Key: "total", Value: m.collScans.Load()},
			}},
			{Key: "scanned", Value: m.scanned.Load()},
			{Key: "scannedObjects", Value: m.scannedObjects.Load()},
		}})
	}
	return out
}

// examined adds what an operation's reads examined, as
// recordCurOpMetrics adds OpDebug's keysExamined and docsExamined.
func (m *serverMetrics) examined(keys, docs int64) {
	m.scanned.Add(keys)
	m.scannedObjects.Add(docs)
}

// queried counts an operation's collection scans once its plan has run
// (CollectionQueryInfo::notifyOfQuery); a getMore counts none.
func (m *serverMetrics) queried(collScans int64, tailable bool) {
	m.collScans.Add(collScans)
	if !tailable {
		m.collScansNonTailable.Add(collScans)
	}
}

// collectionScanned counts an operation's collection scans of coll in
// serverStatus and in coll's $collStats queryExecStats, as
// CollectionQueryInfo::notifyOfQuery hands an operation's summary to the
// collection's CollectionIndexUsageTracker, which counts both. The scans
// of a pipeline's $lookup and $unionWith count against the collection the
// pipeline runs on, as the classic engine sums a pipeline's stages into
// that one summary (PipelineD::accumulatePipelinePlanSummaryStats).
func (e *Engine) collectionScanned(coll *catalog.Collection, n int64, tailable bool) {
	e.metrics.queried(n, tailable)
	e.usage.recordScans(coll, n, tailable)
}

// planRan counts what the plan of a count, a distinct or a write's
// statement examined, in serverStatus's metrics and in the operation's
// profile entry.
func (e *Engine) planRan(req *request, exec *planner.Executor) {
	e.metrics.examined(exec.KeysExamined(), exec.DocsExamined())
	if exec.CollectionScan() {
		e.collectionScanned(exec.Collection(), 1, false)
	}
	if req.prof != nil {
		req.prof.planned(exec)
	}
}

// withUpdateMetrics adds arrayFilters and pipeline to failed, rejected,
// total in the tree's order.
func withUpdateMetrics(fields bson.D, pipeline, arrayFilters *atomic.Int64) bson.D {
	return bson.D{
		{Key: "arrayFilters", Value: arrayFilters.Load()},
		fields[0],
		{Key: "pipeline", Value: pipeline.Load()},
		fields[1], fields[2],
	}
}

// replyFailed reports whether a command's reply is an error reply:
// {ok: 0}. Write errors come with ok: 1, and mongod counts those commands
// as succeeded.
func replyFailed(reply bson.D) bool {
	for _, e := range reply {
		if e.Key == "ok" {
			return e.Value == 0.0
		}
	}
	return false
}

// updated adds what one update statement did to metrics.document: the
// documents it matched (OpDebug's nMatched) and the one an upsert
// inserted.
func (m *serverMetrics) updated(out updateOutcome) {
	m.docUpdated.Add(out.matched)
	if out.upsertedID != nil {
		m.docInserted.Add(1)
	}
}

// returnedOne counts the document findAndModify returns, when it returns
// one.
func (m *serverMetrics) returnedOne(v any) {
	if d, ok := v.(bson.D); ok && d != nil {
		m.docReturned.Add(1)
	}
}

// cursorStats are serverStatus's metrics.cursor counters, kept by the
// cursor table under its lock: the cursors registered, those that timed
// out, those that served a getMore (moreThanOneBatch, counted when they
// die), and how long they lived, in the buckets of
// incrementCursorLifespanMetric (cursor_manager.cpp), shortest first.
type cursorStats struct {
	totalOpened, timedOut, moreThanOneBatch int64
	lifespan                                [7]int64
}

// lifespanBucket is the bucket of a cursor that lived age: under 1s, 5s,
// 15s, 30s, 1 minute, 10 minutes, or longer.
func lifespanBucket(age time.Duration) int {
	switch {
	case age < time.Second:
		return 0
	case age < 5*time.Second:
		return 1
	case age < 15*time.Second:
		return 2
	case age < 30*time.Second:
		return 3
	case age < time.Minute:
		return 4
	case age < 10*time.Minute:
		return 5
	}
	return 6
}

func (s *cursorStats) died(c *cursor, now time.Time) {
	if c.getMores > 0 {
		s.moreThanOneBatch++
	}
	s.lifespan[lifespanBucket(now.Sub(c.born))]++
}

// cursorMetrics renders metrics.cursor in the metric tree's (byte) order.
// The sandbox keeps no cursor from timing out (noCursorTimeout is not
// honoured), so open.noTimeout is 0.
func (t *cursorTable) cursorMetrics() bson.D {
	t.mu.Lock()
	defer t.mu.Unlock()
	pinned := int64(0)
	for _, c := range t.cursors {
		if c.cancel != nil {
			pinned++
		}
	}
	l := t.stats.lifespan
	return bson.D{
		{Key: "lifespan", Value: bson.D{
			{Key: "greaterThanOrEqual10Minutes", Value: l[6]},
			{Key: "lessThan10Minutes", Value: l[5]},
			{Key: "lessThan15Seconds", Value: l[2]},
			{Key: "lessThan1Minute", Value: l[4]},
			{Key: "lessThan1Second", Value: l[0]},
			{Key: "lessThan30Seconds", Value: l[3]},
			{Key: "lessThan5Seconds", Value: l[1]},
		}},
		{Key: "moreThanOneBatch", Value: t.stats.moreThanOneBatch},
		{Key: "open", Value: bson.D{
			{Key: "noTimeout", Value: int64(0)},
			{Key: "pinned", Value: pinned},
			{Key: "total", Value: int64(len(t.cursors))},
		}},
		{Key: "timedOut", Value: t.stats.timedOut},
		{Key: "totalOpened", Value: t.stats.totalOpened},
	}
}
