package compat_test

import (
	"testing"

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
