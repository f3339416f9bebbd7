package planner

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// Profile is what the profiler records of a plan (OpDebug, curop.cpp):
// planSummary, execStats, hasSortStage and fromMultiPlanner.
type Profile struct {
	// Summary is PlanExplainerImpl::getPlanSummary: the plan's leaf
	// stages, in order, each index scan with its key pattern
	// ("IXSCAN { a: 1 }", "COLLSCAN, IXSCAN { b: 1 }").
	Summary string
	// ExecStats is the winning plan's stage tree with its execution
	// figures, as explain's executionStages.
	ExecStats        bson.D
	HasSortStage     bool
	FromMultiPlanner bool
	// QueryHash and PlanCacheKey are explain's, for a plan over an
	// existing collection.
	QueryHash, PlanCacheKey string
}

// Profile describes the plan for the profiler; call it once the plan has
// run (or stopped).
func (e *Executor) Profile() Profile {
	stats := e.ExecutionStats(false)
	root, _ := value.Get(stats, "executionStages").(bson.D)
	p := Profile{ExecStats: root, FromMultiPlanner: len(e.candidates) > 1}
	if e.coll != nil {
		p.QueryHash = e.queryHash(e.parsedFilter())
		p.PlanCacheKey = e.planCacheKey(p.QueryHash)
	}
	var leaves []string
	var walk func(d bson.D)
	walk = func(d bson.D) {
		stage, _ := value.Get(d, "stage").(string)
		if strings.HasPrefix(stage, "SORT") {
			p.HasSortStage = true
		}
		children := 0
		if c, ok := value.Get(d, "inputStage").(bson.D); ok {
			children++
			walk(c)
		}
		if cs, ok := value.Get(d, "inputStages").(bson.A); ok {
			for _, c := range cs {
				if cd, ok := c.(bson.D); ok {
					children++
					walk(cd)
				}
			}
		}
		if children > 0 {
			return
		}
		switch kp := value.Get(d, "keyPattern").(type) {
		case bson.D:
			leaves = append(leaves, stage+" "+value.FormatDoc(kp))
		case string:
			leaves = append(leaves, stage+" "+kp)
		default:
			leaves = append(leaves, stage)
		}
	}
	walk(root)
	p.Summary = strings.Join(leaves, ", ")
	return p
}
