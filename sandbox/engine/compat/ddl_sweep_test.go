package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The collection-level DDL sweep: create, renameCollection,
// listCollections, collMod, drop and the catalog's statistics, each case
// citing the mongod source it follows and the jstest that shows it.

const (
	createCmdRef   = "src/mongo/db/commands/create_command.cpp (CmdCreate::typedRun), src/mongo/db/catalog/create_collection.cpp"
	collOptionsRef = "src/mongo/db/catalog/collection_options.cpp (CollectionOptions::appendBSON, fromCreateCommand)"
	createJSRef    = "jstests/core/ddl/create_collection.js"
)

// listOne is the listCollections reply for the collection c alone, with
// its options, info and idIndex as want gives them.
func listOne(entry string) string {
	return `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[` + entry + `]}}`
}

const idIndexEntry = `"idIndex":{"v":2,"key":{"_id":1},"name":"_id_"}`

// create's options as CollectionOptions keeps them: in appendBSON's
// order whatever the command's, without what it does not keep (an empty
// storageEngine, indexOptionDefaults without a storageEngine, disabled
// pre- and post-images, the simple collation, flags, idIndex), and the
// deprecated and internal options checked as CmdCreate checks them.
func TestDDLSweepCreateOptions(t *testing.T) {
	listC := `{"listCollections":1,"filter":{"name":"c"}}`
	runCmdCases(t, []cmdCase{
		{name: "options list in CollectionOptions order", ref: collOptionsRef + "; " + createCmdRef,
			cmd:      `{"create":"c","validationAction":"warn","validationLevel":"moderate","validator":{"a":1},"changeStreamPreAndPostImages":{"enabled":true},"capped":true,"size":4096}`,
			want:     `{}`,
			thenFind: listC,
			thenWant: listOne(`{"name":"c","type":"collection","options":{"capped":true,"size":4096,"changeStreamPreAndPostImages":{"enabled":true},"validator":{"a":1},"validationLevel":"moderate","validationAction":"warn"},"info":"*",` + idIndexEntry + `}`)},
		{name: "the same options in another order are the same options", ref: collOptionsRef + " (matchesStorageOptions); " + createJSRef,
			setup: []string{`{"create":"c","validationAction":"warn","validator":{"a":1}}`},
			cmd:   `{"create":"c","validator":{"a":1},"validationAction":"warn"}`, want: `{}`},
		{name: "options create does not keep", ref: collOptionsRef + "; src/mongo/db/catalog/database_impl.cpp (userCreateNS: the simple collation is not kept)",
			cmd:      `{"create":"c","changeStreamPreAndPostImages":{"enabled":false},"storageEngine":{},"indexOptionDefaults":{},"flags":3,"collation":{"locale":"simple"}}`,
			want:     `{}`,
			thenFind: listC, thenWant: listOne(`{"name":"c","type":"collection","options":{},"info":"*",` + idIndexEntry + `}`)},
		{name: "the simple collation again matches no collation", ref: collOptionsRef + " (matchesStorageOptions compares collators); " + createJSRef,
			setup: []string{`{"create":"c"}`}, cmd: `{"create":"c","collation":{"locale":"simple"}}`, want: `{}`},
		{name: "autoIndexId: true is kept and answered with a deprecation note", ref: createCmdRef + " (DEPR_23800); " + collOptionsRef,
			cmd:      `{"create":"c","autoIndexId":true}`,
			want:     `{"note":"The autoIndexId option is deprecated and will be removed in a future release","ok":1.0}`,
			thenFind: listC, thenWant: listOne(`{"name":"c","type":"collection","options":{"autoIndexId":true},"info":"*",` + idIndexEntry + `}`)},
		{name: "autoIndexId: true again differs from no autoIndexId", ref: collOptionsRef + " (matchesStorageOptions)",
			setup: []string{`{"create":"c","autoIndexId":true}`},
			cmd:   `{"create":"c"}`, code: mongoerr.NamespaceExists},
		{name: "autoIndexId: false on a replicated namespace", ref: "src/mongo/db/catalog/database_impl.cpp (createCollection, 50001)",
			cmd: `{"create":"c","autoIndexId":false}`, code: 50001, msg: "autoIndexId:false is not allowed for collection {{db}}.c because it can be replicated"},
		{name: "autoIndexId of the wrong type", ref: "src/mongo/db/commands/create.idl (autoIndexId: safeBool)",
			cmd: `{"create":"c","autoIndexId":"yes"}`, code: mongoerr.TypeMismatch, msg: "BSON field 'create.autoIndexId' is the wrong type 'string', expected types '[bool, long, int, decimal, double']"},
		{name: "temp is for internal clients", ref: createCmdRef,
			cmd: `{"create":"c","temp":true}`, code: mongoerr.InvalidOptions, msg: "the 'temp' field is an invalid option"},
		{name: "temp: false is accepted and not kept", ref: createCmdRef + "; " + collOptionsRef,
			cmd: `{"create":"c","temp":false}`, want: `{}`,
			thenFind: listC, thenWant: listOne(`{"name":"c","type":"collection","options":{},"info":"*",` + idIndexEntry + `}`)},
		{name: "flags of the wrong type", ref: "src/mongo/db/commands/create.idl (flags: safeInt64)",
			cmd: `{"create":"c","flags":"x"}`, code: mongoerr.TypeMismatch, msg: "BSON field 'create.flags' is the wrong type 'string', expected types '[long, int, decimal, double']"},
		{name: "changeStreamPreAndPostImages without enabled", ref: "src/mongo/db/catalog/collection_options.idl (ChangeStreamPreAndPostImagesOptions)",
			cmd: `{"create":"c","changeStreamPreAndPostImages":{}}`, code: mongoerr.IDLFailedToParse, msg: "BSON field 'create.changeStreamPreAndPostImages.enabled' is missing but a required field"},
		{name: "changeStreamPreAndPostImages with an unknown field", ref: "src/mongo/db/catalog/collection_options.idl (ChangeStreamPreAndPostImagesOptions is strict)",
			cmd: `{"create":"c","changeStreamPreAndPostImages":{"enabled":true,"x":1}}`, code: mongoerr.IDLUnknownField, msg: "BSON field 'create.changeStreamPreAndPostImages.x' is an unknown field."},
		{name: "changeStreamPreAndPostImages.enabled of the wrong type", ref: "src/mongo/db/catalog/collection_options.idl (ChangeStreamPreAndPostImagesOptions)",
			cmd: `{"create":"c","changeStreamPreAndPostImages":{"enabled":1}}`, code: mongoerr.TypeMismatch, msg: "BSON field 'create.changeStreamPreAndPostImages.enabled' is the wrong type 'int', expected type 'bool'"},
	})
}

// create's idIndex (create_command.cpp): an object, not with viewOn or
// autoIndexId, a valid index spec that is the _id index's; it names the
// _id index _id_ whatever it says, and is not one of the collection's
// options (createCollection takes it out).
func TestDDLSweepCreateIDIndex(t *testing.T) {
	ref := createCmdRef + "; src/mongo/db/catalog/index_key_validate.cpp (validateIdIndexSpec); " + createJSRef
	runCmdCases(t, []cmdCase{
		{name: "idIndex names the _id index _id_", ref: ref,
			cmd: `{"create":"c","idIndex":{"key":{"_id":1},"name":"a_1"}}`, want: `{}`,
			thenFind: `{"listIndexes":"c"}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.c","firstBatch":[{"v":2,"key":{"_id":1},"name":"_id_"}]}}`},
		{name: "idIndex is not an option of the collection", ref: ref + "; src/mongo/db/catalog/create_collection.cpp (createCollection: std::exchange(options.idIndex, {}))",
			setup: []string{`{"create":"c","idIndex":{"key":{"_id":1},"name":"_id_"}}`},
			cmd:   `{"create":"c"}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"name":"c"}}`, thenWant: listOne(`{"name":"c","type":"collection","options":{},"info":"*",` + idIndexEntry + `}`)},
		{name: "idIndex that is no object", ref: ref,
			cmd: `{"create":"c","idIndex":1}`, code: mongoerr.TypeMismatch, msg: "BSON field 'create.idIndex' is the wrong type 'int', expected type 'object'"},
		{name: "idIndex empty", ref: ref,
			cmd: `{"create":"c","idIndex":{}}`, code: mongoerr.FailedToParse, msg: "The 'key' field is a required property of an index specification"},
		{name: "idIndex on another key", ref: ref,
			cmd: `{"create":"c","idIndex":{"key":{"a":1},"name":"a_1"}}`, code: mongoerr.BadValue, msg: "The field 'key' for an _id index must be {_id: 1}, but got { a: 1 }"},
		{name: "idIndex with an option an _id index cannot have", ref: ref,
			cmd:  `{"create":"c","idIndex":{"key":{"_id":1},"name":"_id_","sparse":true}}`,
			code: mongoerr.InvalidIndexSpecificationOption, msg: `The field 'sparse' is not valid for an _id index specification. Specification: { key: { _id: 1 }, name: "_id_", sparse: true, v: 2 }`},
		{name: "idIndex with viewOn", ref: ref, setup: []string{`{"create":"d"}`},
			cmd: `{"create":"c","viewOn":"d","idIndex":{"key":{"_id":1},"name":"_id_"}}`, code: mongoerr.InvalidOptions, msg: `'idIndex' is not allowed with 'viewOn': { key: { _id: 1 }, name: "_id_" }`},
		{name: "idIndex with autoIndexId", ref: ref,
			cmd: `{"create":"c","autoIndexId":true,"idIndex":{"key":{"_id":1},"name":"_id_"}}`, code: mongoerr.InvalidOptions, msg: `'idIndex' is not allowed with 'autoIndexId': { key: { _id: 1 }, name: "_id_" }`},
	})
}

const renameCmdRef = "src/mongo/db/commands/rename_collection_cmd.cpp (CmdRenameCollection::typedRun), src/mongo/db/catalog/rename_collection.cpp"

// renameCollection: the command's own checks come before the
// collections are looked at; what a rename keeps.
func TestDDLSweepRenameCollection(t *testing.T) {
	docs := `[{"_id":1,"a":1}]`
	runCmdCases(t, []cmdCase{
		{name: "a missing collection renamed to itself", ref: renameCmdRef + "; jstests/core/ddl/rename_collection_to_itself.js", admin: true,
			cmd: `{"renameCollection":"{{db}}.nothere","to":"{{db}}.nothere"}`, code: mongoerr.IllegalOperation, msg: "Can't rename a collection to itself"},
		{name: "a capped collection stays capped", ref: renameCmdRef + " (the catalog entry moves whole); jstests/core/ddl/rename_collection_capped.js", admin: true,
			setup: []string{`{"create":"k","capped":true,"size":4096,"max":3}`},
			cmd:   `{"renameCollection":"{{db}}.k","to":"{{db}}.k2"}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"name":"k2"}}`,
			thenWant: listOne(`{"name":"k2","type":"collection","options":{"capped":true,"size":4096,"max":3},"info":"*",` + idIndexEntry + `}`)},
		{name: "indexes go with the collection", ref: renameCmdRef + "; jstests/core/ddl/rename_collection.js", admin: true, docs: docs,
			setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1","unique":true}]}`},
			cmd:   `{"renameCollection":"{{db}}.c","to":"{{db}}.d"}`, want: `{}`,
			thenFind: `{"listIndexes":"d"}`,
			thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.d","firstBatch":[{"v":2,"key":{"_id":1},"name":"_id_"},{"v":2,"key":{"a":1},"name":"a_1","unique":true}]}}`},
	})
}

const legalSystemRef = "src/mongo/db/namespace_string.cpp (NamespaceString::isLegalClientSystemNS), src/mongo/db/catalog/database_impl.cpp (userAllowedCreateNS)"

// The system.* names create accepts: some in any database, some in one.
func TestDDLSweepCreateSystemNames(t *testing.T) {
	runCmdCases(t, []cmdCase{
		{name: "system.roles outside admin", ref: legalSystemRef,
			cmd: `{"create":"system.roles"}`, code: mongoerr.InvalidNamespace, msg: "Invalid system namespace: {{db}}.system.roles"},
		{name: "system.buckets. with no collection after it", ref: legalSystemRef + " (isTimeseriesBucketsCollection with validCollectionName)",
			cmd: `{"create":"system.buckets."}`, code: mongoerr.InvalidNamespace, msg: "Invalid system namespace: {{db}}.system.buckets."},
		{name: "a temporary resharding collection", ref: legalSystemRef + " (isTemporaryReshardingCollection)",
			cmd: `{"create":"system.resharding.abc"}`, want: `{}`},
		{name: "a query statistics collection", ref: legalSystemRef + " (isSystemStatsCollection)",
			cmd: `{"create":"system.statistics.abc"}`, want: `{}`},
		{name: "system.preimages outside config", ref: legalSystemRef + " (isChangeStreamPreImagesCollection)",
			cmd: `{"create":"system.preimages"}`, code: mongoerr.InvalidNamespace, msg: "Invalid system namespace: {{db}}.system.preimages"},
	})
}
