package wire

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// Limits and versions a mongod 8.0 standalone advertises in hello.
const (
	maxWriteBatchSize            = 100_000
	logicalSessionTimeoutMinutes = 30
	minWireVersion               = 0
	maxWireVersion               = 25 // MongoDB 8.0
)

// hello answers hello, isMaster and ismaster as a standalone mongod 8.0
// does (replication_info.cpp, CmdHello::runWithReplyBuilder).
func (s *Server) hello(c *call) (bson.D, error) {
	if _, ok := c.arg("client"); ok && c.conn.helloSeen {
		return nil, mongoerr.New(codeClientMetadataCannotBeMutated, "The client metadata document may only be sent in the first hello")
	}
	c.conn.helloSeen = true

	tv, hasTV := c.arg("topologyVersion")
	mat, hasMAT := c.arg("maxAwaitTimeMS")
	if hasTV != hasMAT {
		msg := "A request with 'maxAwaitTimeMS' must include a 'topologyVersion'"
		if hasTV {
			msg = "A request with a 'topologyVersion' must include 'maxAwaitTimeMS'"
		}
		return nil, mongoerr.New(31368, msg)
	}
	if hasTV {
		if err := s.awaitTopologyChange(c, tv, mat); err != nil {
			return nil, err
		}
	}

	reply := make(bson.D, 0, 16)
	if v, ok := c.arg("helloOk"); ok {
		if _, isBool := v.(bool); !isBool && !isNumber(v) {
			return nil, mongoerr.Newf(mongoerr.TypeMismatch, "\"helloOk\" had the wrong type. Expected bool, found %s", typeName(v))
		}
		reply = append(reply, bson.E{Key: "helloOk", Value: true})
	}
	if c.name == "hello" {
		reply = append(reply, bson.E{Key: "isWritablePrimary", Value: true})
	} else {
		reply = append(reply, bson.E{Key: "ismaster", Value: true})
	}
	reply = append(reply,
		bson.E{Key: "topologyVersion", Value: bson.D{
			{Key: "processId", Value: s.processID},
			{Key: "counter", Value: int64(0)},
		}},
		bson.E{Key: "maxBsonObjectSize", Value: int32(value.MaxUserDocumentSize)},
		bson.E{Key: "maxMessageSizeBytes", Value: int32(value.MaxMessageSize)},
		bson.E{Key: "maxWriteBatchSize", Value: int32(maxWriteBatchSize)},
		bson.E{Key: "localTime", Value: bson.NewDateTimeFromTime(time.Now())},
		bson.E{Key: "logicalSessionTimeoutMinutes", Value: int32(logicalSessionTimeoutMinutes)},
		bson.E{Key: "connectionId", Value: connectionID(c.conn.id)},
		bson.E{Key: "minWireVersion", Value: int32(minWireVersion)},
		bson.E{Key: "maxWireVersion", Value: int32(maxWireVersion)},
		bson.E{Key: "readOnly", Value: false},
		// No compression is offered, so "compression" is omitted; with
		// authentication off there are no SASL mechanisms to advertise and
		// speculativeAuthenticate gets no answer, as on such a mongod.
		bson.E{Key: "ok", Value: 1.0},
	)
	return reply, nil
}

// awaitTopologyChange implements the awaitable hello of the streaming
// monitoring protocol: when the client already knows the current topology
// version, mongod holds the reply until it changes or maxAwaitTimeMS passes.
// A standalone's topology never changes, so the wait always runs out; without
// it drivers would poll hello in a tight loop.
func (s *Server) awaitTopologyChange(c *call, tv, mat any) error {
	tvDoc, ok := tv.(bson.D)
	if !ok {
		return mongoerr.Newf(mongoerr.TypeMismatch, "BSON field 'TopologyVersion' is the wrong type '%s', expected type 'object'", typeName(tv))
	}
	var processID any
	var counter int64
	for _, e := range tvDoc {
		switch e.Key {
		case "processId":
			processID = e.Value
		case "counter":
			n, ok := asInt64(e.Value)
			if !ok {
				return mongoerr.Newf(mongoerr.TypeMismatch, "BSON field 'TopologyVersion.counter' is the wrong type '%s', expected type 'long'", typeName(e.Value))
			}
			counter = n
		}
	}
	if counter < 0 {
		return mongoerr.New(31372, "topologyVersion must have a non-negative counter")
	}
	wait, ok := asInt64(mat)
	if !ok {
		return mongoerr.Newf(mongoerr.TypeMismatch, "\"maxAwaitTimeMS\" had the wrong type. Expected long, found %s", typeName(mat))
	}
	if wait < 0 {
		return mongoerr.New(31373, "maxAwaitTimeMS must be a non-negative integer")
	}
	if oid, ok := processID.(bson.ObjectID); !ok || oid != s.processID || counter != 0 {
		return nil // the client's view is stale: answer at once
	}
	t := time.NewTimer(time.Duration(wait) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
	case <-c.ctx.Done():
	}
	return nil
}

// connectionID is rendered the way BSONObjBuilder::appendNumber renders a
// long long: an int while it fits comfortably.
func connectionID(id int64) any {
	if id < 1<<30 {
		return int32(id)
	}
	return id
}

func isNumber(v any) bool {
	switch v.(type) {
	case int32, int64, float64, bson.Decimal128:
		return true
	}
	return false
}

func asInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case float64:
		if x == float64(int64(x)) {
			return int64(x), true
		}
	}
	return 0, false
}
