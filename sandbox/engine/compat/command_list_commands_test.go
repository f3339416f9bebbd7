package compat_test

import (
	"sort"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// listCommands (src/mongo/db/commands/generic.cpp, ListCommandsCmd, mongod
// 8.0): {commands: {<name>: {help, requiresAuth, secondaryOk, adminOnly,
// [secondaryOverrideOk], apiVersions, deprecatedApiVersions}}} with one
// entry per command under Command::getName, sorted by name. The values of
// each entry are the command's help(), requiresAuth(), secondaryAllowed()
// (kAlways is secondaryOk, kOptIn adds secondaryOverrideOk), adminOnly()
// and apiVersions() (kApiVersions1 for the commands whose IDL declares
// api_version "1").
func TestListCommands(t *testing.T) {
	semanticsOf := cover{family: commandFam, op: "listCommands", col: semantics}
	const listCommandsRef = "src/mongo/db/commands/generic.cpp (ListCommandsCmd::_run)"
	s := newSuite(t)

	s.runCase(t, "one entry per command, sorted by name", listCommandsRef+"; jstests/core/diagnostics/list_commands.js",
		semanticsOf, func(t *testing.T, db *mongo.Database) {
			out := mustCommand(t, db, `{"listCommands":1}`)
			cmds, ok := field(out, "commands").(bson.D)
			if !ok {
				t.Fatalf("commands is %T: %s", field(out, "commands"), relaxed(out))
			}
			names := make([]string, len(cmds))
			listed := map[string]bool{}
			for i, c := range cmds {
				names[i] = c.Key
				listed[c.Key] = true
			}
			if !sort.StringsAreSorted(names) {
				t.Errorf("commands are not sorted: %v", names)
			}
			for _, want := range []string{"hello", "isMaster", "insert", "ping", "listCommands", "find", "aggregate"} {
				if !listed[want] {
					t.Errorf("no %s in %v", want, names)
				}
			}
			// Aliases (Command::getName is the command's own name).
			for _, alias := range []string{"ismaster", "findandmodify", "deleteIndexes", "datasize", "buildinfo", "mapreduce"} {
				if listed[alias] {
					t.Errorf("alias %s listed", alias)
				}
			}
		})

	entries := []struct {
		name, ref, cmd, want string
	}{
		{"hello", "src/mongo/db/repl/replication_info.cpp (CmdHello); jstests/core/diagnostics/list_commands.js", "hello",
			`{"help":"Check if this server is primary for a replica set\n{ hello : 1 }","requiresAuth":false,` +
				`"secondaryOk":true,"adminOnly":false,"apiVersions":["1"],"deprecatedApiVersions":[]}`},
		{"isMaster is listed apart from hello, outside API Version 1", "src/mongo/db/repl/replication_info.cpp (CmdIsMaster)", "isMaster",
			`{"help":"Check if this server is primary for a replica set\n{ isMaster : 1 }","requiresAuth":false,` +
				`"secondaryOk":true,"adminOnly":false,"apiVersions":[],"deprecatedApiVersions":[]}`},
		{"find may be forced onto a secondary", "src/mongo/db/commands/query_cmd/find_cmd.cpp (kOptIn)", "find",
			`{"help":"query for documents","requiresAuth":true,"secondaryOk":false,"adminOnly":false,` +
				`"secondaryOverrideOk":true,"apiVersions":["1"],"deprecatedApiVersions":[]}`},
		{"insert requires authentication", "src/mongo/db/commands/write_commands.cpp (CmdInsert); jstests/core/diagnostics/list_commands.js", "insert",
			`{"help":"insert documents","requiresAuth":true,"secondaryOk":false,"adminOnly":false,` +
				`"apiVersions":["1"],"deprecatedApiVersions":[]}`},
		{"listCommands itself", listCommandsRef, "listCommands",
			`{"help":"get a list of all db commands","requiresAuth":false,"secondaryOk":true,"adminOnly":false,` +
				`"apiVersions":[],"deprecatedApiVersions":[]}`},
		{"serverStatus is in no API version", "src/mongo/db/commands/server_status.cpp (CmdServerStatus)", "serverStatus",
			`{"help":"returns lots of administrative server statistics. Optionally set {..., all: 1} to retrieve all server status sections.",` +
				`"requiresAuth":true,"secondaryOk":true,"adminOnly":false,"apiVersions":[],"deprecatedApiVersions":[]}`},
		{"an admin-only command", "src/mongo/db/commands/txn_cmds.cpp (CmdCommitTxn)", "commitTransaction",
			`{"help":"Commits a transaction","requiresAuth":true,"secondaryOk":false,"adminOnly":true,` +
				`"apiVersions":["1"],"deprecatedApiVersions":[]}`},
		{"a command with Command::help's default", "src/mongo/db/commands/create_indexes_cmd.cpp (CmdCreateIndexes); src/mongo/db/commands.h (Command::help)",
			"createIndexes",
			`{"help":"no help defined","requiresAuth":true,"secondaryOk":false,"adminOnly":false,` +
				`"apiVersions":["1"],"deprecatedApiVersions":[]}`},
		{"a command the sandbox refuses is listed as mongod lists it", "src/mongo/db/auth/sasl_commands.cpp (CmdSaslStart), sasl_commands.idl (api_version \"1\")",
			"saslStart",
			`{"help":"First step in a SASL authentication conversation.","requiresAuth":false,"secondaryOk":true,` +
				`"adminOnly":false,"apiVersions":["1"],"deprecatedApiVersions":[]}`},
		{"the replSet commands are admin-only", "src/mongo/db/repl/repl_set_get_status_cmd.cpp (ReplSetCommand)", "replSetGetStatus",
			`{"help":"Report status of a replica set from the POV of this server\n{ replSetGetStatus : 1 }\nhttp://dochub.mongodb.org/core/replicasetcommands",` +
				`"requiresAuth":true,"secondaryOk":true,"adminOnly":true,"apiVersions":[],"deprecatedApiVersions":[]}`},
		{"listDatabases is admin-only and may be forced onto a secondary", "src/mongo/db/commands/list_databases.cpp (CmdListDatabases)", "listDatabases",
			`{"help":"{ listDatabases:1, [filter: <filterObject>] [, nameOnly: true ] }\nlist databases on this server",` +
				`"requiresAuth":true,"secondaryOk":false,"adminOnly":true,"secondaryOverrideOk":true,"apiVersions":["1"],"deprecatedApiVersions":[]}`},
	}
	for _, tc := range entries {
		s.runCase(t, tc.name, tc.ref, semanticsOf, func(t *testing.T, db *mongo.Database) {
			out := mustCommand(t, db, `{"listCommands":1}`)
			cmds, _ := field(out, "commands").(bson.D)
			sameValue(t, tc.cmd, field(cmds, tc.cmd), tc.want)
		})
	}

	// getParameter's help lists the server parameters between its
	// examples and its last line (parameters.cpp, appendParameterNames).
	s.runCase(t, "getParameter's help names the parameters", "src/mongo/db/commands/parameters.cpp (CmdGet::help)",
		semanticsOf, func(t *testing.T, db *mongo.Database) {
			out := mustCommand(t, db, `{"listCommands":1}`)
			cmds, _ := field(out, "commands").(bson.D)
			entry, _ := field(cmds, "getParameter").(bson.D)
			help, _ := field(entry, "help").(string)
			for _, part := range []string{"get administrative option(s)\nexample:\n{ getParameter:1, notablescan:1 }\n",
				"\nsupported:\n", "\n  featureCompatibilityVersion\n",
				"{ getParameter:'*' } or { getParameter:{allParameters: true} } to get everything\n"} {
				if !strings.Contains(help, part) {
					t.Errorf("help has no %q:\n%s", part, help)
				}
			}
		})

	runCmdCases(t, []cmdCase{
		{name: "listCommands runs on admin too", ref: listCommandsRef + " (adminOnly false)", admin: true,
			cmd: `{"listCommands":1}`, want: `{"commands":"*"}`},
		{name: "listCommands takes apiVersion 1", ref: "jstests/core/query/api/api_version_parameters.js",
			cmd: `{"listCommands":1,"apiVersion":"1"}`, want: `{"commands":"*"}`},
		{name: "listCommands takes apiDeprecationErrors", ref: "jstests/core/query/api/api_version_parameters.js",
			cmd: `{"listCommands":1,"apiVersion":"1","apiDeprecationErrors":true}`, want: `{"commands":"*"}`},
		{name: "listCommands is not in API Version 1", ref: "jstests/core/query/api/api_version_parameters.js",
			cmd: `{"listCommands":1,"apiVersion":"1","apiStrict":true}`, code: mongoerr.APIStrictError,
			msg: "Provided apiStrict:true, but the command listCommands is not in API Version 1. Information on supported commands and migrations in API Version 1 can be found at https://dochub.mongodb.org/core/manual-versioned-api"},
		{name: "listCommands takes no writeConcern", ref: listCommandsRef + " (supportsWriteConcern: false)",
			cmd: `{"listCommands":1,"writeConcern":{"w":1}}`, code: mongoerr.InvalidOptions, msg: "Command does not support writeConcern"},
	})
}
