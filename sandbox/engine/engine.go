// Package engine is the embedded MongoDB-compatible database: it executes
// command documents (find, insert, aggregate, explain, ...) against an
// in-memory catalog and answers with mongod's reply documents. It knows
// nothing of sockets or message framing; sandbox/wire does that.
package engine

import (
	"context"
	"io"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/timeseries"
	"github.com/schemalab/schemalab/sandbox/engine/update"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// Engine is one embedded server's data and cursors. It is safe for
// concurrent use by many connections. Reads run on snapshots of what they
// touch and hold no lock while they run; writes lock one collection for
// one document or one short batch at a time (see package catalog). So no
// reader, however long, delays a writer or another reader, and writers to
// different collections never wait for each other.
type Engine struct {
	catalog  *catalog.Catalog
	cursors  *cursorTable
	commands map[string]*command
	usage    *indexUsage
	// planCaches are the collections' plan caches and index filters.
	planCaches *planCaches
	started    time.Time
	// processID is hello's topologyVersion.processId: it tells clients
	// this server from one that restarted on the same address.
	processID bson.ObjectID
	// conns counts the client connections.
	conns connCounts
	// snapshots are the databases saved by schemalabSnapshot, guarded by
	// snapshotsMu.
	snapshotsMu sync.Mutex
	snapshots   snapshotStore
	// snapshotDir is Options.SnapshotDir.
	snapshotDir string
	// buckets is the bucket catalog of the time-series collections.
	buckets *timeseries.Catalog
	// log is the server log (validationAction "warn" writes to it).
	log *serverLog
	// beforeCommand is Options.BeforeCommand.
	beforeCommand func(name string)
	// quotas is set once a storage quota has been set: until then no
	// command pays for looking one up.
	quotas atomic.Bool
	// clock gives the timestamps writes store for Timestamp(0, 0) and
	// $currentDate.
	clock update.ClusterClock
	// profile holds the profile command's settings.
	profile *profileSettings
	// metrics are serverStatus's opcounters and metrics.
	metrics *serverMetrics
	// ops are the commands in flight and the open connections.
	ops *opTable
	// top is the per-namespace usage the top command and latencyStats
	// report.
	top *topStats
	// ttl schedules the TTL passes.
	ttl *ttlMonitor
}

// Options configure an engine.
type Options struct {
	// Strict makes the engine answer like mongod to every command mongod
	// lacks, including schemalab's own (schemalabSnapshot): CommandNotFound.
	// It is for instructors who want the embedded server to look exactly
	// like mongod.
	Strict bool
	// Log receives the server log lines mongod would write (a document
	// that fails a validator with validationAction "warn"); nil discards
	// them.
	Log io.Writer
	// BeforeCommand, when set, runs inside Run's recovered region just
	// before a command's handler. Tests set it to make a handler panic and
	// check what a client then sees.
	BeforeCommand func(name string)
	// MaxOpenCursors caps the cursors open at once; 0 means
	// DefaultMaxOpenCursors.
	MaxOpenCursors int
	// CursorIdleTimeout is how long an unused cursor lives, mongod's
	// cursorTimeoutMillis; 0 means its default, 10 minutes.
	CursorIdleTimeout time.Duration
	// TTLMonitorPeriod is how often TTL indexes expire documents, mongod's
	// ttlMonitorSleepSecs; 0 means its default, 60 seconds.
	TTLMonitorPeriod time.Duration
	// SnapshotDir is where schemalabSnapshot's persist and load keep
	// snapshot files; empty, they are refused. Only the embedded sandbox
	// of a learner's own course sets it: a server that others reach
	// (serve, a classroom) must not write files for them.
	SnapshotDir string
}

// New returns an empty engine.
func New(opts Options) *Engine {
	cmds := commands()
	if !opts.Strict {
		cmds = append(cmds, &command{name: vocab.SnapshotCommand, run: cmdSnapshot,
			help: "schemalab's own, not mongod's: save, restore, drop, list, persist or load a snapshot of the sandbox's databases"})
	}
	e := &Engine{
		catalog:       catalog.New(compilePartialFilter),
		cursors:       newCursorTable(opts.MaxOpenCursors, opts.CursorIdleTimeout),
		commands:      commandTable(cmds),
		processID:     bson.NewObjectID(),
		usage:         newIndexUsage(),
		planCaches:    newPlanCaches(),
		started:       time.Now(),
		snapshots:     snapshotStore{},
		log:           newServerLog(opts.Log),
		buckets:       timeseries.NewCatalog(),
		beforeCommand: opts.BeforeCommand,
		snapshotDir:   opts.SnapshotDir,
		profile:       newProfileSettings(),
		metrics:       newServerMetrics(cmds),
		ops:           newOpTable(),
		top:           newTopStats(),
		ttl:           newTTLMonitor(time.Now(), opts.TTLMonitorPeriod),
	}
	e.createSystemDatabases()
	return e
}

// request is one command being executed.
type request struct {
	// ctx interrupts the command: its deadline is the command's maxTimeMS,
	// and the server cancels it on shutdown.
	ctx  context.Context
	conn *Conn
	db   string
	name string // the command name as the client spelled it
	cmd  bson.D
	// body is cmd without the fields that came as document sequences:
	// what mongod's CurOp records as the command (setGenericOpRequestDetails
	// is given request.body), so that currentOp, the slow-query log and
	// the profiler show a driver's insert without its documents.
	body bson.D
	now  bson.DateTime
	// deadline is when maxTimeMS runs out (zero: no limit).
	deadline time.Time
	// noDiskUse is allowDiskUse: false on find or aggregate: blocking
	// stages past their memory limit fail instead of spilling. Sub-
	// pipelines inherit it with the request.
	noDiskUse bool
	// paused is the time the command spent waiting for something to
	// happen (an awaitable hello, an awaitData getMore), which mongod's
	// CurOp::pauseTimer keeps out of its duration for the slow-query log.
	paused time.Duration
	// viewDefinition marks the parse of a view's pipeline at create or
	// collMod: ViewCatalog::_validatePipeline resolves the namespaces it
	// reads to themselves, with no view pipelines, so views it reads add
	// nothing to its sub-pipeline depth.
	viewDefinition bool
	// prof is the operation's profile while its database is profiled
	// (profiler.go), nil otherwise.
	prof *opProfile
	// api is the Stable API parameters the command was sent with.
	api apiParameters
	// explain marks a pipeline prepared for explain, whose plans neither
	// read nor write the plan cache (PlanCache::shouldCacheQuery).
	explain bool
}

// lsid is the id of the command's logical session (the lsid drivers and
// mongosh send with every command), nil when it has none.
func (r *request) lsid() []byte {
	if lsid, ok := lookupDoc(r.cmd, "lsid"); ok {
		for _, f := range lsid {
			if id, ok := f.Value.(bson.Binary); ok && f.Key == "id" {
				return id.Data
			}
		}
	}
	return nil
}

// owner names whom the command's cursors belong to: its logical session
// (which, as in mongod, is its user's: two users sending the same session
// id have two sessions), or its connection when it has none.
func (r *request) owner() string {
	if id := r.lsid(); id != nil {
		return "lsid:" + r.conn.user + "\x00" + string(id)
	}
	return "conn:" + strconv.FormatInt(r.conn.ID, 10)
}

// Run executes one command. cmd is the OP_MSG body with kind-1 document
// sequences already folded in as arrays after the body's own fields, and
// carries "$db"; sequences names those folded fields. The reply is always
// a document: {ok: 1, ...} or mongod's error shape {ok: 0, errmsg, code,
// codeName}.
//
// Run is the one place a panic below a command is recovered: it becomes
// an InternalError reply, and the connection and the server carry on.
func (e *Engine) Run(ctx context.Context, conn *Conn, cmd bson.D, sequences ...string) (reply bson.D) {
	if len(cmd) == 0 {
		return ErrorReply(mongoerr.New(mongoerr.FailedToParse, "Empty command"))
	}
	name := cmd[0].Key
	c, known := e.commands[name]
	if known {
		// Registered ahead of the recovery below, this runs after it and
		// so also counts a panic's InternalError as a failure.
		counters := e.metrics.started(c)
		defer func() {
			if replyFailed(reply) {
				counters.failed.Add(1)
			}
		}()
	}
	defer func() {
		if r := recover(); r != nil {
			reply = ErrorReply(mongoerr.Newf(mongoerr.InternalError,
				"internal error in command '%s': %v\n%s", cmd[0].Key, r, firstLines(debug.Stack(), 12)))
		}
	}()
	if err := refuseTransactionNumber(name, c, cmd); err != nil {
		return ErrorReply(err)
	}
	if now := time.Now(); e.ttl.due(now) {
		e.expire(now)
	}
	if !known {
		e.metrics.unknown.Add(1)
		return ErrorReply(mongoerr.Newf(mongoerr.CommandNotFound, "no such command: '%s'", name))
	}
	db, _ := lookupString(cmd, "$db")
	if db == "" {
		return ErrorReply(mongoerr.New(mongoerr.InvalidNamespace, "Invalid empty database name"))
	}
	if c.adminOnly && db != "admin" {
		return ErrorReply(mongoerr.New(mongoerr.Unauthorized, name+" may only be run against the admin database."))
	}
	if e.quotas.Load() {
		if err := e.checkQuota(c, db); err != nil {
			return ErrorReply(err)
		}
	}
	if c.noWriteConcern && !value.IsMissing(value.Get(cmd, "writeConcern")) {
		return ErrorReply(mongoerr.New(mongoerr.InvalidOptions, "Command does not support writeConcern"))
	}
	api, err := parseAPIParameters(cmd, c.name)
	if err != nil {
		return ErrorReply(err)
	}
	req := &request{ctx: ctx, conn: conn, db: db, name: name, cmd: cmd, body: messageBody(cmd, sequences),
		now: bson.NewDateTimeFromTime(time.Now()), api: api}
	if api.strict != nil && *api.strict {
		req.ctx = planner.WithAPIStrict(req.ctx)
	}
	limit, err := parseMaxTimeMS(req, c.maxTimeMS)
	if err != nil {
		return ErrorReply(err)
	}
	if limit > 0 && name != "getMore" {
		// getMore's own maxTimeMS is only for awaitData cursors; it
		// inherits what is left of its cursor's (cmdGetMore).
		var cancel context.CancelFunc
		req.deadline = time.Now().Add(limit)
		req.ctx, cancel = context.WithDeadlineCause(req.ctx, req.deadline, errMaxTimeMSExpired)
		defer cancel()
	}
	var op *liveOp
	req.ctx, op = e.ops.begin(req.ctx, conn, c.name, db, req.body)
	defer func() {
		e.ops.end(op)
		e.logSlowOp(req, op, reply)
	}()
	if e.beforeCommand != nil {
		e.beforeCommand(name)
	}
	if e.profile.active.Load() {
		req.prof = e.profileOp(req, c.name)
	}
	out, err := bson.D(nil), e.checkCollectionUUID(c, req)
	if err == nil {
		started := time.Now()
		out, err = c.run(e, req)
		e.top.recordCommand(c.name, db, cmd, time.Since(started))
	}
	if err != nil {
		reply = ErrorReply(err)
	} else {
		reply = append(out, bson.E{Key: "ok", Value: 1.0})
	}
	if req.prof != nil {
		e.finishProfile(req, req.prof, reply, err)
	}
	return reply
}

// messageBody is cmd without its last fields when they are the named
// document sequences.
func messageBody(cmd bson.D, sequences []string) bson.D {
	n := len(cmd) - len(sequences)
	if n < 1 {
		return cmd
	}
	for i, name := range sequences {
		if cmd[n+i].Key != name {
			return cmd
		}
	}
	return cmd[:n:n]
}

func firstLines(b []byte, n int) string {
	lines := 0
	for i, c := range b {
		if c == '\n' {
			lines++
			if lines == n {
				return string(b[:i])
			}
		}
	}
	return string(b)
}

// codelessError is a failure mongod reports with errmsg alone, without
// a code (getLog of an unknown log).
type codelessError string

func (e codelessError) Error() string { return string(e) }

// ErrorReply renders err in mongod's reply shape.
func ErrorReply(err error) bson.D {
	if msg, ok := err.(codelessError); ok {
		return bson.D{{Key: "errmsg", Value: string(msg)}, {Key: "ok", Value: 0.0}}
	}
	me := mongoerr.As(err)
	reply := bson.D{
		{Key: "ok", Value: 0.0},
		{Key: "errmsg", Value: me.Msg},
		{Key: "code", Value: me.Code},
		{Key: "codeName", Value: me.CodeName()},
	}
	return append(reply, me.Extra...)
}

func lookupDoc(d bson.D, key string) (bson.D, bool) {
	v, ok := value.Get(d, key).(bson.D)
	return v, ok
}

func lookupString(d bson.D, key string) (string, bool) {
	s, ok := value.Get(d, key).(string)
	return s, ok
}

// compilePartialFilter lets the catalog evaluate partialFilterExpression
// without depending on the query language.
func compilePartialFilter(filter bson.D) (func(bson.D) bool, error) {
	// index_key_validate.cpp parses it with kBanAllSpecialFeatures.
	f, err := query.Compile(filter, query.Options{BanSpecialFeatures: true})
	if err != nil {
		return nil, err
	}
	return f.Matches, nil
}
