package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// parser carries what stage parsers need: the command context and the
// variables in scope (command-level let, $lookup let).
type parser struct {
	ctx     *Context
	scope   *expr.Scope
	letVals bson.D // evaluated command-level let, for $match's $expr
	inFacet bool
	inSub   bool // inside a $lookup or $unionWith sub-pipeline
}

type stageParser func(spec any, p *parser) ([]Stage, error)

// stageParsers maps every supported stage name to its parser. Aliases
// expand into several stages, as mongod's REGISTER_MULTI_STAGE_ALIAS does.
var stageParsers map[string]stageParser

func init() {
	stageParsers = map[string]stageParser{
		"$match":                 parseMatch,
		"$project":               parseProject,
		"$addFields":             parseAddFields("$addFields"),
		"$set":                   parseAddFields("$set"),
		"$unset":                 parseUnset,
		"$sort":                  parseSort,
		"$limit":                 parseLimit,
		"$skip":                  parseSkip,
		"$count":                 parseCount,
		"$sortByCount":           parseSortByCount,
		"$replaceRoot":           parseReplaceRoot,
		"$replaceWith":           parseReplaceWith,
		"$sample":                parseSample,
		"$unionWith":             parseUnionWith,
		"$documents":             parseDocuments,
		"$group":                 parseGroupStage,
		"$unwind":                parseUnwind,
		"$bucket":                parseBucket,
		"$bucketAuto":            parseBucketAuto,
		"$facet":                 parseFacet,
		"$lookup":                parseLookup,
		"$graphLookup":           parseGraphLookup,
		"$out":                   parseOut,
		"$merge":                 parseMerge,
		"$collStats":             parseCollStats,
		"$indexStats":            parseIndexStats,
		"$setWindowFields":       parseSetWindowFields,
		"$_internalUnpackBucket": parseUnpackBucket,
	}
}

// Stages that must come first or last, and those $facet refuses.
var (
	firstOnlyStages = map[string]bool{"$collStats": true, "$indexStats": true, "$documents": true}
	lastOnlyStages  = map[string]bool{"$out": true, "$merge": true}
	notInFacet      = map[string]bool{"$collStats": true, "$indexStats": true, "$facet": true,
		"$out": true, "$merge": true, "$documents": true}
)

func parseStages(pipeline bson.A, p *parser) ([]Stage, error) {
	var stages []Stage
	for i, raw := range pipeline {
		spec, ok := raw.(bson.D)
		if !ok {
			return nil, mongoerr.New(mongoerr.TypeMismatch, "Each element of the 'pipeline' array must be an object")
		}
		if len(spec) != 1 {
			return nil, mongoerr.New(40323, "A pipeline stage specification object must contain exactly one field.")
		}
		name := spec[0].Key
		parse, ok := stageParsers[name]
		if !ok {
			return nil, mongoerr.Newf(40324, "Unrecognized pipeline stage name: '%s'", name)
		}
		if p.inFacet && notInFacet[name] {
			return nil, mongoerr.Newf(40600, "%s is not allowed to be used within a $facet stage", name)
		}
		if firstOnlyStages[name] && i != 0 {
			return nil, mongoerr.Newf(40602, "%s is only valid as the first stage in a pipeline", name)
		}
		if lastOnlyStages[name] && i != len(pipeline)-1 {
			return nil, mongoerr.Newf(40601, "%s can only be the final stage in the pipeline", name)
		}
		parsed, err := parse(spec[0].Value, p)
		if err != nil {
			return nil, err
		}
		stages = append(stages, parsed...)
	}
	return optimize(stages), nil
}

// optimize applies the rewrites mongod always applies and that show in
// explain or bound memory (the manual's "Aggregation Pipeline
// Optimization"): adjacent $match stages merge into one {$and}, adjacent
// $limit and $skip stages coalesce, $sort + $skip + $limit moves the limit
// (plus the skip) into the sort, a $limit after a $sort is absorbed into
// it (a top-k sort), and an $unwind of a $lookup's "as" field joins the
// $lookup.
func optimize(stages []Stage) []Stage {
	out := stages[:0:0]
	for _, s := range stages {
		var prev Stage
		if len(out) > 0 {
			prev = out[len(out)-1]
		}
		switch cur := s.(type) {
		case *limitStage:
			switch p := prev.(type) {
			case *sortStage:
				if p.limit == 0 || cur.n < p.limit {
					p.limit = cur.n
				}
				continue
			case *limitStage:
				p.n = min(p.n, cur.n)
				continue
			case *skipStage:
				if len(out) > 1 {
					if srt, ok := out[len(out)-2].(*sortStage); ok {
						total := p.n + cur.n
						if srt.limit == 0 || total < srt.limit {
							srt.limit = total
						}
						continue
					}
				}
			}
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
		case *skipStage:
			if p, ok := prev.(*skipStage); ok {
				p.n += cur.n
				continue
			}
		case *matchStage:
			if p, ok := prev.(*matchStage); ok && p.m != nil && cur.m != nil {
				merged := &matchStage{
					filter: bson.D{{Key: "$and", Value: bson.A{p.filter, cur.filter}}},
					m:      p.m,
					next:   append(append([]*matchStage{}, p.next...), cur),
				}
				out[len(out)-1] = merged
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
