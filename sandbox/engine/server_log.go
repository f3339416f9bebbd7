package engine

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// serverLog writes mongod-style structured log lines to the "global" RAM
// log getLog reads, and the warnings also to Options.Log when there is
// one. The connection lines stay in the RAM log: the operator's log of a
// serve or classroom server keeps to the warnings it always had.
type serverLog struct {
	mu sync.Mutex
	w  io.Writer
	// ram holds the latest lines, as mongod's RamLog does (ramlog.h:
	// at most 1024 lines and 1 MB); total counts every line written.
	ram      []ramLine
	ramBytes int
	total    int64
}

// ramLine is one line of the RAM log; owner is the user whose command
// wrote it ("" for the server's own lines and on a server without
// users).
type ramLine struct {
	text, owner string
}

const (
	ramLogMaxLines = 1024
	ramLogMaxBytes = 1024 * 1024
)

func newServerLog(w io.Writer) *serverLog { return &serverLog{w: w} }

func (l *serverLog) documentWouldFailValidation(req *request, ns string, doc bson.D, err *mongoerr.Error) {
	attr := bson.D{{Key: "namespace", Value: ns}, {Key: "document", Value: doc}}
	attr = append(attr, err.Extra...)
	l.warning(req, 20294, "STORAGE", "Document would fail validation", attr)
}

// warning writes one warning a command caused.
func (l *serverLog) warning(req *request, id int, component, msg string, attr bson.D) {
	l.write(true, "W", component, id, "conn"+strconv.FormatInt(req.conn.ID, 10), msg, attr, req.conn.user)
}

// connectionAccepted and connectionEnded are the NETWORK lines
// (transport/session_workflow.cpp, service_entry_point_impl.cpp) mongod
// writes as a client connects and leaves. The sandbox has no per-session
// UUID, so the attributes leave it out.
func (l *serverLog) connectionAccepted(c *Conn, count int64) {
	l.write(false, "I", "NETWORK", 22943, "listener", "Connection accepted", connectionAttr(c, count), "")
}

func (l *serverLog) connectionEnded(c *Conn, count int64) {
	l.write(false, "I", "NETWORK", 22944, "conn"+strconv.FormatInt(c.ID, 10), "Connection ended", connectionAttr(c, count), "")
}

func connectionAttr(c *Conn, count int64) bson.D {
	return bson.D{
		{Key: "remote", Value: c.RemoteAddr},
		{Key: "isLoadBalanced", Value: false},
		{Key: "connectionId", Value: c.ID},
		{Key: "connectionCount", Value: count},
	}
}

// clientMetadata is the line (id 51800) mongod writes for the client
// document of a connection's first hello.
func (l *serverLog) clientMetadata(c *Conn, doc bson.D) {
	ctx := "conn" + strconv.FormatInt(c.ID, 10)
	l.write(false, "I", "NETWORK", 51800, ctx, "client metadata", bson.D{
		{Key: "remote", Value: c.RemoteAddr},
		{Key: "client", Value: ctx},
		{Key: "negotiatedCompressors", Value: bson.A{}},
		{Key: "doc", Value: doc},
	}, c.user)
}

// write renders one line in mongod's JSON log format; toWriter also sends
// it to Options.Log.
func (l *serverLog) write(toWriter bool, severity, component string, id int, ctx, msg string, attr bson.D, owner string) {
	if l == nil {
		return
	}
	b := renderLogLine(time.Now().UTC().Format("2006-01-02T15:04:05.000+00:00"), severity, component, id, ctx, msg, attr)
	l.mu.Lock()
	defer l.mu.Unlock()
	if toWriter && l.w != nil {
		fmt.Fprintf(l.w, "%s\n", b)
	}
	l.total++
	if len(b) > ramLogMaxBytes {
		return
	}
	l.ram = append(l.ram, ramLine{text: string(b), owner: owner})
	l.ramBytes += len(b)
	drop := 0
	for len(l.ram)-drop > ramLogMaxLines || l.ramBytes > ramLogMaxBytes {
		l.ramBytes -= len(l.ram[drop].text)
		drop++
	}
	if drop > 0 {
		l.ram = append(l.ram[:0], l.ram[drop:]...)
	}
}

// global is getLog's "global" log as user may read it: every line on a
// server without users; a classroom user's own lines otherwise, since the
// others' may hold their documents.
func (l *serverLog) global(user string) (int64, bson.A) {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := bson.A{}
	for _, line := range l.ram {
		if user == "" || line.owner == user {
			lines = append(lines, line.text)
		}
	}
	return l.total, lines
}

// slowQuery is the line (id 51803) CurOp::completeAndLogOperation writes
// for an operation slower than slowms, with the OpDebug::report
// attributes the sandbox knows: the namespace, the client's application,
// the command, the error it ended with, and the duration.
func (l *serverLog) slowQuery(op *liveOp, appName string, reply bson.D, d time.Duration) {
	attr := bson.D{{Key: "type", Value: "command"}, {Key: "ns", Value: opNamespace(op)}}
	if appName != "" {
		attr = append(attr, bson.E{Key: "appName", Value: appName})
	}
	attr = append(attr, bson.E{Key: "command", Value: op.cmd}, bson.E{Key: "numYields", Value: int32(0)})
	if replyFailed(reply) {
		attr = append(attr, bson.E{Key: "ok", Value: int32(0)})
		for _, f := range reply {
			switch f.Key {
			case "errmsg":
				attr = append(attr, bson.E{Key: "errMsg", Value: f.Value})
			case "codeName":
				attr = append(attr, bson.E{Key: "errName", Value: f.Value})
			case "code":
				attr = append(attr, bson.E{Key: "errCode", Value: f.Value})
			}
		}
	}
	attr = append(attr, bson.E{Key: "protocol", Value: "op_msg"}, bson.E{Key: "durationMillis", Value: d.Milliseconds()})
	l.write(false, "I", "COMMAND", 51803, "conn"+strconv.FormatInt(op.connID, 10), "Slow query", attr, op.user)
}

// logSlowOp logs op when it ran longer than slowms, at slowOpSampleRate,
// as shouldLogSlowOpWithSampling decides; time the command spent waiting
// (req.paused) does not count. A database with a profile filter decides
// by the filter in mongod, which the sandbox does not evaluate here: its
// operations are not logged rather than logged by the wrong rule.
func (e *Engine) logSlowOp(req *request, op *liveOp, reply bson.D) {
	d := time.Since(op.started) - req.paused
	p := e.profile
	p.mu.Lock()
	slow, rate, filtered := time.Duration(p.slowMS)*time.Millisecond, p.sampleRate, p.filters[op.db] != nil
	p.mu.Unlock()
	if d <= slow || filtered || rand.Float64() >= rate {
		return
	}
	e.log.slowQuery(op, e.ops.appName(op.connID), reply, d)
}

// cmdLogRotate is LogRotateCmd (generic_servers.cpp): {logRotate: <int>
// or <log type>}. The sandbox's server log is no file, so no log type has
// a rotator (logv2::addLogRotator): rotating them all succeeds with
// nothing to do, and naming one fails as logv2::rotateLogs does, with
// NoSuchKey under the command's masked message. A rotation logs the
// process details again (logProcessDetailsForLogRotate), for a reader of
// the new file.
func cmdLogRotate(e *Engine, req *request) (bson.D, error) {
	// Any number rotates every log: the legacy shell sends {logRotate: 1}
	// as a double.
	var logType any
	switch v := req.cmd[0].Value.(type) {
	case string:
		logType = v
	default:
		if !value.IsNumber(v) {
			return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field 'logRotate.logRotate' is the wrong type '%s', expected types '[int, string']", value.TypeName(v))
		}
	}
	ctx := "conn" + strconv.FormatInt(req.conn.ID, 10)
	user := req.conn.user
	e.log.write(false, "I", "CONTROL", 23166, ctx, "Log rotation initiated", bson.D{
		{Key: "suffix", Value: "." + time.Now().UTC().Format("2006-01-02T15-04-05")},
		{Key: "logType", Value: logType},
	}, user)
	if logType != nil {
		e.log.write(false, "W", "CONTROL", 6221500, ctx, "Unknown log type for rotate", bson.D{{Key: "logType", Value: logType}}, user)
		return nil, mongoerr.New(mongoerr.NoSuchKey, "Log rotation failed due to one or more errors")
	}
	host, _ := os.Hostname()
	_, port, _ := net.SplitHostPort(req.conn.ListenAddr)
	portNum, _ := strconv.Atoi(port)
	build, _ := cmdBuildInfo(e, req)
	_, options := commandLine(req.conn.ListenAddr)
	osInfo := osNameAndVersion()
	for _, line := range []struct {
		id   int
		msg  string
		attr bson.D
	}{
		{20721, "Process Details", bson.D{{Key: "pid", Value: int64(os.Getpid())}, {Key: "port", Value: int32(portNum)},
			{Key: "architecture", Value: "64-bit"}, {Key: "host", Value: host}}},
		{23403, "Build Info", bson.D{{Key: "buildInfo", Value: bson.D{
			{Key: "version", Value: value.Get(build, "version")},
			{Key: "gitVersion", Value: value.Get(build, "gitVersion")},
			{Key: "modules", Value: value.Get(build, "modules")},
			{Key: "allocator", Value: value.Get(build, "allocator")},
			{Key: "environment", Value: value.Get(build, "buildEnvironment")},
		}}}},
		{51765, "Operating System", bson.D{{Key: "os", Value: bson.D{
			{Key: "name", Value: value.Get(osInfo, "name")}, {Key: "version", Value: value.Get(osInfo, "version")}}}}},
		{21951, "Options set by command line", bson.D{{Key: "options", Value: options}}},
	} {
		e.log.write(false, "I", "CONTROL", line.id, ctx, line.msg, line.attr, user)
	}
	return bson.D{}, nil
}
