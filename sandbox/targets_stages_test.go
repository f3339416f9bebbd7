package sandbox

import (
	"strings"
	"testing"
)

// The guard knows the stages from their descriptors (sandbox/stages): the
// 8.0 stages the sandbox runs or refuses itself pass, the server's
// internal and server-wide ones do not, wherever they are nested.
func TestPolicyStagesFromDescriptors(t *testing.T) {
	p := policy{prefix: "schemalab_", unlockable: true}
	agg := func(stages ...D) D {
		return cmdOn("schemalab_x", e("aggregate", "c"), e("pipeline", pipeline(stages...)), e("cursor", D{}))
	}
	for _, st := range []D{
		{e("$densify", D{e("field", "t"), e("range", D{e("step", 1), e("bounds", "full")})})},
		{e("$fill", D{e("output", D{e("a", D{e("value", 0)})})})},
		{e("$redact", "$$KEEP")},
		{e("$changeStream", D{})},
		{e("$search", D{})},
	} {
		if err := p.check(agg(st)); err != nil {
			t.Errorf("%v refused: %v", st, err)
		}
	}
	for _, st := range []D{
		{e("$currentOp", D{})},
		{e("$listLocalSessions", D{})},
		{e("$_internalInhibitOptimization", D{})},
		{e("$facet", D{e("f", pipeline(D{e("$lookup", D{e("from", "b"), e("as", "x"), e("pipeline", pipeline(D{e("$queryStats", D{})}))})}))})},
		{e("$merge", D{e("into", "m"), e("whenMatched", pipeline(D{e("$listSessions", D{})}))})},
	} {
		err := p.check(agg(st))
		if err == nil || !strings.Contains(err.Error(), "does not allow the stage") {
			t.Errorf("%v: %v, want the stage refused", st, err)
		}
	}
}
