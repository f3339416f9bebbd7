package engine

import (
	"slices"
	"strings"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

func splitDots(path string) []string { return strings.Split(path, ".") }

func sortValues(vals []any) {
	slices.SortStableFunc(vals, value.Compare)
}

func valueTypeName(v any) string { return value.TypeName(v) }
