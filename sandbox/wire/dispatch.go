package wire

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// dispatch hands one command to the engine, which answers every command
// (hello included) and always returns a reply document.
func (s *Server) dispatch(c *clientConn, cmd bson.D) bson.D {
	db, ok := databaseOf(cmd)
	if !ok {
		return engine.ErrorReply(mongoerr.New(40571, "OP_MSG requests require a $db argument"))
	}
	s.logCommand(c, db, cmd)
	return s.eng.Run(s.ctx, c.conn, cmd)
}

func databaseOf(cmd bson.D) (string, bool) {
	db, ok := value.Get(cmd, "$db").(string)
	return db, ok
}
