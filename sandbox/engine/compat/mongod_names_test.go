package compat_test

// The names mongod 8.0 registers, family by family. TestCoverageRows sends
// every one of them to the embedded server; each one the sandbox accepts
// becomes a row of COVERAGE.md, with zeros where no case covers it yet.
// Names only a test build, an internal client or a shard registers
// ($_internal…, $mergeCursors, _configsvr…) are left out: a learner cannot
// reach them on a mongod.

// mongodExpressions: REGISTER_EXPRESSION / REGISTER_STABLE_EXPRESSION in
// src/mongo/db/pipeline/expression.cpp, expression_function.cpp,
// expression_js_emit.cpp, expression_trigonometric.cpp,
// expression_test_api_version.cpp and expression_find_internal.cpp
// (mongod 8.0; $toUUID: manual reference/operator/aggregation/toUUID,
// "New in version 8.0").
var mongodExpressions = []string{
	"$abs", "$acos", "$acosh", "$add", "$allElementsTrue", "$and", "$anyElementTrue",
	"$arrayElemAt", "$arrayToObject", "$asin", "$asinh", "$atan", "$atan2", "$atanh", "$avg",
	"$binarySize", "$bitAnd", "$bitNot", "$bitOr", "$bitXor", "$bsonSize", "$ceil", "$cmp",
	"$concat", "$concatArrays", "$cond", "$const", "$convert", "$cos", "$cosh", "$dateAdd",
	"$dateDiff", "$dateFromParts", "$dateFromString", "$dateSubtract", "$dateToParts",
	"$dateToString", "$dateTrunc", "$dayOfMonth", "$dayOfWeek", "$dayOfYear",
	"$degreesToRadians", "$divide", "$eq", "$exp", "$filter", "$first", "$firstN", "$floor",
	"$function", "$getField", "$gt", "$gte", "$hour", "$ifNull", "$in", "$indexOfArray",
	"$indexOfBytes", "$indexOfCP", "$isArray", "$isNumber", "$isoDayOfWeek", "$isoWeek",
	"$isoWeekYear", "$last", "$lastN", "$let", "$literal", "$ln", "$log", "$log10", "$lt",
	"$lte", "$ltrim", "$map", "$max", "$maxN", "$median", "$mergeObjects", "$meta",
	"$millisecond", "$min", "$minN", "$minute", "$mod", "$month", "$multiply", "$ne", "$not",
	"$objectToArray", "$or", "$percentile", "$pow", "$radiansToDegrees", "$rand", "$range",
	"$reduce", "$regexFind", "$regexFindAll", "$regexMatch", "$replaceAll", "$replaceOne",
	"$reverseArray", "$round", "$rtrim", "$second", "$setDifference", "$setEquals",
	"$setField", "$setIntersection", "$setIsSubset", "$setUnion", "$sin", "$sinh", "$size",
	"$slice", "$sortArray", "$split", "$sqrt", "$stdDevPop", "$stdDevSamp", "$strLenBytes",
	"$strLenCP", "$strcasecmp", "$substr", "$substrBytes", "$substrCP", "$subtract", "$sum",
	"$switch", "$tan", "$tanh", "$toBool", "$toDate", "$toDecimal", "$toDouble",
	"$toHashedIndexKey", "$toInt", "$toLong", "$toLower", "$toObjectId", "$toString",
	"$toUUID", "$toUpper", "$trim", "$trunc", "$tsIncrement", "$tsSecond", "$type", "$unsetField",
	"$week", "$year", "$zip",
}

// mongodStages: REGISTER_DOCUMENT_SOURCE and its variants in
// src/mongo/db/pipeline/document_source_*.cpp (mongod 8.0), without the
// internal and test-only ones.
var mongodStages = []string{
	"$addFields", "$bucket", "$bucketAuto", "$changeStream", "$changeStreamSplitLargeEvent",
	"$collStats", "$count", "$currentOp", "$densify", "$documents", "$facet", "$fill",
	"$geoNear", "$graphLookup", "$group", "$indexStats", "$limit", "$listCatalog",
	"$listClusterCatalog", "$listLocalSessions", "$listSampledQueries", "$listSearchIndexes",
	"$listSessions", "$lookup", "$match", "$merge", "$out", "$planCacheStats", "$project",
	"$querySettings", "$queryStats", "$redact", "$replaceRoot", "$replaceWith", "$sample",
	"$search", "$searchMeta", "$set", "$setWindowFields", "$shardedDataDistribution", "$skip",
	"$sort", "$sortByCount", "$unionWith", "$unset", "$unwind", "$vectorSearch",
}

// mongodAccumulators: REGISTER_ACCUMULATOR in
// src/mongo/db/pipeline/accumulator_*.cpp (mongod 8.0).
var mongodAccumulators = []string{
	"$accumulator", "$addToSet", "$avg", "$bottom", "$bottomN", "$count", "$first", "$firstN",
	"$last", "$lastN", "$max", "$maxN", "$median", "$mergeObjects", "$min", "$minN",
	"$percentile", "$push", "$stdDevPop", "$stdDevSamp", "$sum", "$top", "$topN",
}

// mongodWindowFunctions: REGISTER_STABLE_WINDOW_FUNCTION and
// REGISTER_WINDOW_FUNCTION in src/mongo/db/pipeline/window_function/
// window_function_expression.cpp (mongod 8.0): the accumulators allowed in
// a window and the window-only functions.
var mongodWindowFunctions = []string{
	"$addToSet", "$avg", "$bottom", "$bottomN", "$count", "$covariancePop", "$covarianceSamp",
	"$denseRank", "$derivative", "$documentNumber", "$expMovingAvg", "$first", "$firstN",
	"$integral", "$last", "$lastN", "$linearFill", "$locf", "$max", "$maxN", "$median", "$min",
	"$minN", "$percentile", "$push", "$rank", "$shift", "$stdDevPop", "$stdDevSamp", "$sum",
	"$top", "$topN",
}

// mongodTopLevelQueryOperators and mongodQueryOperators: the
// MatchExpressionParser's tables in
// src/mongo/db/matcher/expression_parser.cpp (mongod 8.0).
var mongodTopLevelQueryOperators = []string{
	"$and", "$or", "$nor", "$expr", "$where", "$text", "$comment", "$jsonSchema",
	"$alwaysFalse", "$alwaysTrue", "$sampleRate",
}

var mongodQueryOperators = []string{
	"$all", "$bitsAllClear", "$bitsAllSet", "$bitsAnyClear", "$bitsAnySet", "$elemMatch",
	"$eq", "$exists", "$geoIntersects", "$geoWithin", "$gt", "$gte", "$in", "$lt", "$lte",
	"$mod", "$ne", "$near", "$nearSphere", "$nin", "$not", "$regex", "$size", "$type",
}

// mongodProjectionOperators: the find projection operators of
// src/mongo/db/query/projection_parser.cpp (mongod 8.0).
var mongodProjectionOperators = []string{"$elemMatch", "$slice", "$meta"}

// mongodUpdateOperators: src/mongo/db/update/modifier_table.cpp
// (mongod 8.0).
var mongodUpdateOperators = []string{
	"$addToSet", "$bit", "$currentDate", "$inc", "$max", "$min", "$mul", "$pop", "$pull",
	"$pullAll", "$push", "$rename", "$set", "$setOnInsert", "$unset",
}

// mongodCommands: the names the commands of src/mongo/db/commands/ and
// src/mongo/db/s/ register on a mongod 8.0 (Command::getName), the public
// ones listed in the manual's "Database Commands" (shutdown left out: the
// probe would stop the server).
var mongodCommands = []string{
	"abortTransaction", "aggregate", "analyze", "analyzeShardKey", "appendOplogNote",
	"applyOps", "authenticate", "autoCompact", "buildInfo", "bulkWrite", "checkMetadataConsistency",
	"cleanupOrphaned", "cloneCollectionAsCapped", "collMod", "collStats", "commitTransaction",
	"compact", "compactStructuredEncryptionData", "configureCollectionBalancing",
	"configureQueryAnalyzer", "connPoolStats", "connectionStatus", "convertToCapped", "count",
	"create", "createIndexes", "createRole", "createSearchIndexes", "createUser", "currentOp",
	"dataSize", "dbHash", "dbStats", "delete", "distinct", "drop", "dropAllRolesFromDatabase",
	"dropAllUsersFromDatabase", "dropConnections", "dropDatabase", "dropIndexes", "dropRole",
	"dropSearchIndex", "dropUser", "endSessions", "explain", "features", "filemd5", "find",
	"findAndModify", "fsync", "fsyncUnlock", "getAuditConfig", "getClusterParameter",
	"getCmdLineOpts", "getDefaultRWConcern", "getLog", "getMore", "getParameter",
	"grantPrivilegesToRole", "grantRolesToRole", "grantRolesToUser", "hello", "hostInfo",
	"insert", "isMaster", "killAllSessions", "killAllSessionsByPattern", "killCursors",
	"killOp", "killSessions", "listCollections", "listCommands", "listDatabases",
	"listIndexes", "listSearchIndexes", "lockInfo", "logApplicationMessage", "logRotate",
	"logout", "mapReduce", "ping", "planCacheClear", "planCacheClearFilters",
	"planCacheListFilters", "planCacheSetFilter", "profile", "reIndex", "refreshSessions",
	"renameCollection", "replSetGetConfig", "replSetGetStatus", "revokePrivilegesFromRole",
	"revokeRolesFromRole", "revokeRolesFromUser", "rolesInfo", "rotateCertificates",
	"serverStatus", "setClusterParameter", "setDefaultRWConcern", "setFeatureCompatibilityVersion",
	"setIndexCommitQuorum", "setParameter", "setQuerySettings", "removeQuerySettings",
	"startSession", "top", "update", "updateRole", "updateSearchIndex",
	"updateUser", "usersInfo", "validate", "validateDBMetadata", "whatsmyuri",
}
