package index

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// BestSortKey is the sort key SortKeyGenerator takes from the key tuples
// BtreeKeyGenerator builds from paths over doc (sort_key_generator.cpp,
// keyGen): the first under the sort's directions. Fields whose paths go
// through the same array take their values from the same element of it,
// so a sort on {"a.c": 1, "a.b": 1} pairs each element's c with that
// element's b (jstest core/query/sort/sort_dotted_paths.js), not the
// smallest c with the smallest b. Paths through different arrays have
// no key: SortKeyGenerator answers BadValue.
func BestSortKey(doc bson.D, paths []string, desc []bool) ([]any, error) {
	parts := make([][]string, len(paths))
	for i, p := range paths {
		parts[i] = strings.Split(p, ".")
	}
	var best []any
	g := keyGen{paths: parts, visit: func(t []any) {
		if best == nil {
			best = t
			return
		}
		for i := range t {
			c := value.Compare(t[i], best[i])
			if desc[i] {
				c = -c
			}
			if c != 0 {
				if c < 0 {
					best = t
				}
				return
			}
		}
	}}
	if err := g.walk(doc); err != nil {
		if mongoerr.As(err).Code == mongoerr.CannotIndexParallelArrays {
			return nil, mongoerr.New(mongoerr.BadValue, "cannot sort with keys that are parallel arrays")
		}
		return nil, err
	}
	return slices.Clip(best), nil
}
