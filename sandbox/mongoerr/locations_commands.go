package mongoerr

// Location codes of the database commands, raised with uassert at one
// place each, named as in the other location files. Each comment cites the
// mongod source file (under src/mongo/db/commands/).
const (
	ErrDropDatabaseParameter = 5255100 // dbcommands.cpp
	// distinct's size limit (distinct.cpp).
	ErrDistinctTooBig      = 17217
	ErrDistinctReplyTooBig = 31299
	// assertNotStandaloneOrShardServer (rwc_defaults_commands.cpp).
	ErrRWConcernDefaultsStandalone = 51300
	// autoIndexId: false on a namespace that can be replicated
	// (src/mongo/db/catalog/database_impl.cpp createCollection).
	ErrAutoIndexIDReplicated = 50001
)
