package aggregate

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/stages"
)

// TestStageTable keeps the stage descriptors and the parsers in step:
// every stage sandbox/stages describes has a parser here, and every parser
// is bound to a descriptor, so that the guard and lessons know every stage
// the engine runs.
func TestStageTable(t *testing.T) {
	for name, b := range stageTable {
		if b.parse == nil {
			t.Errorf("stage %s has a descriptor and no parser", name)
		}
	}
	for name := range parsers {
		if _, ok := stages.Lookup(name); !ok {
			t.Errorf("stage %s has a parser and no descriptor in sandbox/stages", name)
		}
	}
}
