package mongoerr

// Location codes of clustered collections, raised with uassert at one
// place each, named as in the other location files. Each comment cites
// the mongod source file (under src/mongo/db/ or as given).
const (
	// create (create_command.cpp, clustered_util::checkCreationOptions).
	ErrClusteredCappedSize    = 6049200
	ErrClusteredCappedMax     = 6049204
	ErrClusteredCappedTTL     = 6049201
	ErrClusteredCappedTesting = 6127800
	// createCollection (catalog/create_collection.cpp).
	ErrClusteredView        = 6026500
	ErrClusteredAutoIndexID = 6026501
	ErrClusteredLegacy      = 5979703
	ErrClusteredNotUnique   = 5979700
	ErrClusteredVersion     = 5979704
	// The record store's key (record_id_helpers.cpp).
	ErrRecordIDTooLarge = 5894900
	// Index commands on the cluster key (catalog/drop_indexes.cpp,
	// catalog/index_catalog_impl.cpp, catalog/coll_mod.cpp,
	// index/index_key_validate.cpp).
	ErrDropClusteredIndex       = 5979800
	ErrClusteredOptionMismatch  = 6243700
	ErrClusteredNameMismatch    = 6100906
	ErrClusteredVersionMismatch = 6100908
	ErrClusteredUniqueMismatch  = 6100909
	ErrClusteredFalse           = 6492800
	ErrHideClusteredIndex       = 6011800
	// createIndexes (commands/create_indexes_cmd.cpp).
	ErrClusteredImplicitCreate = 6100900
	// min and max on a clustered collection (query/planner_access.cpp,
	// handleRIDRangeMinMax).
	ErrClusteredMinMaxOrder    = 6137401
	ErrClusteredMinMaxBackward = 6137402
)
