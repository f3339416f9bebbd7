// Package vocab holds the names and limits that the client side (shell,
// lessons, the guard) and the embedded server must agree on. It is a leaf,
// so that the real-MongoDB path can use them without linking the engine.
package vocab

// SnapshotCommand is the embedded server's own command for saving and
// restoring a database's state. mongod has no such command and answers
// CommandNotFound, which is how the lessons runner knows to replay steps
// instead; the name carries the product's prefix so that it can never
// collide with one of mongod's.
const SnapshotCommand = "schemalabSnapshot"

// DefaultPrefix is put before a lesson's id to name its database.
const DefaultPrefix = "schemalab_"

// MarkerCollection is the collection schemalab writes into every database
// it creates, so that a reset drops only databases it made itself.
const MarkerCollection = "_schemalab"

// MaxMessageSize is mongod's MaxMessageSizeBytes (src/mongo/rpc/message.h),
// hello's maxMessageSizeBytes: no wire message may be longer.
const MaxMessageSize = 48_000_000

// InPrefix reports whether database name is <prefix>something: the rule
// that confines a sandbox, a classroom student's connection on the server
// and a storage quota alike. The server's own databases never are, even
// under a prefix such as "ad" or "loc".
func InPrefix(name, prefix string) bool {
	switch name {
	case "admin", "local", "config":
		return false
	}
	return len(name) > len(prefix) && name[:len(prefix)] == prefix
}

// SnapshotFileFormat is the version of the snapshot files the embedded
// server's schemalabSnapshot "persist" writes. It changes whenever what a
// file holds, or what the engine makes of it, changes: a file of another
// version is refused, never read, and the lesson template cache keys its
// files by it.
const SnapshotFileFormat = 1
