package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Which documents carry which metadata in a pipeline, as mongod 8.0 on a
// standalone sets it, and where the sandbox hands it on.
//
// A document read from a collection carries none until the query layer
// adds some: a SORT the pipeline's leading $sort went down into records
// each document's sort key, and an IXSCAN its index key, when a stage
// left in the pipeline depends on them (createCanonicalQuery's
// requestAdditionalMetadata, pipeline_d.cpp); the record id is metadata
// only once a find-layer projection reading it ran
// (ProjectionStageDefault::transform copies it out of the working set
// member), which in a pipeline is the leading inclusion $project that
// buildProjectionForPushdown hands to the query layer. A $sort run in
// the pipeline sets no sort key: DocumentSourceSort::extractSortKey does
// so only when the output is to be merged (needsMerge, the shards' half
// of a sharded pipeline). A stage that builds its output from its input
// document keeps the input's metadata (MutableDocument copies it;
// ReplaceRootTransformation::applyTransformation copies it onto the new
// root; $lookup and $graphLookup add their field to the input); $group
// and the stages made of it build new documents, which have none.
// ExpressionMeta gives missing for metadata a document lacks.

// Meta is the metadata of a document that the sandbox carries, as
// mongod's Document carries DocumentMetadataFields. Each part is its zero
// value when the document has none.
type Meta struct {
	IndexKey bson.D
	SortKey  bson.A
	RecordID int64
}

// MetaSource is an input whose documents carry metadata: Meta is that of
// the document Next returned last. A transformer's expressions read it as
// {$meta: "indexKey"}, {$meta: "sortKey"} and {$meta: "recordId"}.
type MetaSource interface {
	Meta() Meta
}

// metaOf is the metadata of in's last document, none when in carries
// none.
func metaOf(in Iterator) Meta {
	if m, ok := in.(MetaSource); ok {
		return m.Meta()
	}
	return Meta{}
}

// metaState is what the documents reaching a stage carry of one kind of
// metadata.
type metaState uint8

const (
	// metaAbsent: none of them has it; {$meta: ...} is missing.
	metaAbsent metaState = iota
	// metaCarried: some may, and the sandbox hands it on to the
	// transformers (MetaSource).
	metaCarried
	// metaLost: some may, but a stage between their source and here
	// reorders or buffers them and the sandbox does not keep it.
	metaLost
)

// past is the state after a stage that keeps each document's metadata
// but not in a way the sandbox follows.
func (s metaState) past() metaState {
	if s == metaAbsent {
		return metaAbsent
	}
	return metaLost
}

// readable: an expression of a stage over documents in this state can
// answer {$meta: ...}: there is nothing to read, or the stage is a
// transformer, to which the sandbox hands the metadata.
func (s metaState) readable(transformer bool) bool {
	return s == metaAbsent || s == metaCarried && transformer
}

// metaStates is the sort key and record id state of a stage's input.
type metaStates struct {
	sortKey, recordID metaState
}

// keepsMeta: the stage's documents are derived from the input document
// it read last, keeping its metadata, so the sandbox hands on its input's
// (timedIterator.Meta).
func keepsMeta(s Stage) bool {
	switch s.(type) {
	case *matchStage, *limitStage, *skipStage, *unwindStage, *projectStage, *replaceRootStage,
		*lookupStage, *graphLookupStage, *inhibitStage:
		return true
	}
	return false
}

// passesMeta: the documents of the stage keep the metadata of its input's
// (those a $unionWith reads from its own collection carry none), so a
// transformer after it reads what the plan gave its input.
func passesMeta(s Stage) bool {
	switch x := s.(type) {
	case *unionWithStage:
		return true
	case *sortStage:
		return !x.outputSortKeyMetadata
	}
	return keepsMeta(s)
}

// dropsMeta: the stage's documents are new ones, with no metadata.
func dropsMeta(s Stage) bool {
	switch s.(type) {
	case *groupStage, *streamingGroupStage, *groupByDistinctStage, *bucketAutoStage, *facetStage,
		*documentsStage, *collStatsStage, *indexStatsStage, *planCacheStatsStage, *currentOpStage,
		*querySettingsStage, *unpackBucketStage, *sampleFromRandomCursorStage:
		return true
	}
	return false
}

// readsMeta: the stage is a transformer whose expressions read the
// metadata name.
func readsMeta(s Stage, name string) bool {
	switch x := s.(type) {
	case *projectStage:
		switch name {
		case "indexKey":
			return x.proj.NeedsIndexKey()
		case "sortKey":
			return x.proj.NeedsSortKey()
		}
	case *replaceRootStage:
		return expr.MentionsMeta(x.newRoot, name)
	}
	return false
}

// transformerStage: the stage name is a transformer, whose expressions
// the sandbox hands its input's metadata (openTransformer).
func transformerStage(name string) bool {
	switch name {
	case "$project", "$addFields", "$set", "$unset", "$replaceRoot", "$replaceWith":
		return true
	}
	return false
}

// leadsQuery: before[i] is the first stage after the $match stages at the
// front of a pipeline that reads a collection, where PipelineD's pushdown
// takes a $sort or an inclusion $project into the query layer.
func (p *parser) leadsQuery(before []Stage, i int) bool {
	if !p.fromCollection {
		return false
	}
	for _, s := range before[:i] {
		if _, ok := s.(*matchStage); !ok {
			return false
		}
	}
	return true
}

// metaAt is the state of the documents that reach the stage after
// before.
func (p *parser) metaAt(before []Stage) metaStates {
	return metaStates{sortKey: p.stateAt(before, "sortKey"), recordID: p.stateAt(before, "recordId")}
}

// stateAt is metaAt for the metadata name ("sortKey" or "recordId").
func (p *parser) stateAt(before []Stage, name string) metaState {
	for i := len(before) - 1; i >= 0; i-- {
		switch s := before[i].(type) {
		case *sortStage:
			switch {
			case name == "sortKey" && p.leadsQuery(before, i):
				// The query layer's SORT records the keys.
				return metaCarried
			case name == "sortKey" && s.outputSortKeyMetadata:
				// $setWindowFields' own $sort sets its key, which the
				// sandbox does not.
				return metaLost
			}
			if !p.leadsQuery(before, i) {
				// Run in the pipeline, it keeps each document's metadata
				// (sortStage.keepsMeta).
				continue
			}
		case *projectStage:
			if name == "recordId" && s.mode == modeInclusion && s.proj.NeedsRecordID() && p.leadsQuery(before, i) {
				// Pushed down, it runs as a PROJECTION_DEFAULT reading the
				// record id; when a $limit or $skip goes down too it stays
				// in the pipeline, and the documents have none (the
				// executor then hands none on).
				return metaCarried
			}
		case *unionWithStage:
			// Its input's documents pass with their metadata; its own
			// have what their sub-pipeline set, which the sandbox does
			// not hand on (it collects them as plain documents).
			if expr.MentionsMeta(s.pipeline, name) {
				return metaLost
			}
			continue
		}
		if keepsMeta(before[i]) {
			continue
		}
		if dropsMeta(before[i]) {
			return metaAbsent
		}
		return p.stateAt(before[:i], name).past()
	}
	in := p.input()
	if name == "sortKey" {
		return in.sortKey
	}
	return in.recordID
}

// input is the state of the documents the pipeline being parsed reads: a
// collection's carry none, a $facet's those its input has (metaIn); an
// update's and $merge's whenMatched pipeline, where the sandbox hands on
// none, keep {$meta: "sortKey"} and {$meta: "recordId"} refused.
func (p *parser) input() metaStates {
	switch {
	case p.fromCollection:
		return metaStates{}
	case p.within == "$facet":
		return p.metaIn
	}
	return metaStates{sortKey: metaLost, recordID: metaLost}
}

// unavailableMeta is each kind of metadata in 8.0's
// DepsTracker::kDefaultUnavailableMetadata (dependencies.h), which a
// pipeline over a collection may not depend on, with the name
// DocumentMetadataFields::typeNameToDebugString gives it: the text score
// needs a $text query (which the sandbox does not run), the $geoNear
// data a leading $geoNear.
var unavailableMeta = []struct{ name, debug string }{
	{"textScore", "text score"},
	{"geoNearDistance", "$geoNear distance"},
	{"geoNearPoint", "$geoNear point"},
}

// checkAvailableMeta is the check DepsTracker::setNeedsMetadata makes
// while PipelineD builds the executor of a pipeline that reads a
// collection: a stage depending on metadata the pipeline cannot have
// fails with 40218. Pipeline::getDependencies asks the stages in order
// and stops after one that says what every later stage needs ($group and
// the stages made of it, $bucketAuto, $facet, whose sub-pipelines it asks
// first); a $lookup's or $unionWith's sub-pipeline is checked when its
// own executor is built.
func checkAvailableMeta(pipeline bson.A) error {
	geoNear := false
	for i, raw := range pipeline {
		st, ok := raw.(bson.D)
		if !ok || len(st) != 1 {
			continue
		}
		name, spec := st[0].Key, st[0].Value
		if i == 0 && name == "$geoNear" {
			geoNear = true
		}
		if name == "$lookup" || name == "$unionWith" {
			spec = withoutField(spec, "pipeline")
		}
		for _, m := range unavailableMeta {
			if geoNear && m.name != "textScore" {
				continue
			}
			if expr.MentionsMeta(spec, m.name) {
				return mongoerr.Newf(40218, "query requires %s metadata, but it is not available", m.debug)
			}
		}
		switch name {
		case "$group", "$bucket", "$bucketAuto", "$sortByCount", "$count", "$facet":
			return nil
		}
	}
	return nil
}

// withoutField is the document spec without its field key.
func withoutField(spec any, key string) any {
	d, ok := spec.(bson.D)
	if !ok {
		return spec
	}
	out := make(bson.D, 0, len(d))
	for _, e := range d {
		if e.Key != key {
			out = append(out, e)
		}
	}
	return out
}
