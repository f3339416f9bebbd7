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
	described := map[string]bool{}
	for _, s := range stages.All() {
		described[s.Name] = true
		if parsers[s.Name] == nil {
			t.Errorf("stage %s has a descriptor and no parser", s.Name)
		}
	}
	for name := range parsers {
		if !described[name] {
			t.Errorf("stage %s has a parser and no descriptor in sandbox/stages", name)
		}
	}
}
