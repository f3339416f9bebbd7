package advise

import (
	"context"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// shapeSample is how many documents the shape of a collection (its
// fields and their types) is read from: enough to see every field that
// one document in a few hundred has.
const shapeSample = 1000

// collection is what every detector starts from: the collection's size,
// the pipeline prefix that bounds the analysis, its fields and indexes,
// and its documents' sizes.
type collection struct {
	name       string
	timeseries bool
	count      int64 // the server's estimate, from the collection's metadata
	// sampled: count is above --sample, and base draws a $sample.
	sampled  bool
	analysed int64
	base     bson.A
	fields   []field
	// shapeDocs is how many documents fields were read from.
	shapeDocs int64
	indexes   []index
	sizes     sizeStats
}

// field is a top-level field as the shape sample saw it.
type field struct {
	name string
	// types counts the documents holding each BSON type ($type's names).
	types map[string]int64
	// slash and comma count the string values containing "/" or ",":
	// the separators of materialized paths.
	slash, comma int64
}

// share is the fraction of the shape sample whose field has one of the
// types.
func (c *collection) share(f field, types ...string) float64 {
	if c.shapeDocs == 0 {
		return 0
	}
	var n int64
	for _, t := range types {
		n += f.types[t]
	}
	return float64(n) / float64(c.shapeDocs)
}

type index struct {
	Name               string `bson:"name"`
	Key                bson.D `bson:"key"`
	Unique             bool   `bson:"unique"`
	ExpireAfterSeconds *int64 `bson:"expireAfterSeconds"`
}

// sizeStats are the BSON sizes of the analysed documents.
type sizeStats struct {
	Docs int64     `bson:"docs"`
	P    []float64 `bson:"p"` // p50, p95, p99
	Max  float64   `bson:"max"`
	Avg  float64   `bson:"avg"`
}

func (s sizeStats) p50() float64 { return at(s.P, 0) }

func at(p []float64, i int) float64 {
	if i < len(p) {
		return p[i]
	}
	return 0
}

// percentiles is the $percentile accumulator of p50, p95 and p99 of
// input; "approximate" is the method mongod 7.0+ offers for large inputs.
func percentiles(input any) bson.D {
	return bson.D{{Key: "$percentile", Value: bson.D{
		{Key: "input", Value: input}, {Key: "p", Value: bson.A{0.5, 0.95, 0.99}}, {Key: "method", Value: "approximate"},
	}}}
}

// profile reads what the detectors start from.
func profile(ctx context.Context, r reader, info collInfo, sample int64) (*collection, error) {
	c := &collection{name: info.Name, timeseries: info.Type == "timeseries", base: bson.A{}}
	cctx, cancel := r.bound(ctx)
	n, err := r.db.Collection(c.name).EstimatedDocumentCount(cctx)
	cancel()
	if err != nil {
		return nil, err
	}
	c.count, c.analysed = n, n
	if n > sample {
		c.sampled, c.analysed = true, sample
		c.base = bson.A{bson.D{{Key: "$sample", Value: bson.D{{Key: "size", Value: sample}}}}}
	}
	if err := c.readShape(ctx, r); err != nil {
		return nil, err
	}
	if err := c.readIndexes(ctx, r); err != nil {
		return nil, err
	}
	sizes := append(slices.Clone(c.base),
		bson.D{{Key: "$project", Value: bson.D{{Key: "_id", Value: 0}, {Key: "s", Value: bson.D{{Key: "$bsonSize", Value: "$$ROOT"}}}}}},
		bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil}, {Key: "docs", Value: bson.D{{Key: "$sum", Value: 1}}},
			{Key: "p", Value: percentiles("$s")}, {Key: "max", Value: bson.D{{Key: "$max", Value: "$s"}}},
			{Key: "avg", Value: bson.D{{Key: "$avg", Value: "$s"}}}}}})
	return c, r.one(ctx, c.name, sizes, &c.sizes)
}

// readShape counts, per top-level field, the documents of a $sample
// holding each type: on the server, returning one row per field and type.
func (c *collection) readShape(ctx context.Context, r reader) error {
	isString := bson.D{{Key: "$eq", Value: bson.A{bson.D{{Key: "$type", Value: "$kv.v"}}, "string"}}}
	holds := func(sep string) bson.D {
		found := bson.D{{Key: "$gte", Value: bson.A{bson.D{{Key: "$indexOfCP", Value: bson.A{"$kv.v", sep}}}, 0}}}
		// $cond evaluates only the branch taken, so $indexOfCP never
		// sees a value that is not a string.
		return bson.D{{Key: "$sum", Value: bson.D{{Key: "$cond", Value: bson.A{isString,
			bson.D{{Key: "$cond", Value: bson.A{found, 1, 0}}}, 0}}}}}
	}
	pipeline := bson.A{
		bson.D{{Key: "$sample", Value: bson.D{{Key: "size", Value: shapeSample}}}},
		bson.D{{Key: "$project", Value: bson.D{{Key: "_id", Value: 0}, {Key: "kv", Value: bson.D{{Key: "$objectToArray", Value: "$$ROOT"}}}}}},
		bson.D{{Key: "$unwind", Value: "$kv"}},
		bson.D{{Key: "$group", Value: bson.D{
			{Key: "_id", Value: bson.D{{Key: "k", Value: "$kv.k"}, {Key: "t", Value: bson.D{{Key: "$type", Value: "$kv.v"}}}}},
			{Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}, {Key: "slash", Value: holds("/")}, {Key: "comma", Value: holds(",")},
		}}},
	}
	var rows []struct {
		ID struct {
			K string `bson:"k"`
			T string `bson:"t"`
		} `bson:"_id"`
		N, Slash, Comma int64
	}
	if err := r.aggregate(ctx, c.name, pipeline, &rows); err != nil {
		return err
	}
	byName := map[string]int{}
	for _, row := range rows {
		i, ok := byName[row.ID.K]
		if !ok {
			i = len(c.fields)
			byName[row.ID.K] = i
			c.fields = append(c.fields, field{name: row.ID.K, types: map[string]int64{}})
		}
		f := &c.fields[i]
		f.types[row.ID.T] += row.N
		f.slash += row.Slash
		f.comma += row.Comma
		if row.ID.K == "_id" {
			c.shapeDocs += row.N
		}
	}
	slices.SortFunc(c.fields, func(a, b field) int { return strings.Compare(a.name, b.name) })
	return nil
}

func (c *collection) readIndexes(ctx context.Context, r reader) error {
	ctx, cancel := r.bound(ctx)
	defer cancel()
	cur, err := r.db.Collection(c.name).Indexes().List(ctx)
	if err != nil {
		return err
	}
	return cur.All(ctx, &c.indexes)
}

// idType is the BSON type of the collection's _id values, as the shape
// sample saw them most.
func (c *collection) idType() string {
	for _, f := range c.fields {
		if f.name != "_id" {
			continue
		}
		best, n := "", int64(0)
		for t, k := range f.types {
			if k > n || k == n && t < best {
				best, n = t, k
			}
		}
		return best
	}
	return ""
}
