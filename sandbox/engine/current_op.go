package engine

import (
	"context"
	"crypto/sha256"
	"math"
	"net"
	"os"
	"sort"
	"strconv"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/aggregate"
	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// opTable is what the server is doing: the commands in flight, which
// currentOp and $currentOp list and killOp interrupts, and the open
// connections, which idleConnections lists. An entry lives exactly as long
// as its command or connection, so the table never holds more than the
// server's connections and their commands.
type opTable struct {
	mu     sync.Mutex
	lastID int32
	ops    map[int32]*liveOp
	conns  map[int64]*connInfo
}

// connInfo is what currentOp reports of a connection besides its op.
type connInfo struct {
	remote, listen string
	// metadata is the client document of the connection's first hello.
	metadata bson.D
}

// liveOp is one command in flight. Everything but cancel is fixed when
// the command starts.
type liveOp struct {
	id      int32
	connID  int64
	remote  string
	listen  string
	user    string
	name    string // mongod's name for the command
	db      string
	cmd     bson.D
	started time.Time
	cancel  context.CancelCauseFunc
}

func newOpTable() *opTable {
	return &opTable{ops: map[int32]*liveOp{}, conns: map[int64]*connInfo{}}
}

// errKilled is why killOp interrupts an operation: ServiceContext::
// killOperation's default code, reported by checkForInterrupt.
func errKilled() error { return mongoerr.New(mongoerr.Interrupted, "operation was interrupted") }

// begin registers a command and returns the context killOp cancels.
func (t *opTable) begin(ctx context.Context, conn *Conn, name, db string, cmd bson.D) (context.Context, *liveOp) {
	ctx, cancel := context.WithCancelCause(ctx)
	op := &liveOp{connID: conn.ID, remote: conn.RemoteAddr, listen: conn.ListenAddr, user: conn.user,
		name: name, db: db, cmd: cmd, started: time.Now(), cancel: cancel}
	t.mu.Lock()
	defer t.mu.Unlock()
	// mongod's OperationIds are 32 bits as currentOp and killOp show them;
	// skip any id still in use after a wrap.
	for {
		t.lastID++
		if t.lastID <= 0 {
			t.lastID = 1
		}
		if _, used := t.ops[t.lastID]; !used {
			break
		}
	}
	op.id = t.lastID
	t.ops[op.id] = op
	return ctx, op
}

func (t *opTable) end(op *liveOp) {
	op.cancel(nil)
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.ops, op.id)
}

func (t *opTable) connOpened(c *Conn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.conns[c.ID] = &connInfo{remote: c.RemoteAddr, listen: c.ListenAddr}
}

func (t *opTable) connClosed(c *Conn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.conns, c.ID)
}

// setMetadata keeps the client document of a connection's first hello
// for currentOp's appName and clientMetadata.
func (t *opTable) setMetadata(c *Conn, doc bson.D) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if info, ok := t.conns[c.ID]; ok {
		info.metadata = doc
	}
}

// appName is the application name of connection id's client, "" when it
// gave none.
func (t *opTable) appName(id int64) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if info, ok := t.conns[id]; ok {
		return metadataAppName(info.metadata)
	}
	return ""
}

// metadataAppName is ClientMetadata::getApplicationName.
func metadataAppName(metadata bson.D) string {
	if app, ok := lookupDoc(metadata, "application"); ok {
		if name, ok := lookupString(app, "name"); ok {
			return name
		}
	}
	return ""
}

// kill interrupts operation id when the caller may see it (see visible);
// an unknown id is no error, as killOp "always reports success".
func (t *opTable) kill(id int32, user string) {
	t.mu.Lock()
	op, ok := t.ops[id]
	t.mu.Unlock()
	if ok && visible(op.user, user) {
		op.cancel(errKilled())
	}
}

// visible reports whether a caller authenticated as user sees (and may
// kill) an operation of opUser. Without authentication everyone is
// coauthorized with everyone, as on a mongod without access control. A
// classroom user sees only his own operations: he holds no inprog or
// killop privilege, so his currentOp is mongod's $ownOps.
func visible(opUser, user string) bool { return user == "" || opUser == user }

// report renders the operations in the order they started, then with
// idleConnections the connections running none, as
// CurOp::reportCurrentOpForClient does for a standalone.
func (t *opTable) report(user string, opts aggregate.CurrentOpOptions) []bson.D {
	t.mu.Lock()
	ops := make([]*liveOp, 0, len(t.ops))
	busy := map[int64]bool{}
	for _, op := range t.ops {
		busy[op.connID] = true
		if visible(op.user, user) {
			ops = append(ops, op)
		}
	}
	type idle struct {
		id   int64
		info connInfo
	}
	var idles []idle
	metadata := map[int64]bson.D{}
	for id, info := range t.conns {
		metadata[id] = info.metadata
		// An idle connection's user is not recorded; a classroom user
		// sees none but his own busy ones.
		if opts.IdleConnections && !busy[id] && user == "" {
			idles = append(idles, idle{id, *info})
		}
	}
	t.mu.Unlock()

	sort.Slice(ops, func(i, j int) bool { return ops[i].id < ops[j].id })
	sort.Slice(idles, func(i, j int) bool { return idles[i].id < idles[j].id })
	hostname, _ := os.Hostname()
	now := time.Now()
	out := make([]bson.D, 0, len(ops)+len(idles))
	for _, op := range ops {
		d := clientReport(hostname, op.connID, op.remote, op.listen, metadata[op.connID], true, now)
		if op.user != "" {
			// The client's authenticated user, as connectionStatus names
			// it.
			d = append(d, bson.E{Key: "effectiveUsers", Value: bson.A{bson.D{{Key: "user", Value: op.user}, {Key: "db", Value: "admin"}}}})
		}
		d = append(d, bson.E{Key: "threaded", Value: true}, bson.E{Key: "opid", Value: op.id})
		if lsid, ok := lookupDoc(op.cmd, "lsid"); ok {
			d = append(d, bson.E{Key: "lsid", Value: sessionID(lsid, op.user)})
		}
		elapsed := now.Sub(op.started)
		d = append(d,
			bson.E{Key: "secs_running", Value: int64(elapsed / time.Second)},
			bson.E{Key: "microsecs_running", Value: int64(elapsed / time.Microsecond)},
			bson.E{Key: "op", Value: logicalOp(op.name)},
			bson.E{Key: "ns", Value: opNamespace(op)},
			bson.E{Key: "redacted", Value: false},
			bson.E{Key: "command", Value: opDescription(op.cmd, opts.TruncateOps)},
			// The sandbox's reads never yield, and its locks are not
			// mongod's: an operation is never reported waiting for one.
			bson.E{Key: "numYields", Value: int32(0)},
			bson.E{Key: "waitingForLock", Value: false},
		)
		out = append(out, d)
	}
	for _, c := range idles {
		d := clientReport(hostname, c.id, c.info.remote, c.info.listen, c.info.metadata, false, now)
		out = append(out, append(d, bson.E{Key: "threaded", Value: true}))
	}
	return out
}

// hostAndPort is the host field of a $currentOp entry: the machine's name
// (read once per report) and the port the client connected to
// (prettyHostNameAndPort).
func hostAndPort(hostname, listen string) string {
	_, port, _ := net.SplitHostPort(listen)
	return hostname + ":" + port
}

// clientReport is the part of an entry Client::reportState and the
// client metadata give: type through currentOpTime.
func clientReport(hostname string, connID int64, remote, listen string, metadata bson.D, active bool, now time.Time) bson.D {
	d := bson.D{
		{Key: "type", Value: "op"},
		{Key: "host", Value: hostAndPort(hostname, listen)},
		{Key: "desc", Value: "conn" + strconv.FormatInt(connID, 10)},
		{Key: "connectionId", Value: appendNumber(connID)},
		{Key: "client", Value: remote},
	}
	if metadata != nil {
		if name := metadataAppName(metadata); name != "" {
			d = append(d, bson.E{Key: "appName", Value: name})
		}
		d = append(d, bson.E{Key: "clientMetadata", Value: metadata})
	}
	return append(d,
		bson.E{Key: "active", Value: active},
		bson.E{Key: "currentOpTime", Value: now.Format("2006-01-02T15:04:05.000-07:00")},
	)
}

// sessionID is the operation's LogicalSessionId: the id the client sent
// and the uid, the SHA-256 of the user's name (of "" without one).
func sessionID(lsid bson.D, user string) bson.D {
	id, _ := lookupValue(lsid, "id")
	name := ""
	if user != "" {
		name = user + "@admin"
	}
	uid := sha256.Sum256([]byte(name))
	return bson.D{{Key: "id", Value: id}, {Key: "uid", Value: bson.Binary{Subtype: 0, Data: uid[:]}}}
}

func lookupValue(d bson.D, key string) (any, bool) {
	for _, e := range d {
		if e.Key == key {
			return e.Value, true
		}
	}
	return nil, false
}

// logicalOp is the command's LogicalOp as logicalOpToString names it.
func logicalOp(name string) string {
	switch name {
	case "find":
		return "query"
	case "getMore":
		return "getmore"
	case "insert", "update":
		return name
	case "delete":
		return "remove"
	case "killCursors":
		return "killcursors"
	}
	return "command"
}

// opNamespace is the namespace CurOp holds for the command: its
// collection's for a command on one, db.$cmd.aggregate for {aggregate:
// 1}, the database's for dbStats and dropDatabase (which enter it), and
// otherwise db.$cmd, the legacy command namespace curOpCommandSetup
// (service_entry_point_common.cpp) gives every command first: an
// awaitable hello shows as admin.$cmd.
func opNamespace(op *liveOp) string {
	if len(op.cmd) == 0 {
		return op.db
	}
	switch v := op.cmd[0].Value.(type) {
	case string:
		if op.name != "getMore" && v != "" {
			return op.db + "." + v
		}
	case int64:
		if op.name == "getMore" {
			if c, ok := lookupString(op.cmd, "collection"); ok {
				return op.db + "." + c
			}
		}
	}
	switch op.name {
	case "aggregate":
		return op.db + ".$cmd.aggregate"
	case "dbStats", "dropDatabase":
		return op.db
	}
	return op.db + ".$cmd"
}

// opDescription is the command as currentOp shows it; truncated, one over
// 1000 bytes becomes {$truncated: <its first 1000 characters>}, with its
// comment, as appendAsObjOrString (curop.cpp) writes it.
func opDescription(cmd bson.D, truncate bool) bson.D {
	const maxSize = 1000
	if !truncate || value.Size(cmd) <= maxSize {
		return cmd
	}
	s := []byte(value.Format(cmd))
	if len(s) > maxSize {
		s = append(s[:maxSize-3], "..."...)
	}
	out := bson.D{{Key: "$truncated", Value: string(s)}}
	if c, ok := lookupValue(cmd, "comment"); ok {
		out = append(out, bson.E{Key: "comment", Value: c})
	}
	return out
}

// currentOpPipeline is the aggregation CurrentOpCommandBase::run turns the
// currentOp command into: its $all, $ownOps and $truncateOps become the
// stage's options, every other field but the generic arguments a $match.
func currentOpPipeline(cmd bson.D) bson.A {
	var all, ownOps bool
	filter := bson.D{}
	for i, f := range cmd {
		switch {
		case i == 0 || genericArguments[f.Key]:
		case f.Key == "$all":
			all = expr.IsTrue(f.Value)
		case f.Key == "$ownOps":
			ownOps = expr.IsTrue(f.Value)
		case f.Key == "$truncateOps":
			// Honoured only with test commands enabled, which the sandbox
			// does not have: operations are always truncated.
		default:
			filter = append(filter, f)
		}
	}
	return bson.A{
		bson.D{{Key: "$currentOp", Value: bson.D{
			{Key: "idleConnections", Value: all},
			{Key: "allUsers", Value: !ownOps},
			{Key: "truncateOps", Value: true},
		}}},
		bson.D{{Key: "$match", Value: filter}},
		bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: int32(0)}, {Key: "inprog", Value: bson.D{{Key: "$push", Value: "$$ROOT"}}}}}},
	}
}

// cmdCurrentOp runs the currentOp command's aggregation and answers its
// one group's inprog (current_op_common.cpp).
func cmdCurrentOp(e *Engine, req *request) (bson.D, error) {
	pipeline := currentOpPipeline(req.cmd)
	pp, err := e.preparePipeline(req, e.pipelineView(req.db, "", pipeline), "", pipeline, nil, nil)
	if err != nil {
		return nil, err
	}
	docs, err := pp.drain()
	if err != nil {
		return nil, err
	}
	inprog := bson.A{}
	if len(docs) > 0 {
		if v, ok := lookupValue(docs[0], "inprog"); ok {
			inprog, _ = v.(bson.A)
		}
	}
	return bson.D{{Key: "inprog", Value: inprog}}, nil
}

// cmdKillOp is KillOpCommand (kill_op.cpp): op is read by
// bsonExtractIntegerField and must fit in 32 bits; the reply is the same
// whether or not the operation exists.
func cmdKillOp(e *Engine, req *request) (bson.D, error) {
	v, ok := lookupValue(req.cmd, "op")
	if !ok {
		return nil, mongoerr.New(mongoerr.NoSuchKey, `Missing expected field "op"`)
	}
	if !value.IsNumber(v) {
		return nil, mongoerr.Newf(mongoerr.TypeMismatch, `Expected field "op" to have numeric type, but found %s`, value.TypeName(v))
	}
	n, _ := value.SafeNumberLong(v)
	if float64(n) != value.ToDouble(v) {
		return nil, mongoerr.Newf(mongoerr.BadValue,
			`Expected field "op" to have a value exactly representable as a 64-bit integer, but found %s`, value.FormatElem("op", v))
	}
	if n < math.MinInt32 || n > math.MaxInt32 {
		return nil, mongoerr.Newf(26823, "invalid op : %d. Op ID cannot be represented with 32 bits", n)
	}
	// LOGV2(20482) in KillOpCommand::run, before it looks the op up.
	e.log.write(false, "I", "COMMAND", 20482, "conn"+strconv.FormatInt(req.conn.ID, 10), "Going to kill op",
		bson.D{{Key: "opId", Value: n}}, req.conn.user)
	e.ops.kill(int32(n), req.conn.user)
	return bson.D{{Key: "info", Value: "attempting to kill op"}}, nil
}
