package wire

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
)

// call is one command being dispatched.
type call struct {
	ctx  context.Context
	conn *clientConn
	cmd  bson.D
	name string
	db   string
}

// arg returns the value of a top-level command field, or nil, false.
func (c *call) arg(key string) (any, bool) {
	for _, e := range c.cmd {
		if e.Key == key {
			return e.Value, true
		}
	}
	return nil, false
}

type commandFunc func(s *Server, c *call) (bson.D, error)

// serverCommands are the commands about the server itself rather than its
// data; wire answers them, the engine answers everything else. Names are
// case-sensitive as in mongod, aliases listed explicitly.
var serverCommands = map[string]commandFunc{
	"hello":            (*Server).hello,
	"isMaster":         (*Server).hello,
	"ismaster":         (*Server).hello,
	"ping":             (*Server).ping,
	"buildInfo":        (*Server).buildInfo,
	"buildinfo":        (*Server).buildInfo,
	"getParameter":     (*Server).getParameter,
	"getCmdLineOpts":   (*Server).getCmdLineOpts,
	"getLog":           (*Server).getLog,
	"hostInfo":         (*Server).hostInfo,
	"connectionStatus": (*Server).connectionStatus,
	"whatsmyuri":       (*Server).whatsmyuri,
	"endSessions":      (*Server).endSessions,
	"serverStatus":     (*Server).serverStatus,
}

// adminOnly commands fail elsewhere with mongod's Unauthorized error.
var adminOnly = map[string]bool{
	"getParameter":   true,
	"getCmdLineOpts": true,
	"getLog":         true,
}

// dispatch runs one command and always returns a reply document. A panic
// anywhere below becomes an InternalError reply; the connection and the
// server carry on.
func (s *Server) dispatch(cc *clientConn, cmd bson.D) (reply bson.D) {
	defer func() {
		if r := recover(); r != nil {
			s.logError("conn%d: panic in command: %v\n%s", cc.id, r, stackTrace())
			reply = errorReply(mongoerr.InternalError, "", fmt.Sprintf("internal error: %v", r))
		}
	}()
	db, ok := databaseOf(cmd)
	if !ok {
		return errorReply(40571, "", "OP_MSG requests require a $db argument")
	}
	c := &call{ctx: s.ctx, conn: cc, cmd: cmd, name: cmd[0].Key, db: db}
	s.logCommand(cc, db, c.name, cmd)
	if s.opts.beforeCommand != nil {
		s.opts.beforeCommand(c.name)
	}
	if fn := serverCommands[c.name]; fn != nil {
		if adminOnly[c.name] && db != "admin" {
			return errorReply(mongoerr.Unauthorized, "", c.name+" may only be run against the admin database.")
		}
		r, err := fn(s, c)
		if err != nil {
			return errReply(err)
		}
		return r
	}
	return s.eng.Run(s.ctx, engine.ConnInfo{ID: cc.id, RemoteAddr: cc.remote}, cmd)
}

func databaseOf(cmd bson.D) (string, bool) {
	for _, e := range cmd {
		if e.Key == "$db" {
			db, ok := e.Value.(string)
			return db, ok
		}
	}
	return "", false
}

func okReply(fields ...bson.E) bson.D {
	return append(bson.D(fields), bson.E{Key: "ok", Value: 1.0})
}
