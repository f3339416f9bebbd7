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
	opts := query.Options{Now: req.now, LetVars: st.let, JSONSchema: validation.CompileSchema}
	f, err := query.Compile(st.filter, opts)
	if err != nil {
		return nil, err
	}
	wf, err := ts.opts.ForWrites(st.filter, opts, ts.bucketState())
	if err != nil {
		return nil, err
	}
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
		return explainReply(req, renderPlan(exec, verbosity, writeStage("DELETE", counts, nil))), nil
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
	stage := tsModifyStage(opType, wf.Bucket, residual, bson.D{
		{Key: "nBucketsUnpacked", Value: unpacked},
		{Key: "nMeasurementsDeleted", Value: deleted},
	})
	return explainReply(req, renderPlan(exec, verbosity, stage)), nil
}

// tsModifyStage renders the TS_MODIFY stage above the buckets' plan, its
// fields in the order plan_explainer_impl.cpp appends them: the common
// figures, opType, bucketFilter and residualFilter, then (with execution
// stats) its counts. It returns no document, and works once per work of
// its plan and once more at its end.
func tsModifyStage(opType string, bucketFilter, residualFilter, counts bson.D) func(plan bson.D, exec bool) bson.D {
	return func(plan bson.D, exec bool) bson.D {
		d := bson.D{{Key: "stage", Value: "TS_MODIFY"}}
		if exec {
			works := lookupInt(plan, "works")
			d = append(d,
				bson.E{Key: "nReturned", Value: int64(0)},
				bson.E{Key: "executionTimeMillisEstimate", Value: lookupInt(plan, "executionTimeMillisEstimate")},
				bson.E{Key: "works", Value: works + 1},
				bson.E{Key: "advanced", Value: int64(0)},
				bson.E{Key: "needTime", Value: works},
				bson.E{Key: "needYield", Value: int64(0)},
				bson.E{Key: "saveState", Value: int64(0)},
				bson.E{Key: "restoreState", Value: int64(0)},
				bson.E{Key: "isEOF", Value: int64(1)},
			)
		}
		d = append(d, bson.E{Key: "opType", Value: opType}, bson.E{Key: "bucketFilter", Value: bucketFilter},
			bson.E{Key: "residualFilter", Value: residualFilter})
		if exec {
			d = append(d, counts...)
		}
		return append(d, bson.E{Key: "inputStage", Value: plan})
	}
}
