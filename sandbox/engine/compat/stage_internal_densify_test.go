package compat_test

import (
	"context"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// $_internalDensify is $densify without the $sort in front of it, which
// only a server of the deployment may send: a client that said so in its
// hello (internalClient) may; any other is refused with 5491300
// (REGISTER_INTERNAL_DOCUMENT_SOURCE in document_source_densify.cpp,
// assertAllowedInternalIfRequired in allowed_contexts.cpp;
// jstests/aggregation/sources/densify/internal_parse.js).
func TestStageInternalDensify(t *testing.T) {
	ref := "src/mongo/db/pipeline/document_source_densify.cpp; src/mongo/db/query/allowed_contexts.cpp; jstests/aggregation/sources/densify/internal_parse.js"
	runAggCases(t, []aggCase{
		{name: "a user's $_internalDensify is refused", ref: ref, cov: cover{family: stage, op: "$_internalDensify", col: errorCol},
			docs: `[{"_id":1,"a":1},{"_id":2,"a":4}]`, pipeline: `[{"$_internalDensify":{"field":"a","range":{"step":1,"bounds":"full"}}}]`,
			code: 5491300, msg: "$_internalDensify' is not allowed in user requests"},
	})
	// assertLanguageFeatureIsAllowed checks the client's type before the
	// stage's AllowedWithApiStrict.
	runCmdCases(t, []cmdCase{
		{name: "under apiStrict, a user's $_internalDensify is refused as internal-only first", ref: ref, cov: cover{family: stage, op: "$_internalDensify", col: errorCol},
			cmd:  `{"aggregate":"c","pipeline":[{"$_internalDensify":{"field":"a","range":{"step":1,"bounds":"full"}}}],"cursor":{},"apiVersion":"1","apiStrict":true}`,
			code: 5491300, msg: "$_internalDensify' is not allowed in user requests"},
	})

	s := newSuite(t)
	s.runCase(t, "an internal client's $_internalDensify densifies", ref, cover{family: stage, op: "$_internalDensify", col: semantics},
		func(t *testing.T, db *mongo.Database) {
			// One connection, so that the hello and the aggregate share it.
			ctx, cancel := context.WithCancel(context.Background())
			srv, err := wire.Start(ctx, wire.Options{Engine: engine.New(engine.Options{})})
			if err != nil {
				cancel()
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = srv.Close(); cancel() })
			client, err := mongo.Connect(options.Client().ApplyURI(srv.URI()).SetMaxPoolSize(1).SetServerSelectionTimeout(10 * time.Second).
				SetServerMonitoringMode(options.ServerMonitoringModePoll))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
			idb := client.Database(db.Name())
			mustCommand(t, idb, `{"insert":"c","documents":[{"_id":1,"a":1},{"_id":2,"a":4}]}`)
			mustCommand(t, idb, `{"hello":1,"internalClient":{"minWireVersion":0,"maxWireVersion":7}}`)
			reply := mustCommand(t, idb, `{"aggregate":"c","pipeline":[{"$_internalDensify":{"field":"a","range":{"step":1,"bounds":[1,3]}}},{"$project":{"_id":0}}],"cursor":{}}`)
			sameValue(t, "densified", field(field(reply, "cursor").(bson.D), "firstBatch"), `[{"a":1},{"a":2},{"a":4}]`)
			// Under apiStrict an internal client may use the stages kept
			// for the deployment's own requests (kInternal), and not those
			// never in API Version 1.
			reply = mustCommand(t, idb, `{"aggregate":"c","pipeline":[{"$_internalDensify":{"field":"a","range":{"step":1,"bounds":[1,3]}}},{"$project":{"_id":0}}],"cursor":{},"apiVersion":"1","apiStrict":true}`)
			sameValue(t, "densified under apiStrict", field(field(reply, "cursor").(bson.D), "firstBatch"), `[{"a":1},{"a":2},{"a":4}]`)
			_, cerr := command(t, idb, ejDoc(t, `{"aggregate":"c","pipeline":[{"$_internalInhibitOptimization":{}}],"cursor":{},"apiVersion":"1","apiStrict":true}`))
			sameError(t, "$_internalInhibitOptimization under apiStrict", cerr, mongoerr.APIStrictError, "$_internalInhibitOptimization is not allowed with 'apiStrict: true' in API Version 1")
		})
}
