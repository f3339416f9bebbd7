package engine

// commandTable maps command names to handlers. Names are case-sensitive as
// in mongod; the few historical aliases mongod accepts are listed too.
func commandTable() map[string]handler {
	return map[string]handler{
		"insert":           cmdInsert,
		"find":             cmdFind,
		"getMore":          cmdGetMore,
		"killCursors":      cmdKillCursors,
		"count":            cmdCount,
		"distinct":         cmdDistinct,
		"update":           cmdUpdate,
		"delete":           cmdDelete,
		"findAndModify":    cmdFindAndModify,
		"findandmodify":    cmdFindAndModify,
		"create":           cmdCreate,
		"drop":             cmdDrop,
		"dropDatabase":     cmdDropDatabase,
		"listDatabases":    cmdListDatabases,
		"listCollections":  cmdListCollections,
		"renameCollection": cmdRenameCollection,
		"createIndexes":    cmdCreateIndexes,
		"listIndexes":      cmdListIndexes,
		"dropIndexes":      cmdDropIndexes,
		"deleteIndexes":    cmdDropIndexes,
		"collStats":        cmdCollStats,
		"dbStats":          cmdDBStats,
		"aggregate":        cmdAggregate,
		"explain":          cmdExplain,
		"validate":         cmdValidate,
		"collMod":          cmdCollMod,
	}
}
