package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/timeseries"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
)

// explainTimeseriesDelete is the explain of a delete on a time-series
// collection, planned on its buckets as getExecutorDelete plans it
// (get_executor.cpp, 8.0; jstests/core/timeseries/query/
// timeseries_explain_delete.js):
//   - a delete of many whose query reads the metaField alone, or nothing,
//     removes whole buckets: DELETE over a scan of the buckets with the
//     bucket filter, its nWouldDelete counting measurements
//     (numMeasurementsForBucketCounter), never batched;
//   - any other delete is a TS_MODIFY stage: it reads the buckets the
//     bucket filter selects, unpacks each (nBucketsUnpacked) and deletes
//     the measurements that pass the residual filter
//     (nMeasurementsDeleted), a deleteOne stopping at the first.
//
// The explain runs the scan but deletes nothing.
func (e *Engine) explainTimeseriesDelete(req *request, ts *tsView, st *deleteStatement, verbosity string) (bson.D, error) {
	f, err := query.Compile(st.filter, query.Options{Now: req.now, LetVars: st.let, JSONSchema: validation.CompileSchema})
	if err != nil {
		return nil, err
	}
	wf := ts.opts.ForWrites(st.filter, ts.bucketState())
	bucketQuery, err := query.Compile(wf.Bucket, query.Options{Now: req.now})
	if err != nil {
		return nil, err
	}
	q := planner.Query{Filter: bucketQuery, Hint: bucketHint(ts.opts, st.hint), Ctx: req.ctx, Explain: true, PreserveRecordID: true}
	exec, err := e.plan(ts.buckets, ts.buckets.NS(), q)
	if err != nil {
		return nil, err
	}
	exec.EnableTiming()
	if st.multi && wf.Residual == nil {
		var measurements int64
		if verbosity != "queryPlanner" {
			for {
				r, ok, err := exec.Next()
				if err != nil || !ok {
					break
				}
				measurements += int64(len(timeseries.Unpack(r.Doc, ts.opts.TimeField, ts.opts.MetaField)))
			}
		}
		counts := bson.D{{Key: "nWouldDelete", Value: measurements}}
		return explainReply(req, renderPlan(exec, verbosity, writeStage("DELETE", nil, counts, nil))), nil
	}
	var unpacked, deleted int64
	if verbosity != "queryPlanner" {
	scan:
		for {
			r, ok, err := exec.Next()
			if err != nil || !ok {
				break
			}
			unpacked++
			for _, m := range timeseries.Unpack(r.Doc, ts.opts.TimeField, ts.opts.MetaField) {
				if !f.Matches(m) {
					continue
				}
				deleted++
				if !st.multi {
					break scan
				}
			}
		}
	}
	opType := "deleteMany"
	if !st.multi {
		opType = "deleteOne"
	}
	residual := wf.Residual
	if residual == nil {
		residual = bson.D{}
	}
	// TS_MODIFY's fields in the order plan_explainer_impl.cpp appends
	// them; like DELETE it returns nothing.
	stage := writeStage("TS_MODIFY",
		bson.D{{Key: "opType", Value: opType}, {Key: "bucketFilter", Value: wf.Bucket}, {Key: "residualFilter", Value: residual}},
		bson.D{{Key: "nBucketsUnpacked", Value: unpacked}, {Key: "nMeasurementsDeleted", Value: deleted}}, nil)
	return explainReply(req, renderPlan(exec, verbosity, stage)), nil
}
