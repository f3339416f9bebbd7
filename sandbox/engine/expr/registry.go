package expr

import (
	"math"
	"math/rand/v2"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// operators maps each expression operator to its compiler. It is filled
// once in init (a composite literal would be an initialization cycle,
// since compilers call Compile) and only read afterwards.
var operators map[string]compiler

func init() {
	operators = map[string]compiler{
		// literals and variables
		"$literal": compileLiteral,
		"$const":   compileLiteral,
		"$let":     compileLet,
		"$expr":    compileExprOperator,

		// arithmetic
		"$add":      compileAdd,
		"$subtract": compileSubtract,
		"$multiply": compileMultiply,
		"$divide":   compileBinary(Divide),
		"$mod":      compileBinary(Mod),
		"$abs":      compileUnaryNumeric(absOf),
		"$ceil":     compileUnaryNumeric(ceilFloor(roundUp, math.Ceil)),
		"$floor":    compileUnaryNumeric(ceilFloor(roundDown, math.Floor)),
		"$sqrt":     compileUnaryNumeric(sqrtOf),
		"$exp":      compileUnaryNumeric(expOf),
		"$ln":       compileUnaryNumeric(logFn(mongoerr.ErrLnArgumentNotPositive, crLog, decimalLn)),
		"$log10":    compileUnaryNumeric(logFn(mongoerr.ErrLog10ArgumentNotPositive, glibcLog10, decimalLog10)),
		"$log":      compileLog,
		"$pow":      compileBinary(Pow),
		"$round":    compileRound(roundHalfEven),
		"$trunc":    compileRound(roundTowardZero),

		// trigonometry
		"$degreesToRadians": angleConversion(decPiOver180, math.Pi/180),
		"$radiansToDegrees": angleConversion(dec180OverPi, 180/math.Pi),
		"$atan2":            compileBinary(atan2),

		// comparison
		"$eq":  compileCompare,
		"$ne":  compileCompare,
		"$gt":  compileCompare,
		"$gte": compileCompare,
		"$lt":  compileCompare,
		"$lte": compileCompare,
		"$cmp": compileCompare,

		// boolean
		"$and": compileAndOr,
		"$or":  compileAndOr,
		"$not": compileNot,

		// conditional
		"$cond":   compileCond,
		"$ifNull": compileIfNull,
		"$switch": compileSwitch,

		// array
		"$size":            unary(sizeOf),
		"$arrayElemAt":     compileArrayElemAt,
		"$first":           unary(firstLast),
		"$last":            unary(firstLast),
		"$filter":          compileMapFilter,
		"$map":             compileMapFilter,
		"$reduce":          compileReduce,
		"$slice":           compileSlice,
		"$concatArrays":    compileConcatArrays,
		"$in":              compileBinary(inArray),
		"$isArray":         unary(isArrayOf),
		"$range":           compileRange,
		"$reverseArray":    unary(reverseArray),
		"$sortArray":       compileSortArray,
		"$indexOfArray":    compileIndexOfArray,
		"$zip":             compileZip,
		"$anyElementTrue":  unary(elementsTrue),
		"$allElementsTrue": unary(elementsTrue),
		"$firstN":          compileNArray,
		"$lastN":           compileNArray,
		"$maxN":            compileNArray,
		"$minN":            compileNArray,
		"$sum":             compileArrayAccumulator,
		"$percentile":      compileQuantile,
		"$median":          compileQuantile,
		"$avg":             compileArrayAccumulator,
		"$min":             compileArrayAccumulator,
		"$max":             compileArrayAccumulator,
		"$stdDevPop":       compileArrayAccumulator,
		"$stdDevSamp":      compileArrayAccumulator,

		// sets
		"$setUnion":        compileSetOp,
		"$setIntersection": compileSetOp,
		"$setEquals":       compileSetOp,
		"$setDifference":   compileSetOp,
		"$setIsSubset":     compileSetOp,

		// strings
		"$concat":       compileConcat,
		"$substr":       compileSubstrBytes,
		"$substrBytes":  compileSubstrBytes,
		"$substrCP":     compileSubstrCP,
		"$toUpper":      unary(caseChange),
		"$toLower":      unary(caseChange),
		"$split":        compileBinary(split),
		"$strLenCP":     unary(strLen),
		"$strLenBytes":  unary(strLen),
		"$trim":         compileTrim,
		"$ltrim":        compileTrim,
		"$rtrim":        compileTrim,
		"$regexMatch":   compileRegex,
		"$regexFind":    compileRegex,
		"$regexFindAll": compileRegex,
		"$indexOfCP":    compileIndexOfStr,
		"$indexOfBytes": compileIndexOfStr,
		"$replaceOne":   compileReplace,
		"$replaceAll":   compileReplace,
		"$strcasecmp":   compileBinary(strcasecmp),

		// dates
		"$year":           compileDatePart,
		"$month":          compileDatePart,
		"$dayOfMonth":     compileDatePart,
		"$dayOfWeek":      compileDatePart,
		"$dayOfYear":      compileDatePart,
		"$hour":           compileDatePart,
		"$minute":         compileDatePart,
		"$second":         compileDatePart,
		"$millisecond":    compileDatePart,
		"$week":           compileDatePart,
		"$isoWeek":        compileDatePart,
		"$isoWeekYear":    compileDatePart,
		"$isoDayOfWeek":   compileDatePart,
		"$dateToString":   compileDateToString,
		"$dateFromString": compileDateFromString,
		"$dateToParts":    compileDateToParts,
		"$dateFromParts":  compileDateFromParts,
		"$dateTrunc":      compileDateTrunc,
		"$dateAdd":        compileDateAdd,
		"$dateSubtract":   compileDateAdd,
		"$dateDiff":       compileDateDiff,
		"$toDate":         compileTo("date"),

		// types
		"$type":       unary(typeOf),
		"$isNumber":   unary(isNumberOf),
		"$convert":    compileConvert,
		"$toString":   compileTo("string"),
		"$toInt":      compileTo("int"),
		"$toLong":     compileTo("long"),
		"$toDouble":   compileTo("double"),
		"$toDecimal":  compileTo("decimal"),
		"$toBool":     compileTo("bool"),
		"$toObjectId": compileTo("objectId"),
		"$toUUID":     compileTo("binData"),

		// objects
		"$mergeObjects":  compileMergeObjects,
		"$getField":      compileGetField,
		"$setField":      compileSetField,
		"$unsetField":    compileSetField,
		"$objectToArray": unary(objectToArray),
		"$arrayToObject": unary(arrayToObject),

		// sizes
		"$bsonSize":   unary(bsonSize),
		"$binarySize": unary(binarySize),

		// timestamps, bits, misc
		"$tsSecond":         unary(tsPart),
		"$tsIncrement":      unary(tsPart),
		"$bitAnd":           compileBitOp,
		"$bitOr":            compileBitOp,
		"$bitXor":           compileBitOp,
		"$bitNot":           compileUnaryNumeric(bitNot),
		"$rand":             compileRand,
		"$toHashedIndexKey": compileToHashedIndexKey,
		"$meta":             compileMeta,
		"$function":         compileFunction,
		"$_internalJsEmit":  compileInternalJsEmit,

		// sharding helpers (internal.go)
		"$_internalOwningShard": unary(owningShard),
		"$_internalIndexKey":    compileInternalIndexKey,
	}
	for name, op := range trigOperators() {
		operators[name] = compileTrig(op)
	}
}

func tsPart(name string, v any) (any, error) {
	if nullish(v) {
		return nil, nil
	}
	ts, ok := v.(bson.Timestamp)
	if !ok {
		code := int32(mongoerr.ErrTsSecondNotTimestamp)
		if name == "$tsIncrement" {
			code = mongoerr.ErrTsIncrementNotTimestamp
		}
		return nil, mongoerr.Newf(code, " Argument to %s must be a timestamp, but is %s", name, typeName(v))
	}
	if name == "$tsSecond" {
		return int64(ts.T), nil
	}
	return int64(ts.I), nil
}

func compileBitOp(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileArgs(arg, scope)
	if err != nil {
		return nil, err
	}
	if args, err = foldAssociative(scope, args, true, func(args []Expr) Expr { return bitOp(name, args) }); err != nil {
		return nil, err
	}
	return bitOp(name, args), nil
}

func bitOp(name string, args []Expr) Expr {
	return evalFunc(func(env *Env) (any, error) {
		var acc int64
		switch name {
		case "$bitAnd":
			acc = -1
		}
		long := false
		for _, a := range args {
			v, err := a.Eval(env)
			if err != nil {
				return nil, err
			}
			if nullish(v) {
				return nil, nil
			}
			var n int64
			switch x := v.(type) {
			case int32:
				n = int64(x)
			case int64:
				n, long = x, true
			default:
				return nil, mongoerr.Newf(mongoerr.TypeMismatch, "%s only supports int and long operands.", name)
			}
			switch name {
			case "$bitAnd":
				acc &= n
			case "$bitOr":
				acc |= n
			case "$bitXor":
				acc ^= n
			}
		}
		if long {
			return acc, nil
		}
		return int32(acc), nil
	})
}

// bitNot is ExpressionBitNot, a single numeric argument operator that
// takes only ints and longs.
func bitNot(name string, v any) (any, error) {
	switch x := v.(type) {
	case int32:
		return ^x, nil
	case int64:
		return ^x, nil
	}
	return nil, mongoerr.Newf(mongoerr.TypeMismatch, "$bitNot only supports int and long, not: %s.", typeName(v))
}

func compileRand(name string, arg any, scope *Scope) (Expr, error) {
	// ExpressionRandom::parse reads its argument with BSONElement::Obj(),
	// which takes an array as well as an object (isABSONObj).
	n := -1
	switch x := arg.(type) {
	case bson.D:
		n = len(x)
	case bson.A:
		n = len(x)
	}
	if n < 0 {
		return nil, mongoerr.New(mongoerr.ErrRandArgumentNotObject, "invalid parameter: expected an object ($rand)")
	}
	if n != 0 {
		return nil, mongoerr.New(mongoerr.ErrRandWithArguments, "$rand does not currently accept arguments")
	}
	return evalFunc(func(*Env) (any, error) { return rand.Float64(), nil }), nil
}

func compileMeta(name string, arg any, scope *Scope) (Expr, error) {
	s, ok := arg.(string)
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrMetaArgumentNotString, "$meta only supports string arguments")
	}
	switch s {
	case "textScore", "randVal", "searchScore", "searchHighlights", "geoNearDistance", "geoNearPoint",
		"recordId", "indexKey", "sortKey", "searchScoreDetails", "searchSequenceToken", "score", "scoreDetails":
	default:
		return nil, mongoerr.Newf(mongoerr.ErrMetaUnknownName, "Unsupported argument to $meta: %s", s)
	}
	if s == "recordId" && scope != nil && scope.recordIDs {
		// A find's projection or a pipeline's stage: the record the plan
		// read, as a long (RecordId::serializeToken of a long record id),
		// missing when the document carries none.
		return evalFunc(func(env *Env) (any, error) {
			if env.recordID == 0 {
				return value.Missing{}, nil
			}
			return env.recordID, nil
		}), nil
	}
	if s == "sortKey" && scope != nil && scope.sortKeys {
		// ExpressionMeta::evaluate: the key as
		// DocumentMetadataFields::serializeSortKeyAsArray writes it, one
		// part per sort field (missing parts already null).
		return evalFunc(func(env *Env) (any, error) {
			if env.sortKey == nil {
				return value.Missing{}, nil
			}
			return env.sortKey, nil
		}), nil
	}
	switch s {
	case "recordId", "sortKey":
		// Where the metadata may reach the expression but the sandbox
		// does not hand it on (see aggregate's parseStage), or outside a
		// find or a pipeline, an absent field would be a wrong answer.
		return nil, mongoerr.Newf(mongoerr.NotImplemented,
			"{$meta: %q} is not supported by the schemalab sandbox here; run this step against a real MongoDB with --uri", s)
	}
	if s == "indexKey" {
		// Present when an index scan produced the document and the plan
		// was asked for the key (see Env.SetIndexKey).
		return evalFunc(func(env *Env) (any, error) {
			if env.indexKey == nil {
				return value.Missing{}, nil
			}
			return env.indexKey, nil
		}), nil
	}
	// The sandbox has no text or search scores; metadata is absent.
	return constant{value.Missing{}}, nil
}
