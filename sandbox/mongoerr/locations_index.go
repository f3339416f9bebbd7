package mongoerr

// Location codes of index key generation, named as in the other location
// files. Each comment cites the mongod source file (under
// src/mongo/db/index/).
const (
	ErrAmbiguousArrayFieldName = 16746 // btree_key_generator.cpp
)
