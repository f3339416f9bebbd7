package value

// Document size limits of mongod (src/mongo/bson/util/builder.h).
const (
	// MaxUserDocSize is BSONObjMaxUserSize: the largest document a user
	// may store, and the byte budget of one reply batch.
	MaxUserDocSize = 16 * 1024 * 1024
	// MaxInternalDocSize is BSONObjMaxInternalSize: the largest document
	// mongod builds at all (a command, a reply document); above it BSONObj
	// fails with BSONObjectTooLarge.
	MaxInternalDocSize = MaxUserDocSize + 16*1024
)
