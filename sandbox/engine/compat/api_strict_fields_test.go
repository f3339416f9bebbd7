package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The fields an API Version 1 command's IDL marks `stability: unstable`
// are refused under apiStrict: true by the generated parser
// (buildscripts/idl/idl/generator.py emits
// checkAndthrowAPIStrictErrorIfApplicable for them alone), with
// APIStrictError and "BSON field '<path>' is not allowed with
// apiStrict:true.", the path being the parser context's
// (src/mongo/idl/idl_parser.cpp getElementPath): the command, then the
// field holding a nested struct, and for the elements of an array of
// structs the array field alone (no index). `internal` fields, the index
// specs of createIndexes (array<object>) and the same commands without
// apiStrict are accepted. jstests/core/api/api_version_unstable_fields.js
// checks the same for aggregate, find and collMod.

const (
	strictAPI = `, "apiVersion": "1", "apiStrict": true`
	aUUID     = `{"$binary": {"base64": "AAECAwQFBgcICQoLDA0ODw==", "subType": "04"}}`
	idlErrRef = "src/mongo/idl/idl_parser.cpp (throwAPIStrictErrorIfApplicable, getElementPath); buildscripts/idl/idl/generator.py"
)

func strictRefusal(field string) string {
	return "BSON field '" + field + "' is not allowed with apiStrict:true."
}

func TestAPIStrictUnstableFields(t *testing.T) {
	const (
		createRef  = "src/mongo/db/commands/create.idl (CreateCollectionRequest: size, max, flags unstable); " + idlErrRef
		indexesRef = "src/mongo/db/create_indexes.idl (ignoreUnknownIndexOptions, collectionUUID unstable; indexes is array<object>)"
		collModRef = "src/mongo/db/coll_mod.idl (CollModIndex.unique, dryRun unstable); jstests/core/api/api_version_unstable_fields.js"
		writeRef   = "src/mongo/db/query/write_ops/write_ops.idl (WriteCommandRequestBase, UpdateOpEntry, DeleteOpEntry); " + idlErrRef
		aliasRef   = "src/mongo/db/commands.h (TypedCommand::InvocationBaseInternal::_parseRequest: no alias under apiStrict)"
		errs       = mongoerr.APIStrictError
	)
	index := []string{`{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]}`}
	runCmdCases(t, []cmdCase{
		// create.idl: size is unstable (capped is stable only because size
		// must come with it).
		{name: "apiStrict: create's size is unstable", ref: createRef,
			cmd: `{"create": "c", "capped": true, "size": 1000` + strictAPI + `}`, code: errs, msg: strictRefusal("create.size")},
		{name: "apiStrict: the first unstable field met is named", ref: createRef,
			cmd: `{"create": "c", "capped": true, "max": 10, "size": 4096` + strictAPI + `}`, code: errs, msg: strictRefusal("create.max")},
		{name: "apiStrict: create's flags is unstable", ref: createRef,
			cmd: `{"create": "c", "flags": 1` + strictAPI + `}`, code: errs, msg: strictRefusal("create.flags")},
		// basic_types.idl's Collation: version is unstable, and create's
		// collation is that struct, parsed under the field's name.
		{name: "apiStrict: a collation's version in create", ref: "src/mongo/db/basic_types.idl (Collation.version unstable); " + createRef,
			cmd: `{"create": "c", "collation": {"locale": "en", "version": "57.1"}` + strictAPI + `}`, code: errs,
			msg: strictRefusal("create.collation.version")},
		{name: "apiVersion 1 without apiStrict: create's size is accepted", ref: createRef,
			cmd: `{"create": "c", "capped": true, "size": 1000, "apiVersion": "1"}`},
		{name: "apiStrict false: create's size is accepted", ref: createRef,
			cmd: `{"create": "c", "capped": true, "size": 1000, "apiVersion": "1", "apiStrict": false}`},
		{name: "apiStrict: create's stable validator is accepted", ref: createRef,
			cmd: `{"create": "c", "validator": {"a": {"$exists": true}}` + strictAPI + `}`},

		{name: "apiStrict: createIndexes' ignoreUnknownIndexOptions is unstable", ref: indexesRef,
			cmd:  `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}], "ignoreUnknownIndexOptions": true` + strictAPI + `}`,
			code: errs, msg: strictRefusal("createIndexes.ignoreUnknownIndexOptions")},
		{name: "apiStrict: createIndexes' collectionUUID is refused before it is checked", ref: indexesRef,
			cmd:  `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}], "collectionUUID": ` + aUUID + strictAPI + `}`,
			code: errs, msg: strictRefusal("createIndexes.collectionUUID")},
		// The specs are not parsed as NewIndexSpec: index_key_validate.cpp
		// refuses text and columnstore under apiStrict, not sparse.
		{name: "apiStrict: an index spec's sparse is accepted", ref: indexesRef + "; src/mongo/db/catalog/index_key_validate.cpp (validateIndexSpec)",
			cmd: `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1", "sparse": true}]` + strictAPI + `}`},

		{name: "apiStrict: collMod's index.unique is unstable", ref: collModRef, setup: index,
			cmd: `{"collMod": "c", "index": {"name": "a_1", "unique": true}` + strictAPI + `}`, code: errs, msg: strictRefusal("collMod.index.unique")},
		{name: "apiStrict: collMod's dryRun is unstable", ref: collModRef, setup: index,
			cmd: `{"collMod": "c", "dryRun": true, "index": {"name": "a_1", "unique": true}` + strictAPI + `}`, code: errs,
			msg: strictRefusal("collMod.dryRun")},
		{name: "apiStrict: collMod's stable index.hidden is accepted", ref: collModRef, setup: index,
			cmd: `{"collMod": "c", "index": {"keyPattern": {"a": 1}, "hidden": true}` + strictAPI + `}`},

		{name: "apiStrict: find's sampleId is unstable", ref: "src/mongo/db/query/find_command.idl (sampleId unstable); " + idlErrRef,
			cmd: `{"find": "c", "sampleId": ` + aUUID + strictAPI + `}`, code: errs, msg: strictRefusal("FindCommandRequest.sampleId")},
		{name: "apiStrict: aggregate's internal fromMongos is accepted", ref: "src/mongo/db/pipeline/aggregate_command.idl (fromMongos: stability internal); buildscripts/idl/idl/generator.py",
			cmd: `{"aggregate": "c", "pipeline": [], "cursor": {}, "fromMongos": false` + strictAPI + `}`},

		{name: "apiStrict: insert's collectionUUID is unstable", ref: writeRef,
			cmd: `{"insert": "c", "documents": [{"_id": 1}], "collectionUUID": ` + aUUID + strictAPI + `}`, code: errs,
			msg: strictRefusal("insert.collectionUUID")},
		{name: "apiStrict: insert's bypassEmptyTsReplacement is unstable", ref: writeRef,
			cmd: `{"insert": "c", "documents": [{"_id": 1}], "bypassEmptyTsReplacement": true` + strictAPI + `}`, code: errs,
			msg: strictRefusal("insert.bypassEmptyTsReplacement")},
		// An update statement is parsed under the context "updates" of
		// the command's: the path has no index.
		{name: "apiStrict: an update statement's sort is unstable", ref: writeRef, docs: `[{"_id": 1, "a": 1}]`,
			cmd:  `{"update": "c", "updates": [{"q": {}, "u": {"$set": {"b": 1}}, "sort": {"a": 1}}]` + strictAPI + `}`,
			code: errs, msg: strictRefusal("update.updates.sort"), thenFind: `{"find": "c"}`, thenWant: `[{"_id": 1, "a": 1}]`},
		{name: "apiStrict: a later update statement's sampleId is unstable", ref: writeRef,
			cmd: `{"update": "c", "updates": [{"q": {}, "u": {"$set": {"b": 1}}}, {"q": {}, "u": {"$set": {"b": 2}}, "sampleId": ` + aUUID + `}]` +
				strictAPI + `}`, code: errs, msg: strictRefusal("update.updates.sampleId")},
		{name: "apiVersion 1 without apiStrict: an update statement's sort is accepted", ref: writeRef, docs: `[{"_id": 1, "a": 2}, {"_id": 2, "a": 1}]`,
			cmd:      `{"update": "c", "updates": [{"q": {}, "u": {"$set": {"b": 1}}, "sort": {"a": 1}}], "apiVersion": "1"}`,
			thenFind: `{"find": "c", "sort": {"_id": 1}}`, thenWant: `[{"_id": 1, "a": 2}, {"_id": 2, "a": 1, "b": 1}]`},
		{name: "apiStrict: an update statement's stable fields are accepted", ref: writeRef,
			cmd:      `{"update": "c", "updates": [{"q": {"_id": 1}, "u": {"$set": {"b": 1}}, "upsert": true, "multi": false}]` + strictAPI + `}`,
			thenFind: `{"find": "c"}`, thenWant: `[{"_id": 1, "b": 1}]`},
		{name: "apiStrict: a delete statement's sampleId is unstable", ref: writeRef, docs: `[{"_id": 1}]`,
			cmd:  `{"delete": "c", "deletes": [{"q": {}, "limit": 0, "sampleId": ` + aUUID + `}]` + strictAPI + `}`,
			code: errs, msg: strictRefusal("delete.deletes.sampleId"), thenFind: `{"find": "c"}`, thenWant: `[{"_id": 1}]`},
		{name: "apiStrict: a delete statement's stable fields are accepted", ref: writeRef, docs: `[{"_id": 1}]`,
			cmd: `{"delete": "c", "deletes": [{"q": {"_id": 1}, "limit": 1}]` + strictAPI + `}`, thenFind: `{"find": "c"}`, thenWant: `[]`},
		{name: "apiStrict: findAndModify's bypassEmptyTsReplacement is unstable", ref: writeRef,
			cmd:  `{"findAndModify": "c", "query": {}, "update": {"$set": {"a": 1}}, "bypassEmptyTsReplacement": true` + strictAPI + `}`,
			code: errs, msg: strictRefusal("findAndModify.bypassEmptyTsReplacement")},

		{name: "apiStrict: listCollections' includePendingDrops is unstable", ref: "src/mongo/db/list_collections.idl (includePendingDrops unstable)",
			cmd: `{"listCollections": 1, "includePendingDrops": true` + strictAPI + `}`, code: errs,
			msg: strictRefusal("listCollections.includePendingDrops")},
		{name: "apiStrict: listCollections' stable nameOnly is accepted", ref: "src/mongo/db/list_collections.idl",
			cmd: `{"listCollections": 1, "nameOnly": true` + strictAPI + `}`},
		{name: "apiStrict: listIndexes' includeBuildUUIDs is unstable", ref: "src/mongo/db/list_indexes.idl (includeBuildUUIDs unstable)",
			docs: `[{"_id": 1}]`, cmd: `{"listIndexes": "c", "includeBuildUUIDs": true` + strictAPI + `}`, code: errs,
			msg: strictRefusal("listIndexes.includeBuildUUIDs")},
		{name: "apiStrict: listIndexes' includeIndexBuildInfo is unstable", ref: "src/mongo/db/list_indexes.idl (includeIndexBuildInfo unstable)",
			docs: `[{"_id": 1}]`, cmd: `{"listIndexes": "c", "includeIndexBuildInfo": true` + strictAPI + `}`, code: errs,
			msg: strictRefusal("listIndexes.includeIndexBuildInfo")},
		{name: "apiStrict: drop's collectionUUID is unstable", ref: "src/mongo/db/drop.idl (collectionUUID unstable)",
			docs: `[{"_id": 1}]`, cmd: `{"drop": "c", "collectionUUID": ` + aUUID + strictAPI + `}`, code: errs,
			msg: strictRefusal("drop.collectionUUID")},
		{name: "apiStrict: dropIndexes' collectionUUID is unstable", ref: "src/mongo/db/drop_indexes.idl (DropIndexesRequest.collectionUUID unstable)",
			docs: `[{"_id": 1}]`, cmd: `{"dropIndexes": "c", "index": "*", "collectionUUID": ` + aUUID + strictAPI + `}`, code: errs,
			msg: strictRefusal("dropIndexes.collectionUUID")},

		// The explained command is parsed with the explain's API
		// parameters.
		{name: "apiStrict: an explained find's min is unstable", ref: "src/mongo/db/commands/explain_cmd.cpp (CmdExplain::parse); src/mongo/db/query/find_command.idl",
			cmd: `{"explain": {"find": "c", "min": {"a": 1}}` + strictAPI + `}`, code: errs, msg: strictRefusal("FindCommandRequest.min")},
		{name: "apiStrict: an explained update statement's sort is unstable", ref: "src/mongo/db/commands/explain_cmd.cpp (CmdExplain::parse); " + writeRef,
			cmd:  `{"explain": {"update": "c", "updates": [{"q": {}, "u": {"$set": {"b": 1}}, "sort": {"a": 1}}]}` + strictAPI + `}`,
			code: errs, msg: strictRefusal("update.updates.sort")},

		{name: "apiStrict: findAndModify by its alias", ref: aliasRef, cov: cover{family: commandFam, op: "findAndModify", col: errorCol},
			cmd: `{"findandmodify": "c", "query": {}, "remove": true` + strictAPI + `}`, code: errs,
			msg: "Command invocation with name 'findandmodify' is not allowed in 'apiStrict' mode, use 'findAndModify' instead"},
		{name: "apiStrict: dropIndexes by its alias", ref: aliasRef, cov: cover{family: commandFam, op: "dropIndexes", col: errorCol},
			docs: `[{"_id": 1}]`, cmd: `{"deleteIndexes": "c", "index": "*"` + strictAPI + `}`, code: errs,
			msg: "Command invocation with name 'deleteIndexes' is not allowed in 'apiStrict' mode, use 'dropIndexes' instead"},
		{name: "apiVersion 1 without apiStrict: findAndModify by its alias", ref: aliasRef, cov: cover{family: commandFam, op: "findAndModify", col: semantics},
			docs: `[{"_id": 1}]`, cmd: `{"findandmodify": "c", "query": {}, "remove": true, "apiVersion": "1"}`, thenFind: `{"find": "c"}`, thenWant: `[]`},
	})
}
