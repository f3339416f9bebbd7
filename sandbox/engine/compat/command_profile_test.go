package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The profile command (src/mongo/db/commands/profile_common.cpp,
// profile.idl, dbcommands_d.cpp CmdProfile): reading the settings (a level
// outside [0, 2], as mongosh's db.getProfilingStatus() sends -1), changing
// slowms, sampleRate or the filter, and setting a database's level, which
// at 1 or 2 creates its system.profile. The entries themselves are in
// TestProfilerEntries.
const profileRef = "src/mongo/db/commands/profile_common.cpp (ProfileCmdBase::run), src/mongo/db/commands/profile.idl"

func TestProfileCommand(t *testing.T) {
	runCmdCases(t, []cmdCase{
		{name: "read the profiling status", ref: profileRef, cmd: `{"profile":-1}`,
			want: `{"was":{"$numberInt":"0"},"slowms":{"$numberInt":"100"},"sampleRate":1.0}`},
		{name: "level 0 reports the old values and changes slowms and sampleRate", ref: profileRef,
			setup: []string{`{"profile":0,"slowms":20,"sampleRate":0.5}`},
			cmd:   `{"profile":-1,"slowms":100,"sampleRate":1.0}`,
			want:  `{"was":{"$numberInt":"0"},"slowms":{"$numberInt":"20"},"sampleRate":0.5}`},
		{name: "a filter is reported with the note", ref: profileRef,
			setup: []string{`{"profile":0,"filter":{"millis":{"$gt":5}}}`},
			cmd:   `{"profile":0,"filter":"unset"}`,
			want: `{"was":{"$numberInt":"0"},"slowms":"*","sampleRate":"*","filter":{"millis":{"$gt":5}},` +
				`"note":"When a filter expression is set, slowms and sampleRate are not used for profiling and slow-query log lines."}`},
		{name: "sampleRate out of range", ref: profileRef, cmd: `{"profile":0,"sampleRate":1.5}`,
			code: mongoerr.BadValue, msg: "'sampleRate' must be between 0.0 and 1.0 inclusive"},
		{name: "sampleRate must be a double", ref: profileRef, cmd: `{"profile":0,"sampleRate":1}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'profile.sampleRate' is the wrong type 'int', expected type 'double'"},
		{name: "slowms must be a number", ref: profileRef, cmd: `{"profile":0,"slowms":"x"}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'profile.slowms' is the wrong type 'string', expected types '[long, int, decimal, double']"},
		{name: "a filter that is no object", ref: profileRef + " (parseObjectOrUnset)", cmd: `{"profile":0,"filter":"all"}`,
			code: mongoerr.BadValue, msg: "Expected an object, or the string 'unset'."},
		{name: "a filter that does not parse", ref: profileRef + " (ProfileFilterImpl)", cmd: `{"profile":0,"filter":{"$foo":1}}`,
			code: mongoerr.BadValue},
		{name: "level 2 reports the level it replaces", ref: profileRef,
			setup: []string{`{"profile":2}`}, cmd: `{"profile":1,"slowms":100}`,
			want: `{"was":{"$numberInt":"2"},"slowms":{"$numberInt":"100"},"sampleRate":1.0}`},
		{name: "dropDatabase forgets the level", ref: profileRef + "; jstests/core/profile_no_such_db.js",
			setup: []string{`{"profile":2}`, `{"dropDatabase":1}`}, cmd: `{"profile":-1}`,
			want: `{"was":{"$numberInt":"0"}}`},
		{name: "level 1 creates system.profile capped at 1 MB", ref: "src/mongo/db/profile_collection.cpp (createProfileCollection)",
			cmd: `{"profile":1}`, want: `{"was":{"$numberInt":"0"}}`,
			thenFind: `{"listCollections":1,"filter":{"name":"system.profile"},"nameOnly":false}`,
			thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"*","firstBatch":[{"name":"system.profile","type":"collection","options":{"capped":true,"size":{"$numberInt":"1048576"}},"info":"*"}]}}`},
		{name: "system.profile has no _id index", ref: "src/mongo/db/catalog/collection_impl.cpp (requiresIdIndex)",
			setup: []string{`{"profile":2}`}, cmd: `{"listIndexes":"system.profile"}`,
			want: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.system.profile","firstBatch":[]}}`},
		{name: "a filter may name only the entry's fields", ref: "src/mongo/db/curop.cpp (OpDebug::appendStaged, 4910200)",
			cmd:  `{"profile":1,"filter":{"$or":[{"millis":{"$gt":5}},{"nosuch.x":1}]}}`,
			code: 4910200, msg: "No such field (or fields) available for profile filter: nosuch"},
		{name: "a filter may name durationMillis", ref: "src/mongo/db/curop.cpp (OpDebug::appendStaged: millis and durationMillis)",
			cmd: `{"profile":0,"filter":{"durationMillis":{"$gte":0}}}`, want: `{"was":{"$numberInt":"0"}}`},
		{name: "system.profile cannot be dropped while profiling", ref: "src/mongo/db/catalog/drop_collection.cpp; jstests/core/profile_hide_index.js",
			setup: []string{`{"profile":1}`}, cmd: `{"drop":"system.profile"}`,
			code: mongoerr.IllegalOperation, msg: "turn off profiling before dropping system.profile collection"},
		{name: "system.profile can be dropped with the profiler off", ref: "src/mongo/db/catalog/drop_collection.cpp",
			setup: []string{`{"profile":2}`, `{"profile":0}`}, cmd: `{"drop":"system.profile"}`,
			want: `{"nIndexesWas":{"$numberInt":"0"},"ns":"{{db}}.system.profile"}`},
		{name: "an uncapped system.profile cannot be the profile", ref: "src/mongo/db/profile_collection.cpp (createProfileCollection)",
			setup: []string{`{"create":"system.profile"}`}, cmd: `{"profile":2}`,
			code: mongoerr.NamespaceExists, msg: "{{db}}.system.profile exists but isn't capped"},
		{name: "profile takes no writeConcern", ref: profileRef + " (supportsWriteConcern: false)", cmd: `{"profile":-1,"writeConcern":{"w":1}}`,
			code: mongoerr.InvalidOptions, msg: "Command does not support writeConcern"},
	})
}

// Commands mongod 8.0 has and the sandbox does not run are refused with
// NotImplemented, never CommandNotFound, which would tell a learner that
// MongoDB lacks them; the admin-only ones first fail elsewhere than on
// admin, as on mongod. Test-only commands stay CommandNotFound, as on a
// mongod without enableTestCommands.
func TestUnsupportedCommandsRefused(t *testing.T) {
	const ref = "src/mongo/db/commands/ (the commands a standalone mongod 8.0 registers); the manual's Database Commands reference"
	cases := []cmdCase{
		{name: "mapReduce", ref: ref, cmd: `{"mapReduce":"c","map":"function(){}","reduce":"function(){}","out":{"inline":1}}`, code: mongoerr.NotImplemented},
		{name: "mapreduce alias", ref: ref, cmd: `{"mapreduce":"c","map":"function(){}","reduce":"function(){}","out":{"inline":1}}`, code: mongoerr.NotImplemented},
		{name: "usersInfo", ref: ref, cmd: `{"usersInfo":1}`, code: mongoerr.NotImplemented},
		{name: "applyOps", ref: ref + "; jstests/core/collmod_without_uuid.js", cmd: `{"applyOps":[]}`, code: mongoerr.NotImplemented},
		{name: "availableQueryOptions", ref: ref, cmd: `{"availableQueryOptions":1}`, code: mongoerr.NotImplemented},
		{name: "startRecordingTraffic elsewhere", ref: ref + " (adminOnly)", cmd: `{"startRecordingTraffic":1,"filename":"f"}`,
			code: mongoerr.Unauthorized, msg: "startRecordingTraffic may only be run against the admin database."},
		{name: "a test-only command stays unknown", ref: "src/mongo/db/commands/test_commands.cpp (registered only with enableTestCommands)",
			cov: cover{family: commandFam, op: "godinsert", col: errorCol}, cmd: `{"godinsert":"c","obj":{}}`, code: mongoerr.CommandNotFound,
			msg: "no such command: 'godinsert'"},
	}
	runCmdCases(t, cases)
}
