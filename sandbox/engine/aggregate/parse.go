package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"
	"math"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/stages"
)

// parser carries what stage parsers need: the command context and the
// variables in scope (command-level let, $lookup let).
type parser struct {
	ctx     *Context
	scope   *expr.Scope
	letVals bson.D // evaluated command-level let, for $match's $expr
	// within is the stage whose sub-pipeline is being parsed: "$facet",
	// "$lookup", "$unionWith", or "" for a top-level pipeline.
	within string
	// depth counts the $lookup and $unionWith sub-pipelines around the
	// stages being parsed (ExpressionContext's subPipelineDepth); a
	// $facet's pipelines share their stage's context and depth.
	depth int
	// fromCollection: the pipeline's first stage reads a collection (an
	// aggregate's, a $lookup's or a $unionWith's), whose documents carry
	// no sort key; a $facet's or an update's pipeline is fed otherwise.
	fromCollection bool
	// collectionless: an aggregate on no collection ({aggregate: 1}),
	// whose first stage must read none.
	collectionless bool
	// metaIn is, for a $facet's sub-pipelines, the metadata state of the
	// $facet's input (parser.input); stageIn is metaAt for the stage
	// being parsed, which parseFacet and parseSort read.
	metaIn, stageIn metaStates
}

type stageParser func(spec any, p *parser) ([]Stage, error)

// parsers binds every stage descriptor of sandbox/stages, which holds
// where a stage may stand and what it reads and writes, to its parser.
// Aliases expand into several stages, as mongod's
// REGISTER_MULTI_STAGE_ALIAS does. A stage the sandbox does not run
// answers with mongod's own refusal (refusals.go). TestStageTable keeps
// the two tables in step: adding a stage is one entry in each.
var parsers map[string]stageParser

// boundStage is a descriptor with its parser.
type boundStage struct {
	*stages.Stage
	parse stageParser
}

// stageTable is every descriptor bound to its parser, built once.
var stageTable map[string]boundStage

func init() {
	parsers = map[string]stageParser{
		"$addFields":                    parseAddFields("$addFields"),
		"$bucket":                       parseBucket,
		"$bucketAuto":                   parseBucketAuto,
		"$changeStream":                 refuseChangeStream,
		"$changeStreamSplitLargeEvent":  refuseChangeStreamSplit,
		"$collStats":                    parseCollStats,
		"$count":                        parseCount,
		"$currentOp":                    parseCurrentOp,
		"$densify":                      parseDensify,
		"$documents":                    parseDocuments,
		"$facet":                        parseFacet,
		"$fill":                         parseFill,
		"$geoNear":                      parseGeoNear,
		"$graphLookup":                  parseGraphLookup,
		"$group":                        parseGroupStage,
		"$_internalStreamingGroup":      parseStreamingGroup,
		"$indexStats":                   parseIndexStats,
		"$limit":                        parseLimit,
		"$listCatalog":                  unsupported("$listCatalog"),
		"$listClusterCatalog":           unsupported("$listClusterCatalog"),
		"$listLocalSessions":            refuseListLocalSessions,
		"$listSampledQueries":           refuseListSampledQueries,
		"$listSearchIndexes":            refuseSearchIndexes,
		"$listSessions":                 refuseListSessions,
		"$lookup":                       parseLookup,
		"$match":                        parseMatch,
		"$merge":                        parseMerge,
		"$mergeCursors":                 refuseMergeCursors,
		"$out":                          parseOut,
		"$planCacheStats":               parsePlanCacheStats,
		"$project":                      parseProject,
		"$querySettings":                parseQuerySettings,
		"$queryStats":                   refuseQueryStats,
		"$redact":                       parseRedact,
		"$replaceRoot":                  parseReplaceRoot,
		"$replaceWith":                  parseReplaceWith,
		"$sample":                       parseSample,
		"$search":                       refuseSearch,
		"$searchMeta":                   refuseSearch,
		"$set":                          parseAddFields("$set"),
		"$setWindowFields":              parseSetWindowFields,
		"$shardedDataDistribution":      unsupported("$shardedDataDistribution"),
		"$skip":                         parseSkip,
		"$sort":                         parseSort,
		"$sortByCount":                  parseSortByCount,
		"$unionWith":                    parseUnionWith,
		"$unset":                        parseUnset,
		"$unwind":                       parseUnwind,
		"$vectorSearch":                 refuseSearch,
		"$_internalBoundedSort":         refuseInternalOnly("$_internalBoundedSort"),
		"$_internalDensify":             parseInternalDensify,
		"$_internalInhibitOptimization": parseInhibitOptimization,
		"$_internalSplitPipeline":       parseSplitPipeline,
		"$_internalUnpackBucket":        parseUnpackBucket,
		"$_unpackBucket":                parseUnpackBucketExternal,
	}
	stageTable = map[string]boundStage{}
	for _, s := range stages.All() {
		stageTable[s.Name] = boundStage{Stage: s, parse: parsers[s.Name]}
	}
}

// MaxPipelineLength is internalPipelineLengthLimit, 1000 in 8.0's release
// builds.
const MaxPipelineLength = 1000

// parseStages parses a pipeline as Pipeline::parseCommon does: every
// stage first, then the sub-pipeline's own rules (what $facet, $lookup
// and $unionWith refuse inside them), then the positions
// (Pipeline::validateCommon), so a stage that fails to parse is reported
// before a stage out of place.
func parseStages(pipeline bson.A, p *parser) ([]Stage, error) {
	if len(pipeline) > MaxPipelineLength {
		return nil, mongoerr.Newf(mongoerr.ErrPipelineTooLong, "Pipeline length must be no longer than %d stages.", MaxPipelineLength)
	}
	descs := make([]*stages.Stage, 0, len(pipeline))
	specs := make([]any, 0, len(pipeline))
	var out []Stage
	for _, raw := range pipeline {
		spec, ok := raw.(bson.D)
		if !ok {
			return nil, mongoerr.New(mongoerr.TypeMismatch, "Each element of the 'pipeline' array must be an object")
		}
		if len(spec) != 1 {
			return nil, mongoerr.New(mongoerr.ErrStageNotOneField, "A pipeline stage specification object must contain exactly one field.")
		}
		name := spec[0].Key
		bound, ok := stageTable[name]
		if !ok {
			return nil, mongoerr.Newf(mongoerr.ErrStageUnrecognized, "Unrecognized pipeline stage name: '%s'", name)
		}
		parsed, err := parseStage(bound, spec[0].Value, p, out)
		if err != nil {
			return nil, err
		}
		descs = append(descs, bound.Stage)
		specs = append(specs, spec[0].Value)
		out = append(out, parsed...)
	}
	for i, d := range descs {
		c := strictest(d, specs[i], 0)
		switch {
		case p.within == "$facet" && c.NotInFacet:
			return nil, mongoerr.Newf(mongoerr.ErrStageNotInFacet, "%s is not allowed to be used within a $facet stage", d.Name)
		case p.within == "$lookup" && c.NotInLookup:
			return nil, mongoerr.Newf(mongoerr.ErrStageNotInLookup, "%s is not allowed within a $lookup's sub-pipeline", d.Name)
		case p.within == "$unionWith" && c.NotInUnionWith:
			return nil, mongoerr.Newf(mongoerr.ErrStageNotInUnionWith, "%s is not allowed within a $unionWith's sub-pipeline", d.Name)
		}
	}
	for i, d := range descs {
		// A collectionless aggregate ({aggregate: 1}) needs a first stage
		// that reads no collection; Pipeline::validateCommon checks this
		// ahead of where each stage may stand.
		if i == 0 && p.collectionless && !d.Collectionless {
			return nil, mongoerr.Newf(mongoerr.InvalidNamespace, "{aggregate: 1} is not valid for '%s'; a collection is required.", d.Name)
		}
		if d.FirstOnly && i != 0 {
			return nil, mongoerr.Newf(mongoerr.ErrStageNotFirst, "%s is only valid as the first stage in a pipeline", d.Name)
		}
		if d.LastOnly && i != len(descs)-1 {
			return nil, mongoerr.Newf(mongoerr.ErrStageNotLast, "%s can only be the final stage in the pipeline", d.Name)
		}
	}
	return optimizeUnpacking(pushMatches(out, p), p), nil
}

// parseStage parses one stage after the stages before. Its expressions
// may read {$meta: "sortKey"} and {$meta: "recordId"} where the sandbox
// answers as mongod does (metaAt): the documents reaching the stage
// cannot have the metadata, so ExpressionMeta gives missing (neither is
// among DepsTracker's kDefaultUnavailableMetadata, so nothing fails), or
// the stage is a transformer the sandbox hands it to. Elsewhere (a
// $group after a pushed-down $sort, a $project behind an in-pipeline
// $sort that reorders documents carrying keys) the expression stays
// refused.
func parseStage(bound boundStage, spec any, p *parser, before []Stage) ([]Stage, error) {
	in := p.metaAt(before)
	t := transformerStage(bound.Name)
	outer, outerIn := p.scope, p.stageIn
	p.scope, p.stageIn = outer.WithMeta(in.recordID.readable(t), in.sortKey.readable(t)), in
	defer func() { p.scope, p.stageIn = outer, outerIn }()
	return bound.parse(spec, p)
}

// stageAt is stages[i], nil outside the slice.
func stageAt(stages []Stage, i int) Stage {
	if i < 0 || i >= len(stages) {
		return nil
	}
	return stages[i]
}

// placement is where a stage may stand: the Facet-, Lookup- and
// UnionRequirement of its StageConstraints.
type placement struct {
	NotInFacet, NotInLookup, NotInUnionWith bool
}

// maxNesting bounds strictest's walk; parsing already refused a deeper
// pipeline, this only keeps a malformed one from recursing without end.
const maxNesting = 200

// strictest is the placement of the stage d with specification spec. A
// stage that holds sub-pipelines ($lookup, $unionWith) inherits the
// strictest requirements of the stages inside them, at any depth, as
// StageConstraints::getStrictestConstraints does in 8.0's
// DocumentSourceLookUp::constraints and DocumentSourceUnionWith's: so a
// $lookup whose pipeline holds a $facet is itself refused inside a
// $facet, under its own name (Pipeline::validateFacetPipeline reports
// the top-level stage; naming the nested one came with 8.1).
func strictest(d *stages.Stage, spec any, depth int) placement {
	c := placement{NotInFacet: d.NotInFacet, NotInLookup: d.NotInLookup, NotInUnionWith: d.NotInUnionWith}
	if depth > maxNesting || d.Writes() {
		// $merge's whenMatched is an update pipeline, not a sub-pipeline
		// whose constraints the stage takes on.
		return c
	}
	for _, sub := range d.Pipelines(spec) {
		arr, _ := sub.(bson.A)
		for _, raw := range arr {
			st, ok := raw.(bson.D)
			if !ok || len(st) != 1 {
				continue
			}
			inner, ok := stages.Lookup(st[0].Key)
			if !ok {
				continue
			}
			ic := strictest(inner, st[0].Value, depth+1)
			c.NotInFacet = c.NotInFacet || ic.NotInFacet
			c.NotInLookup = c.NotInLookup || ic.NotInLookup
			c.NotInUnionWith = c.NotInUnionWith || ic.NotInUnionWith
		}
	}
	return c
}

// isPrefixPattern reports whether sort pattern a is b or its prefix.
func isPrefixPattern(a, b bson.D) bool {
	if len(a) > len(b) {
		return false
	}
	for i, e := range a {
		if e.Key != b[i].Key || value.Compare(e.Value, b[i].Value) != 0 {
			return false
		}
	}
	return true
}

// coalesce applies the rewrites mongod always applies and that show in
// explain or bound memory (the manual's "Aggregation Pipeline
// Optimization"): adjacent $match stages merge into one {$and}, adjacent
// $limit and $skip stages coalesce, an $unwind of a $lookup's "as" field
// joins the $lookup, and $sort and $limit move as placeSort and
// placeLimit say (a $limit a $sort reaches makes it a top-k sort).
func coalesce(stages []Stage) []Stage {
	out := stages[:0:0]
	for _, s := range stages {
		var prev Stage
		if len(out) > 0 {
			prev = out[len(out)-1]
		}
		switch cur := s.(type) {
		case *limitStage:
			out = placeLimit(out, cur)
			continue
		case *unwindStage:
			// $lookup and $graphLookup absorb an $unwind of their "as"
			// field; explain shows it as "unwinding".
			switch p := prev.(type) {
			case *lookupStage:
				if p.unwind == nil && cur.path == p.as {
					p.unwind = cur
					continue
				}
			case *graphLookupStage:
				if p.unwind == nil && cur.path == p.as {
					p.unwind = cur
					continue
				}
			}
		case *sortStage:
			out = placeSort(out, cur)
			continue
		case *skipStage:
			// DocumentSourceSkip::doOptimizeAt merges adjacent skips
			// unless the sum would overflow.
			if p, ok := prev.(*skipStage); ok && cur.n <= math.MaxInt64-p.n {
				p.n += cur.n
				continue
			}
		case *matchStage:
			if p, ok := prev.(*matchStage); ok && p.m != nil && cur.m != nil {
				out[len(out)-1] = p.merged(cur)
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// compile compiles an aggregation expression in the parser's scope.
func (p *parser) compile(spec any) (expr.Expr, error) {
	return expr.Compile(spec, p.scope)
}

// typeNameOf is mongod's typeName() for error messages.
func typeNameOf(v any) string {
	if value.IsMissing(v) {
		return "missing"
	}
	return value.TypeName(v)
}

// stageSpec builds {name: spec}.
func stageSpec(name string, spec any) bson.D { return bson.D{{Key: name, Value: spec}} }

// docString renders a value in error messages the way mongod prints it.
func docString(v any) string { return valueString(v) }

// oneStage wraps a single stage into the []Stage parsers return.
func oneStage(s Stage, err error) ([]Stage, error) {
	if err != nil {
		return nil, err
	}
	return []Stage{s}, nil
}
