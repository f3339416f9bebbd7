package wire

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// dispatch hands one command to the engine, which answers every command
// (hello included) and always returns a reply document; sequences names
// the fields of cmd that came as OP_MSG document sequences.
func (s *Server) dispatch(c *clientConn, cmd bson.D, sequences ...string) bson.D {
	return s.run(s.ctx, c, cmd, sequences...)
}

// run is dispatch with the command's context. It is the server's
// chokepoint: every command of every connection passes here, so this is
// where who may run what is decided.
func (s *Server) run(ctx context.Context, c *clientConn, cmd bson.D, sequences ...string) bson.D {
	db, ok := databaseOf(cmd)
	if !ok {
		return engine.ErrorReply(mongoerr.New(40571, "OP_MSG requests require a $db argument"))
	}
	s.logCommand(c, db, cmd)
	if !s.authOn.Load() {
		return s.eng.Run(ctx, c.conn, cmd, sequences...)
	}
	name := cmd[0].Key
	switch name {
	case "saslStart":
		return s.saslStart(c, db, cmd)
	case "saslContinue":
		return s.saslContinue(c, cmd)
	}
	if err := s.authorize(c, name, cmd); err != nil {
		return engine.ErrorReply(err)
	}
	reply := s.eng.Run(ctx, c.conn, cmd, sequences...)
	switch name {
	case "hello", "isMaster", "ismaster":
		reply = s.helloAuth(c, cmd, reply)
	}
	return reply
}

// authorize decides whether c may run cmd: nil, or mongod's refusal.
func (s *Server) authorize(c *clientConn, name string, cmd bson.D) error {
	u := c.user
	switch {
	case u == nil:
		// The commands mongod runs for a client that has not
		// authenticated (Command::requiresAuth() is false): the
		// handshake, the heartbeat and authentication itself.
		if !s.opts.RequireAuth || !s.eng.RequiresAuth(name) {
			return nil
		}
		// An unknown command is CommandNotFound before anything else,
		// as in mongod; the engine answers it.
		if canonical, known := s.eng.CommandName(name); known {
			return mongoerr.Newf(mongoerr.Unauthorized, "Command %s requires authentication", canonical)
		}
	case u.removed.Load():
		c.nc.Close()
		return mongoerr.Newf(mongoerr.Unauthorized, "user %s was removed from this server", u.name)
	case u.account.Prefix != "":
		// A confined user lists its own databases, as mongod lists a
		// user's authorized databases; asking explicitly for all of
		// them is refused as the guard refuses listDatabases.
		if name == "listDatabases" && value.Get(cmd, "authorizedDatabases") != false {
			return nil
		}
		if err := s.opts.Confine(u.account.Prefix, cmd); err != nil {
			return mongoerr.New(mongoerr.Unauthorized, err.Error())
		}
	}
	return nil
}

func databaseOf(cmd bson.D) (string, bool) {
	db, ok := value.Get(cmd, "$db").(string)
	return db, ok
}
