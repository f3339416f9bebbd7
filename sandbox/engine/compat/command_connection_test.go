package compat_test

import "testing"

// The commands a driver sends about its connection: hello and its legacy
// name isMaster, whatsmyuri, connectionStatus and endSessions, as a
// standalone mongod 8.0 without authentication answers them.
const (
	helloRef      = "src/mongo/db/repl/replication_info.cpp (CmdHello::runWithReplyBuilder); manual reference/command/hello"
	clientMetaRef = "src/mongo/rpc/metadata/client_metadata.cpp (ClientMetadata::setFromMetadata)"
	connStatusRef = "src/mongo/db/commands/connection_status.cpp, connection_status.idl"
	endSessRef    = "src/mongo/db/commands/end_sessions_command.cpp, sessions_commands.idl (endSessionsFromClient)"
	whatsMyURIRef = "src/mongo/db/commands/whats_my_uri_cmd.cpp"
	// A command whose supportsWriteConcern is false refuses a
	// writeConcern before it runs.
	noWCRef = "src/mongo/db/service_entry_point_shard_role.cpp (uassertCommandDoesNotSpecifyWriteConcern)"
)

// standaloneHello is what a standalone 8.0 reports after its role:
// mongod's limits (BSONObjMaxUserSize, MaxMessageSizeBytes,
// write_ops::kMaxWriteBatchSize), the session timeout, and the wire
// versions of 8.0 (wire_version.h: WIRE_VERSION_80 is 25).
const standaloneHello = `"topologyVersion": "*", "maxBsonObjectSize": 16777216,
	"maxMessageSizeBytes": 48000000, "maxWriteBatchSize": 100000, "localTime": "*",
	"logicalSessionTimeoutMinutes": 30, "connectionId": "*", "minWireVersion": 0, "maxWireVersion": 25,
	"readOnly": false, "ok": 1.0`

func TestConnectionCommands(t *testing.T) {
	tv := `{"processId": {"$oid": "000000000000000000000000"}, "counter": {"$numberLong": "0"}}`
	runCmdCases(t, []cmdCase{
		{name: "hello on a standalone", ref: helloRef, cmd: `{"hello": 1}`,
			want: `{"isWritablePrimary": true, ` + standaloneHello + `}`},
		{name: "hello with maxAwaitTimeMS but no topologyVersion", ref: helloRef,
			cmd: `{"hello": 1, "maxAwaitTimeMS": 10}`, code: 31368, msg: "A request with 'maxAwaitTimeMS' must include a 'topologyVersion'"},
		// The driver sent its metadata in the connection's first hello.
		{name: "hello with client metadata after the handshake", ref: clientMetaRef,
			cmd: `{"hello": 1, "client": {"application": {"name": "again"}}}`, code: 186,
			msg: "The client metadata document may only be sent in the first hello"},
		{name: "isMaster names the role ismaster", ref: helloRef, cmd: `{"isMaster": 1}`,
			want: `{"ismaster": true, ` + standaloneHello + `}`},
		{name: "isMaster with topologyVersion but no maxAwaitTimeMS", ref: helloRef,
			cmd: `{"isMaster": 1, "topologyVersion": ` + tv + `}`, code: 31368,
			msg: "A request with a 'topologyVersion' must include 'maxAwaitTimeMS'"},
		{name: "isMaster with client metadata after the handshake", ref: clientMetaRef,
			cmd: `{"isMaster": 1, "client": {"application": {"name": "again"}}}`, code: 186,
			msg: "The client metadata document may only be sent in the first hello"},
		{name: "whatsmyuri tells the client its address", ref: whatsMyURIRef, cmd: `{"whatsmyuri": 1}`,
			want: `{"you": "*", "ok": 1.0}`},
		{name: "whatsmyuri with a writeConcern", ref: whatsMyURIRef + " (supportsWriteConcern false); " + noWCRef,
			cmd: `{"whatsmyuri": 1, "writeConcern": {"w": 1}}`, code: 72, msg: "Command does not support writeConcern"},
		{name: "connectionStatus without authentication", ref: connStatusRef, cmd: `{"connectionStatus": 1}`,
			want: `{"authInfo": {"authenticatedUsers": [], "authenticatedUserRoles": []}, "ok": 1.0}`},
		{name: "connectionStatus with showPrivileges", ref: connStatusRef, cmd: `{"connectionStatus": 1, "showPrivileges": true}`,
			want: `{"authInfo": {"authenticatedUsers": [], "authenticatedUserRoles": [], "authenticatedUserPrivileges": []}}`},
		{name: "connectionStatus showPrivileges of a string", ref: connStatusRef + " (safeBool)",
			cmd: `{"connectionStatus": 1, "showPrivileges": "yes"}`, code: 14,
			msg: "BSON field 'connectionStatus.showPrivileges' is the wrong type 'string', expected types '[bool, long, int, decimal, double']"},
		{name: "connectionStatus with an unknown field", ref: connStatusRef + " (an IDL command is strict)",
			cmd: `{"connectionStatus": 1, "verbose": true}`, code: 40415, msg: "BSON field 'connectionStatus.verbose' is an unknown field."},
		{name: "endSessions of a session never used", ref: endSessRef,
			cmd: `{"endSessions": [{"id": {"$binary": {"base64": "AAAAAAAAQACAAAAAAAAAAA==", "subType": "04"}}}]}`, want: `{"ok": 1.0}`},
		{name: "endSessions of nothing", ref: endSessRef, cmd: `{"endSessions": []}`, want: `{"ok": 1.0}`},
		{name: "endSessions of a number", ref: endSessRef, cmd: `{"endSessions": 1}`, code: 14,
			msg: "BSON field 'endSessions.endSessions' is the wrong type 'int', expected type 'array'"},
		{name: "endSessions with a writeConcern", ref: endSessRef + " (supportsWriteConcern false); " + noWCRef,
			cmd: `{"endSessions": [], "writeConcern": {"w": 1}}`, code: 72, msg: "Command does not support writeConcern"},
		{name: "endSessions with an unknown field", ref: endSessRef + " (strict: true)", cmd: `{"endSessions": [], "all": true}`,
			code: 40415, msg: "BSON field 'endSessions.all' is an unknown field."},
	})
}
