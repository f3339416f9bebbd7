package mongoerr

// Location codes of index key generation and of hashed indexes, raised
// with uassert at one place each, named as in the other location files.
// Each comment cites the mongod source file (under src/mongo/db/index/).
const (
	ErrAmbiguousArrayFieldName = 16746 // btree_key_generator.cpp
	ErrHashedUnique            = 16764 // hash_access_method.cpp
	ErrHashedArray             = 16766 // expression_keys_private.cpp
	ErrHashedFieldCount        = 31303 // expression_params.cpp
	// Ordering::verifyCardinality (src/mongo/bson/ordering.h).
	ErrTooManyCompoundKeys = 13103
	// WiredTigerUtil::checkTableCreationOptions
	// (src/mongo/db/storage/wiredtiger/wiredtiger_util.cpp).
	ErrConfigTypeLSM = 6627201
)
