package tree

import (
	"strings"
	"testing"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/tui/components/internal/comptest"
)

// The tree lesson's categories with a $graphLookup's hits highlighted
// and their depth; a cycle in bad data is drawn once, not forever.
func TestTreeGolden(t *testing.T) {
	tr := &lessons.Tree{
		IDs:    []string{"electronics", "phones", "smartphones", "feature", "laptops", "loop"},
		Name:   map[string]string{"electronics": "Electronics", "phones": "Phones", "smartphones": "Smartphones", "feature": "Feature phones", "laptops": "Laptops", "loop": "Loop"},
		Parent: map[string]string{"phones": "electronics", "smartphones": "phones", "feature": "phones", "laptops": "electronics", "loop": "loop"},
		Hits:   map[string]int{"phones": 0, "smartphones": 1, "feature": 1},
	}
	comptest.Goldens(t, []int{80}, func(t *testing.T, w int) string {
		return strings.Join(Render(comptest.Common(false), tr), "\n")
	})
}
