package compat_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// How aggregate reads its first field, the collection or 1: mongod's
// aggregation_request_helper.cpp parseNs, which runs before the IDL
// parse, so its codes differ from the other commands' namespace checks.
const aggregateNsRef = "src/mongo/db/pipeline/aggregation_request_helper.cpp (parseNs); jstests/core/query/explain/explain_uuid.js"

func TestAggregateNamespace(t *testing.T) {
	runCmdCases(t, []cmdCase{
		{name: "aggregate on a collection UUID", ref: aggregateNsRef,
			cmd:  `{"aggregate":{"$binary":{"base64":"AAECAwQFBgcICQoLDA0ODw==","subType":"04"}},"pipeline":[],"cursor":{}}`,
			code: mongoerr.TypeMismatch, msg: "collection name has invalid type: binData"},
		{name: "aggregate on a boolean", ref: aggregateNsRef, cmd: `{"aggregate":true,"pipeline":[],"cursor":{}}`,
			code: mongoerr.TypeMismatch, msg: "collection name has invalid type: bool"},
		{name: "aggregate on 1.5, which is not 1", ref: aggregateNsRef, cmd: `{"aggregate":1.5,"pipeline":[],"cursor":{}}`,
			code: mongoerr.FailedToParse, msg: "Invalid command format: the 'aggregate' field must specify a collection name or 1"},
		{name: "aggregate on the decimal 1", ref: aggregateNsRef, cmd: `{"aggregate":{"$numberDecimal":"1"},"pipeline":[{"$documents":[{"a":1}]}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"a":1}],"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.aggregate"}}`},
	})
}

// A database whose name differs from an existing one's only in case is
// not created, by any write that would create it
// (DatabaseHolderImpl::openDb, DatabaseDifferCase); jstests/core/dbcase.js.
const dbCaseRef = "src/mongo/db/catalog/database_holder_impl.cpp (openDb); jstests/core/dbcase.js"

func TestDatabaseNamesDifferingInCase(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "a database differing only in case is refused", dbCaseRef, cover{family: commandFam, op: "insert", col: errorCol}, func(t *testing.T, db *mongo.Database) {
		ctx := context.Background()
		insertDocs(t, db.Collection("c"), `[{"_id":1}]`)
		other := db.Client().Database(strings.ToUpper(db.Name()))
		defer other.Drop(ctx)
		want := "db already exists with different case already have: [" + db.Name() + "] trying to create [" + other.Name() + "]"
		_, err := other.Collection("c").InsertOne(ctx, bson.D{{Key: "_id", Value: 1}})
		var se mongo.ServerError
		if !errors.As(err, &se) || !se.HasErrorCode(int(mongoerr.DatabaseDifferCase)) || !strings.Contains(err.Error(), want) {
			t.Errorf("insert: %v", err)
		}
		_, cerr := command(t, other, bson.D{{Key: "create", Value: "c"}})
		sameError(t, "create", cerr, mongoerr.DatabaseDifferCase, want)
		admin := db.Client().Database("admin")
		_, rerr := command(t, admin, bson.D{{Key: "renameCollection", Value: db.Name() + ".c"}, {Key: "to", Value: other.Name() + ".d"}})
		sameError(t, "renameCollection", rerr, mongoerr.DatabaseDifferCase, want)
		names, err := db.Client().ListDatabaseNames(ctx, bson.D{{Key: "name", Value: other.Name()}})
		if err != nil || len(names) != 0 {
			t.Errorf("%s was created: %v %v", other.Name(), names, err)
		}
	})
}
