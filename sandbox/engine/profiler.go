package engine

import (
	"math/rand/v2"
	"net"
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The database profiler at levels 1 and 2 (introspect.cpp, curop.cpp
// CurOp::completeAndLogOperation and OpDebug::append,
// service_entry_point_common.cpp). An operation is profiled when its
// database's level is 2, or at level 1 when it passes the database's
// filter or, without one, when it ran longer than slowms and was sampled
// (sampleRate). Its entry goes to <db>.system.profile, a 1 MB capped
// collection created when profiling is turned on, so the profile can
// never outgrow it.
//
// Nothing here runs at level 0: Run only looks at the profiler when some
// database has a level above 0 (profileSettings.active).

// profileCollection is the profile's collection in each database.
const profileCollection = "system.profile"

// profileCollectionSize is the size mongod gives system.profile when it
// creates it (profile_collection.cpp createProfileCollection: 1 MB).
const profileCollectionSize = 1024 * 1024

// profileMaxElementSize is appendMaxElementSize (curop.cpp): a command or
// originatingCommand larger than this is recorded as {$truncated: <its
// abbreviated text>, comment}.
const profileMaxElementSize = 50 * 1024

// profiledOp is the logical op (logicalOpToString) of the commands that
// profile their operation: those that enter a database with its profile
// level in mongod (CurOp::enter, AutoGetCollectionForReadCommand,
// AutoStatsTracker, the write paths' raiseDbProfileLevel). The server's
// own commands (hello, ping, serverStatus, profile itself...) are not, nor
// is listCollections, whose cursor is the catalog's
// (jstests/core/profile_list_collections.js). bulkWrite, which runs on
// admin and profiles each operation in its own namespace's database, is
// not profiled by the sandbox.
func profiledOp(name string) (string, bool) {
	switch name {
	case "find":
		return "query", true
	case "getMore":
		return "getmore", true
	case "insert":
		return "insert", true
	case "update":
		return "update", true
	case "delete":
		return "remove", true
	case "killCursors":
		return "killcursors", true
	case "count", "distinct", "aggregate", "findAndModify", "listIndexes",
		"dbStats", "collStats", "createIndexes", "dropIndexes", "drop",
		"dropDatabase", "create", "collMod", "validate", "explain", "dataSize", "compact":
		return "command", true
	}
	return "", false
}

// opProfile is one operation's OpDebug while it runs with profiling on.
// A write command with several statements (update, delete) gets an entry
// per statement, each an opEntry of its own.
type opProfile struct {
	level   int32
	start   time.Time
	base    opEntry
	stmts   []*opEntry
	current *opEntry
}

// opEntry is the figures of one profile entry.
type opEntry struct {
	op      string
	ns      string
	command bson.D
	// originating is a getMore's cursor's find or aggregate.
	originating bson.D
	start       time.Time
	millis      int64
	cursorID    int64
	exhausted   bool
	scanned     bool
	keys, docs  int64
	plan        *planner.Profile
	returned    int64
	hasReturned bool
	// write counts; has* tell which the operation reports.
	nMatched, nModified, nInserted, nDeleted, nUpserted int64
	hasUpdate, hasInsert, hasDelete                     bool
	// statement marks the entry of one statement of an update or a
	// delete, which write_ops_exec.cpp profiles under a CurOp of its own:
	// not a command's, it has no responseLength nor protocol.
	statement bool
	// err is a statement's own failure.
	err error
	// keysInserted and keysDeleted are the index entries the writes
	// changed; addsKeys and removesKeys tell whether a document was
	// written that could change them.
	keysInserted, keysDeleted int64
	addsKeys, removesKeys     bool
}

// profileOp starts profiling req's operation, whose command mongod names
// name (whichever alias the client sent), when its database is profiled;
// it returns nil otherwise.
func (e *Engine) profileOp(req *request, name string) *opProfile {
	op, ok := profiledOp(name)
	if !ok {
		return nil
	}
	if c, _ := lookupString(req.cmd, "collection"); name == "getMore" &&
		strings.HasPrefix(c, "$cmd.") && !strings.HasPrefix(c, "$cmd.listIndexes.") {
		// getmore_cmd.cpp tracks no stats for a collectionless cursor
		// (NamespaceString::isCollectionlessCursorNamespace:
		// listCollections, a collectionless aggregate).
		return nil
	}
	level := e.profile.level(req.db)
	if level == 0 {
		return nil
	}
	p := &opProfile{level: level, start: time.Now()}
	p.base = opEntry{op: op, ns: profileNamespace(req), command: req.body}
	p.current = &p.base
	return p
}

// profileNamespace is CurOp's ns: db.coll for a command on a collection,
// the database alone for one on the database (dbStats, dropDatabase:
// CurOp::enter with the database's name, CommandInvocation::ns).
func profileNamespace(req *request) string {
	if s, ok := req.cmd[0].Value.(string); ok && s != "" {
		return req.db + "." + s
	}
	if req.name == "getMore" {
		if c, ok := lookupString(req.cmd, "collection"); ok {
			return req.db + "." + c
		}
	}
	if req.name == "explain" {
		if inner, ok := req.cmd[0].Value.(bson.D); ok && len(inner) > 0 {
			if s, ok := inner[0].Value.(string); ok {
				return req.db + "." + s
			}
		}
	}
	return req.db
}

// statement starts the entry of one statement of a multi-statement write:
// its command is the statement, as the write path records it
// (write_ops_exec.cpp setOpDescription).
func (p *opProfile) statement(op string, stmt bson.D) {
	e := &opEntry{op: op, ns: p.base.ns, command: stmt, start: time.Now(), statement: true}
	p.stmts = append(p.stmts, e)
	p.current = e
}

// updateStatementFields and deleteStatementFields are the fields of an
// update and a delete statement in the order mongod serializes them
// (write_ops.idl UpdateOpEntry, DeleteOpEntry).
func updateStatementFields() []string {
	return []string{"q", "u", "c", "arrayFilters", "hint", "multi", "upsert", "upsertSupplied", "collation", "sort"}
}

func deleteStatementFields() []string { return []string{"q", "limit", "hint", "collation", "sort"} }

// profiledStatement is a statement as its entry records it: its fields
// in the IDL's order, with the booleans named in defaults written false
// when the statement leaves them out (jstests/libs/profiler.js).
func profiledStatement(raw any, fields []string, defaults ...string) bson.D {
	st, _ := raw.(bson.D)
	out := make(bson.D, 0, len(fields))
	for _, name := range fields {
		v := value.Get(st, name)
		if value.IsMissing(v) {
			if slices.Contains(defaults, name) {
				out = append(out, bson.E{Key: name, Value: false})
			}
			continue
		}
		out = append(out, bson.E{Key: name, Value: v})
	}
	return out
}

// updated, deleted and inserted record a write's counts. A statement's
// failure is its entry's (write_ops_exec.cpp sets the statement's
// errInfo); findAndModify's is the command's, passed nil here.
func (p *opProfile) updated(matched, modified int64, upserted bool, err error) {
	e := p.current
	if e.err = err; err != nil {
		return
	}
	e.hasUpdate = true
	e.nMatched += matched
	e.nModified += modified
	if upserted {
		e.nUpserted++
	}
}

func (p *opProfile) deleted(n int64, err error) {
	if p.current.err = err; err != nil {
		return
	}
	p.current.hasDelete = true
	p.current.nDeleted += n
}

func (p *opProfile) inserted(n int64) {
	p.current.hasInsert = true
	p.current.nInserted += n
}

// keyWrites adds the index entries c's writes added and removed since
// its counts were before; it runs under c's write lock.
func (p *opProfile) keyWrites(c *catalog.Collection, before catalog.KeyWrites) {
	after := c.KeyWrites()
	e := p.current
	if after.Adds > before.Adds {
		e.addsKeys = true
		e.keysInserted += after.Inserted - before.Inserted
	}
	if after.Removes > before.Removes {
		e.removesKeys = true
		e.keysDeleted += after.Deleted - before.Deleted
	}
}

// planned adds what a plan examined to the current entry.
func (p *opProfile) planned(exec *planner.Executor) {
	e := p.current
	e.scanned = true
	e.keys += exec.KeysExamined()
	e.docs += exec.DocsExamined()
	pr := exec.Profile()
	e.plan = &pr
}

// batch records a cursor's batch of n documents and what its stream
// examined for it (a getMore reports its own batch's figures, not the
// cursor's totals) and, for a getMore, the command that opened the
// cursor.
func (p *opProfile) batch(n int, c *cursor, getMore bool, keys, docs int64) {
	e := p.current
	e.hasReturned = true
	e.returned += int64(n)
	if getMore {
		// getmore_cmd.cpp records the cursor it reads, whether or not
		// the batch exhausts it.
		e.originating = c.origin
		e.cursorID = c.id
		// A getMore without a comment of its own runs with the comment
		// of the command that opened the cursor
		// (setUpOperationContextStateForGetMore, getmore_cmd.cpp), which
		// the profiler appends to the command (appendCommentField,
		// curop.cpp).
		if comment, ok := lookupValue(c.origin, "comment"); ok {
			if _, own := lookupValue(e.command, "comment"); !own {
				e.command = append(slices.Clip(e.command), bson.E{Key: "comment", Value: comment})
			}
		}
	}
	if !c.stream.scans() {
		return
	}
	e.scanned = true
	e.keys += keys
	e.docs += docs
	if exec := c.stream.exec; exec != nil {
		pr := exec.Profile()
		e.plan = &pr
	}
}

// cursor records whether the batch exhausted its cursor (id 0), and a
// find's or aggregate's cursor left open.
func (p *opProfile) cursor(id int64) {
	p.current.exhausted = id == 0
	if id != 0 {
		p.current.cursorID = id
	}
}

// finishProfile writes the operation's entries, when it is to be
// profiled.
func (e *Engine) finishProfile(req *request, p *opProfile, reply bson.D, err error) {
	elapsed := time.Since(p.start)
	responseLength := value.Size(reply)
	entries := []*opEntry{&p.base}
	if len(p.stmts) > 0 {
		entries = p.stmts
		for i, s := range p.stmts {
			end := time.Now()
			if i+1 < len(p.stmts) {
				end = p.stmts[i+1].start
			}
			s.millis = end.Sub(s.start).Milliseconds()
		}
	} else {
		// Time spent waiting (an awaitData getMore) is not the
		// operation's (elapsedTimeExcludingPauses).
		p.base.millis = (elapsed - req.paused).Milliseconds()
	}
	if e.profile.level(req.db) == 0 {
		// The operation dropped its database, whose settings went with it
		// (profile_no_such_db.js: the database stays gone).
		return
	}
	filter, slowMS, sampleRate := e.profile.levelOneRules(req.db)
	for _, en := range entries {
		failed := err
		if en.err != nil {
			failed = en.err
		}
		doc := en.document(e, req, failed, responseLength)
		if p.level == 1 && !profileAtLevelOne(doc, en.millis, filter, slowMS, sampleRate) {
			continue
		}
		e.writeProfileEntry(req.db, doc)
	}
}

// profileFilterFields are the entry fields a profile filter may name
// (OpDebug::appendStaged): the entry's, and durationMillis, the slow
// query log's name for millis.
func profileFilterFields() []string {
	return []string{"ts", "client", "appName", "allUsers", "user", "op", "ns", "command",
		"originatingCommand", "nShards", "cursorid", "mongot", "exhaust", "keysExamined",
		"docsExamined", "hasSortStage", "usedDisk", "fromMultiPlanner", "fromPlanCache",
		"replanned", "replanReason", "nMatched", "nBatches", "nModified", "ninserted", "ndeleted",
		"nUpserted", "cursorExhausted", "keysInserted", "keysDeleted", "prepareReadConflicts",
		"writeConflicts", "temporarilyUnavailableErrors", "dataThroughputLastSecond",
		"dataThroughputAverage", "numYield", "nreturned", "queryHash", "planCacheKey",
		"queryFramework", "locks", "authorization", "flowControl", "writeConcern", "storage",
		"ok", "errMsg", "errName", "errCode", "responseLength", "protocol", "remoteOpWaitMillis",
		"cpuNanos", "millis", "durationMillis", "planSummary", "planningTimeMicros",
		"estimatedCost", "estimatedCardinality", "totalOplogSlotDurationMicros", "execStats",
		"operationMetrics"}
}

// checkProfileFilterFields is appendStaged's check that the filter names
// only fields an entry has: the top-level field of every path it reads,
// in its logical operators too. A filter that reads the whole entry
// ($expr, $jsonSchema, $where) is taken as it is.
func checkProfileFilterFields(filter bson.D) error {
	var unknown []string
	known := profileFilterFields()
	var walk func(d bson.D) bool
	walk = func(d bson.D) bool {
		for _, f := range d {
			switch f.Key {
			case "$and", "$or", "$nor":
				arr, _ := f.Value.(bson.A)
				for _, c := range arr {
					if cd, ok := c.(bson.D); ok && !walk(cd) {
						return false
					}
				}
				continue
			case "$expr", "$jsonSchema", "$where":
				return false
			}
			if strings.HasPrefix(f.Key, "$") {
				continue
			}
			top, _, _ := strings.Cut(f.Key, ".")
			if !slices.Contains(known, top) && !slices.Contains(unknown, top) {
				unknown = append(unknown, top)
			}
		}
		return true
	}
	if !walk(filter) || len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return mongoerr.New(4910200, "No such field (or fields) available for profile filter: "+strings.Join(unknown, ", "))
}

// profileAtLevelOne is completeAndLogOperation's choice at level 1: the
// filter decides alone when there is one; otherwise the operation must be
// slower than slowms and be sampled.
func profileAtLevelOne(doc bson.D, millis int64, filter *query.Filter, slowMS int32, sampleRate float64) bool {
	if filter != nil {
		// The filter sees durationMillis beside millis (appendStaged).
		return filter.Matches(append(doc[:len(doc):len(doc)], bson.E{Key: "durationMillis", Value: appendNumber(millis)}))
	}
	return millis > int64(slowMS) && rand.Float64() < sampleRate
}

// document renders the entry in OpDebug::append's order, then
// introspect.cpp's ts, client, appName, allUsers and user.
func (en *opEntry) document(e *Engine, req *request, err error, responseLength int) bson.D {
	d := bson.D{
		{Key: "op", Value: en.op},
		{Key: "ns", Value: en.ns},
		{Key: "command", Value: truncateForProfile(en.command)},
	}
	if en.originating != nil {
		d = append(d, bson.E{Key: "originatingCommand", Value: truncateForProfile(en.originating)})
	}
	if en.cursorID != 0 {
		d = append(d, bson.E{Key: "cursorid", Value: en.cursorID})
	}
	if en.scanned {
		d = append(d, bson.E{Key: "keysExamined", Value: appendNumber(en.keys)},
			bson.E{Key: "docsExamined", Value: appendNumber(en.docs)})
	}
	if en.plan != nil && en.plan.HasSortStage {
		d = append(d, bson.E{Key: "hasSortStage", Value: true})
	}
	if en.plan != nil && en.plan.FromMultiPlanner {
		d = append(d, bson.E{Key: "fromMultiPlanner", Value: true})
	}
	if en.hasUpdate {
		d = append(d, bson.E{Key: "nMatched", Value: appendNumber(en.nMatched)},
			bson.E{Key: "nModified", Value: appendNumber(en.nModified)})
	}
	if en.hasInsert {
		d = append(d, bson.E{Key: "ninserted", Value: appendNumber(en.nInserted)})
	}
	if en.hasDelete {
		d = append(d, bson.E{Key: "ndeleted", Value: appendNumber(en.nDeleted)})
	}
	if en.hasUpdate && en.nUpserted > 0 {
		d = append(d, bson.E{Key: "nUpserted", Value: appendNumber(en.nUpserted)})
	}
	if en.hasReturned && en.exhausted {
		d = append(d, bson.E{Key: "cursorExhausted", Value: true})
	}
	if en.addsKeys {
		d = append(d, bson.E{Key: "keysInserted", Value: appendNumber(en.keysInserted)})
	}
	if en.removesKeys {
		d = append(d, bson.E{Key: "keysDeleted", Value: appendNumber(en.keysDeleted)})
	}
	// The sandbox never yields a query to others: its reads run on
	// snapshots.
	d = append(d, bson.E{Key: "numYield", Value: int32(0)})
	if en.hasReturned {
		d = append(d, bson.E{Key: "nreturned", Value: appendNumber(en.returned)})
	}
	if en.plan != nil && en.plan.QueryHash != "" {
		d = append(d, bson.E{Key: "queryHash", Value: en.plan.QueryHash},
			bson.E{Key: "planCacheKey", Value: en.plan.PlanCacheKey})
	}
	if en.plan != nil {
		d = append(d, bson.E{Key: "queryFramework", Value: "classic"})
	}
	// OpDebug::append always writes locks, from the operation's lock
	// statistics. The sandbox has no lock manager of mongod's kind, so the
	// object is there and empty rather than filled with invented counts.
	// flowControl is what a standalone reports: no ticket acquired.
	d = append(d, bson.E{Key: "locks", Value: bson.D{}}, bson.E{Key: "flowControl", Value: bson.D{}})
	if err != nil {
		// errInfo: the command's failure (a write error of a statement
		// is not the operation's).
		reply := ErrorReply(err)
		d = append(d, bson.E{Key: "ok", Value: 0.0},
			bson.E{Key: "errMsg", Value: value.Get(reply, "errmsg")},
			bson.E{Key: "errName", Value: value.Get(reply, "codeName")},
			bson.E{Key: "errCode", Value: value.Get(reply, "code")})
	}
	if !en.statement {
		d = append(d,
			bson.E{Key: "responseLength", Value: appendNumber(int64(responseLength))},
			bson.E{Key: "protocol", Value: "op_msg"})
	}
	d = append(d, bson.E{Key: "millis", Value: appendNumber(en.millis)})
	if en.plan != nil && en.plan.Summary != "" {
		d = append(d, bson.E{Key: "planSummary", Value: en.plan.Summary})
	}
	if en.plan != nil && len(en.plan.ExecStats) > 0 {
		d = append(d, bson.E{Key: "execStats", Value: en.plan.ExecStats})
	}
	d = append(d,
		bson.E{Key: "ts", Value: bson.NewDateTimeFromTime(time.Now())},
		bson.E{Key: "client", Value: clientHost(req.conn.RemoteAddr)},
	)
	if app := e.ops.appName(req.conn.ID); app != "" {
		d = append(d, bson.E{Key: "appName", Value: app})
	}
	users, user := bson.A{}, ""
	if req.conn.user != "" {
		users = append(users, bson.D{{Key: "user", Value: req.conn.user}, {Key: "db", Value: "admin"}})
		user = req.conn.user + "@admin"
	}
	return append(d, bson.E{Key: "allUsers", Value: users}, bson.E{Key: "user", Value: user})
}

// clientHost is Client::clientAddress: the peer's host, without its port.
func clientHost(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}

// truncateForProfile is appendAsObjOrString with the profiler's 50 KB
// limit: a larger command becomes {$truncated: <its abbreviated text, cut
// to 50 KB with "...">, comment: <its comment>}.
func truncateForProfile(cmd bson.D) any {
	if value.Size(cmd) <= profileMaxElementSize {
		return cmd
	}
	var comment any
	rest := make(bson.D, 0, len(cmd))
	for _, f := range cmd {
		if f.Key == "comment" {
			comment = f.Value
			continue
		}
		rest = append(rest, f)
	}
	text := value.Format(abbreviate(rest))
	if len(text) > profileMaxElementSize {
		text = text[:profileMaxElementSize-3] + "..."
	}
	out := bson.D{{Key: "$truncated", Value: text}}
	if comment != nil {
		out = append(out, bson.E{Key: "comment", Value: comment})
	}
	return out
}

// abbreviate is what BSONObj::toString without "full" prints: a string
// longer than 80 bytes shows its first 70 and "...".
func abbreviate(v any) any {
	return mapScalars(v, func(s any) any {
		if x, ok := s.(string); ok && len(x) > 80 {
			return x[:70] + "..."
		}
		return s
	})
}

// createProfileCollection is profile_collection.cpp's
// createProfileCollection: system.profile, 1 MB capped, unless it exists;
// one a user created uncapped cannot be the profile.
func (e *Engine) createProfileCollection(db string) error {
	if c := e.catalog.Snapshot(db, profileCollection); c != nil {
		if !c.IsCapped() {
			return mongoerr.Newf(mongoerr.NamespaceExists, "%s.%s exists but isn't capped", db, profileCollection)
		}
		return nil
	}
	_, err := e.catalog.CreateCollection(db, profileCollection,
		bson.D{{Key: "capped", Value: true}, {Key: "size", Value: appendNumber(profileCollectionSize)}})
	if err != nil && strings.Contains(err.Error(), "already exists") {
		return nil
	}
	return err
}

// writeProfileEntry is introspect.cpp's profile(): the entry goes to the
// database's system.profile, which is created if a user dropped it while
// profiling (mongod does the same); the capped collection evicts the
// oldest entries past its size. An entry larger than the whole collection
// (a plan whose execStats list thousands of index bounds) is not written:
// mongod's insert into a capped collection refuses a document over its
// size ("object to insert exceeds cappedMaxSize"), and profile() only
// logs the failure.
func (e *Engine) writeProfileEntry(db string, doc bson.D) {
	if e.createProfileCollection(db) != nil {
		return
	}
	// A failure to profile never fails the operation (profile() logs it
	// and carries on).
	_ = e.catalog.Write(db, profileCollection, false, func(c *catalog.Collection) error {
		if c == nil {
			return nil
		}
		size := value.Size(doc)
		if capSize, _, _ := catalog.CappedLimits(c.Options); int64(size) > capSize {
			return nil
		}
		_, err := c.InsertSized(doc, size)
		return err
	})
}
