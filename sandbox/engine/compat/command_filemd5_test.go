package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// filemd5 (CmdFileMD5 in src/mongo/db/commands/dbcommands.cpp) digests a
// GridFS file's chunks, {files_id, n, data} in <root>.chunks, in order of
// n. It plans with NO_TABLE_SCAN (query_planner.cpp), so an index on the
// chunks must answer it. With partialOk it stops at the first chunk
// missing and returns md5state, MongoDB 8.0's 88-byte md5_state_t (bit
// count, digest words, block), from which a call with startAt resumes.
// jstests/core/administrative/filemd5.js checks the same errors.
const filemd5Ref = "src/mongo/db/commands/dbcommands.cpp (CmdFileMD5); src/mongo/db/query/query_planner.cpp (NO_TABLE_SCAN); jstests/core/administrative/filemd5.js"

func TestFileMD5(t *testing.T) {
	index := `{"createIndexes":"fs.chunks","indexes":[{"key":{"files_id":1,"n":1},"name":"files_id_1_n_1"}]}`
	// "hello " and "world", the two chunks of file 7.
	chunks := `{"insert":"fs.chunks","documents":[{"files_id":7,"n":0,"data":{"$binary":{"base64":"aGVsbG8g","subType":"00"}}},{"files_id":7,"n":1,"data":{"$binary":{"base64":"d29ybGQ=","subType":"00"}}}]}`
	// The state after "hello world": 88 bits, the digest words after one
	// block of none, and the 11 bytes waiting in the block.
	state := `{"$binary":{"base64":"WAAAAAAAAAABI0VniavN7/7cuph2VDIQaGVsbG8gd29ybGQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==","subType":"00"}}`
	runCmdCases(t, []cmdCase{
		{name: "the digest of the chunks in order", ref: filemd5Ref, setup: []string{index, chunks},
			cmd: `{"filemd5":7}`, want: `{"numChunks":2,"md5":"5eb63bbbe01eeed093cb22bb8f5acdc3","ok":1.0}`},
		{name: "another root", ref: filemd5Ref,
			setup: []string{`{"createIndexes":"photos.chunks","indexes":[{"key":{"files_id":1},"name":"f"}]}`, `{"insert":"photos.chunks","documents":[{"files_id":"a","n":0,"data":{"$binary":{"base64":"d29ybGQ=","subType":"00"}}}]}`},
			cmd:   `{"filemd5":"a","root":"photos"}`, want: `{"numChunks":1,"md5":"7d793037a0760186574b0282f2f435e7","ok":1.0}`},
		{name: "no chunks in a collection that does not exist", ref: filemd5Ref,
			cmd: `{"filemd5":1,"root":"none"}`, want: `{"numChunks":0,"md5":"d41d8cd98f00b204e9800998ecf8427e","ok":1.0}`},
		{name: "partialOk returns the digest's state first", ref: filemd5Ref, setup: []string{index, chunks},
			cmd: `{"filemd5":7,"partialOk":true}`, want: `{"md5state":` + state + `,"numChunks":2,"md5":"5eb63bbbe01eeed093cb22bb8f5acdc3","ok":1.0}`},
		{name: "a state and startAt resume the digest", ref: filemd5Ref, setup: []string{index, chunks},
			cmd: `{"filemd5":7,"partialOk":true,"startAt":2,"md5state":` + state + `}`, want: `{"md5state":` + state + `,"numChunks":2,"md5":"5eb63bbbe01eeed093cb22bb8f5acdc3","ok":1.0}`},
		{name: "partialOk stops at a missing chunk", ref: filemd5Ref,
			setup: []string{index, chunks, `{"insert":"fs.chunks","documents":[{"files_id":7,"n":3,"data":{"$binary":{"base64":"eA==","subType":"00"}}}]}`},
			cmd:   `{"filemd5":7,"partialOk":1}`, want: `{"md5state":` + state + `,"numChunks":2,"md5":"5eb63bbbe01eeed093cb22bb8f5acdc3","ok":1.0}`},
		{name: "without an index on the chunks", ref: filemd5Ref, setup: []string{chunks},
			cmd: `{"filemd5":7}`, code: mongoerr.NoQueryExecutionPlans,
			msg: "error processing query: ns={{db}}.fs.chunksTree: $and\n    files_id $eq 7\n    n $gte 0\nSort: { files_id: 1, n: 1 }\nProj: {}\n planner returned error :: caused by :: No indexed plans available, and running with 'notablescan'"},
		{name: "a chunk missing", ref: filemd5Ref,
			setup: []string{index, chunks, `{"insert":"fs.chunks","documents":[{"files_id":7,"n":3,"data":{"$binary":{"base64":"eA==","subType":"00"}}}]}`},
			cmd:   `{"filemd5":7}`, code: 10040, msg: "Executor error during filemd5 command :: caused by :: chunks out of order"},
		{name: "a chunk without data", ref: filemd5Ref, setup: []string{index, `{"insert":"fs.chunks","documents":[{"files_id":2,"n":0}]}`},
			cmd: `{"filemd5":2}`, code: 50848, msg: "Executor error during filemd5 command :: caused by :: The element that calls binDataClean() must be type of BinData, but type of misisng found. Field name is required"},
		{name: "a chunk whose data is no binary", ref: filemd5Ref, setup: []string{index, `{"insert":"fs.chunks","documents":[{"files_id":2,"n":0,"data":5}]}`},
			cmd: `{"filemd5":2}`, code: 50849, msg: "Executor error during filemd5 command :: caused by :: The element that calls binDataClean() must be type of BinData, but type of int found."},
		{name: "a state that is no binary", ref: filemd5Ref, setup: []string{index},
			cmd: `{"filemd5":1,"partialOk":1,"md5state":5}`, code: 50847, msg: "The element that calls binDataClean() must be type of BinData, but type of int found."},
		{name: "a state of another size", ref: filemd5Ref, setup: []string{index},
			cmd: `{"filemd5":1,"partialOk":1,"md5state":{"$binary":{"base64":"AAAA","subType":"00"}}}`, code: 16247, msg: "md5 state not correct size"},
		{name: "a root that is no string", ref: filemd5Ref,
			cmd: `{"filemd5":1,"root":5}`, code: mongoerr.InvalidNamespace, msg: "'root' must be of type String"},
	})
}
