package engine

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// What a mongod 8.0 standalone advertises in hello besides its limits.
const (
	logicalSessionTimeoutMinutes = 30
	minWireVersion               = 0
	maxWireVersion               = 25 // MongoDB 8.0
)

// hello answers hello, isMaster and ismaster as a standalone mongod 8.0
// does (replication_info.cpp, CmdHello::runWithReplyBuilder).
func cmdHello(e *Engine, req *request) (bson.D, error) {
	a := newArgs(req)
	client, hasClient := a.get("client")
	if hasClient && req.conn.helloSeen {
		return nil, mongoerr.New(mongoerr.ClientMetadataCannotBeMutated, "The client metadata document may only be sent in the first hello")
	}
	if doc, ok := client.(bson.D); ok {
		e.ops.setMetadata(req.conn, doc)
		e.log.clientMetadata(req.conn, doc)
	}
	req.conn.helloSeen = true
	if ic, ok := a.get("internalClient"); ok {
		if _, isDoc := ic.(bson.D); !isDoc {
			return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '%s.internalClient' is the wrong type '%s', expected type 'object'", req.name, value.TypeName(ic))
		}
		// The session is tagged an internal client's (kInternalClient).
		req.conn.internal = true
	}

	tv, hasTV := a.get("topologyVersion")
	mat, hasMAT := a.get("maxAwaitTimeMS")
	if hasTV != hasMAT {
		msg := "A request with 'maxAwaitTimeMS' must include a 'topologyVersion'"
		if hasTV {
			msg = "A request with a 'topologyVersion' must include 'maxAwaitTimeMS'"
		}
		return nil, mongoerr.New(31368, msg)
	}
	if hasTV {
		waitStart := time.Now()
		err := e.awaitTopologyChange(req, tv, mat)
		req.paused += time.Since(waitStart)
		if err != nil {
			return nil, err
		}
	}

	reply := make(bson.D, 0, 16)
	if v, ok := a.get("helloOk"); ok {
		if _, isBool := v.(bool); !isBool && !value.IsNumber(v) {
			return nil, mongoerr.Newf(mongoerr.TypeMismatch, "\"helloOk\" had the wrong type. Expected bool, found %s", value.TypeName(v))
		}
		reply = append(reply, bson.E{Key: "helloOk", Value: true})
	}
	if req.name == "hello" {
		reply = append(reply, bson.E{Key: "isWritablePrimary", Value: true})
	} else {
		reply = append(reply, bson.E{Key: "ismaster", Value: true})
	}
	reply = append(reply,
		bson.E{Key: "topologyVersion", Value: bson.D{
			{Key: "processId", Value: e.processID},
			{Key: "counter", Value: int64(0)},
		}},
		bson.E{Key: "maxBsonObjectSize", Value: int32(value.MaxUserDocumentSize)},
		bson.E{Key: "maxMessageSizeBytes", Value: int32(vocab.MaxMessageSize)},
		bson.E{Key: "maxWriteBatchSize", Value: int32(maxWriteBatchSize)},
		bson.E{Key: "localTime", Value: bson.NewDateTimeFromTime(time.Now())},
		bson.E{Key: "logicalSessionTimeoutMinutes", Value: int32(logicalSessionTimeoutMinutes)},
		bson.E{Key: "connectionId", Value: connectionID(req.conn.ID)},
		bson.E{Key: "minWireVersion", Value: int32(minWireVersion)},
		bson.E{Key: "maxWireVersion", Value: int32(maxWireVersion)},
		bson.E{Key: "readOnly", Value: false},
		// No compression is offered, so "compression" is omitted; with
		// authentication off there are no SASL mechanisms to advertise and
		// speculativeAuthenticate gets no answer, as on such a mongod.
	)
	return reply, nil
}

// awaitTopologyChange implements the awaitable hello of the streaming
// monitoring protocol: when the client already knows the current topology
// version, mongod holds the reply until it changes or maxAwaitTimeMS passes.
// A standalone's topology never changes, so the wait always runs out; without
// it drivers would poll hello in a tight loop.
func (e *Engine) awaitTopologyChange(req *request, tv, mat any) error {
	tvDoc, ok := tv.(bson.D)
	if !ok {
		return mongoerr.Newf(mongoerr.TypeMismatch, "BSON field 'TopologyVersion' is the wrong type '%s', expected type 'object'", value.TypeName(tv))
	}
	var processID any
	var counter int64
	for _, f := range tvDoc {
		switch f.Key {
		case "processId":
			processID = f.Value
		case "counter":
			n, ok := value.WholeNumber(f.Value)
			if !ok {
				return mongoerr.Newf(mongoerr.TypeMismatch, "BSON field 'TopologyVersion.counter' is the wrong type '%s', expected type 'long'", value.TypeName(f.Value))
			}
			counter = n
		}
	}
	if counter < 0 {
		return mongoerr.New(31372, "topologyVersion must have a non-negative counter")
	}
	wait, ok := value.WholeNumber(mat)
	if !ok {
		return mongoerr.Newf(mongoerr.TypeMismatch, "\"maxAwaitTimeMS\" had the wrong type. Expected long, found %s", value.TypeName(mat))
	}
	if wait < 0 {
		return mongoerr.New(31373, "maxAwaitTimeMS must be a non-negative integer")
	}
	if oid, ok := processID.(bson.ObjectID); !ok || oid != e.processID || counter != 0 {
		return nil // the client's view is stale: answer at once
	}
	t := time.NewTimer(time.Duration(wait) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
	case <-req.ctx.Done():
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
