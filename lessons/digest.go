package lessons

import (
	"context"
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/lessons/locale"
)

// maxValueCounts is how many distinct values of a field the digest counts
// one by one; a field with more (an id, a grade) is summed up by its
// numbers instead.
const maxValueCounts = 20

// digest sums up a collection too large to hold or to list: for every
// top-level field, how many documents have it, the sum, minimum and
// maximum of its numbers, and for the fields the check reads, how many
// documents hold each value; and every document's hash, in _id order,
// so that the first document that differs can be found at any size.
type digest struct {
	fields []*fieldDigest
	// keys are the documents in _id order: the _id's bytes, or for an
	// _id generated on insert, the hash of the other fields; hashes and
	// ids (to read a few documents again) are in the same order, and at
	// holds each key's position.
	keys   []string
	hashes []uint64
	ids    []bson.RawValue
	at     map[string]int
}

// hash is the hash of the document with key k, 0 when there is none.
func (d *digest) hash(k string) uint64 {
	if i, ok := d.at[k]; ok {
		return d.hashes[i]
	}
	return 0
}

// fieldDigest sums up one top-level field.
type fieldDigest struct {
	name             string
	present, numbers int64
	sum, min, max    float64
	// values counts the documents per value (as mongosh prints it) of a field
	// the check reads; nil when it has too many values to count.
	values map[string]int64
	order  []string
}

func (d *digest) field(name string, counted bool) *fieldDigest {
	for _, f := range d.fields {
		if f.name == name {
			return f
		}
	}
	f := &fieldDigest{name: name}
	if counted {
		f.values = map[string]int64{}
	}
	d.fields = append(d.fields, f)
	return f
}

func (f *fieldDigest) add(v bson.RawValue) {
	f.present++
	if n, ok := v.AsFloat64OK(); ok {
		if f.numbers == 0 || n < f.min {
			f.min = n
		}
		if f.numbers == 0 || n > f.max {
			f.max = n
		}
		f.numbers++
		f.sum += n
	}
	if f.values == nil {
		return
	}
	k := show(rawValue(v))
	if _, seen := f.values[k]; !seen {
		if len(f.values) == maxValueCounts {
			f.values, f.order = nil, nil
			return
		}
		f.order = append(f.order, k)
	}
	f.values[k]++
}

// rawValue is v as the Go value mongosh's printing takes.
func rawValue(v bson.RawValue) any {
	var out any
	if err := v.Unmarshal(&out); err != nil {
		return v.String()
	}
	return out
}

// fieldWord matches an identifier in a check's source.
var fieldWord = regexp.MustCompile(`[A-Za-z_$][A-Za-z0-9_$]*`)

// readDigest reads coll of db in _id order into a digest. counted are the
// fields whose values are counted one by one: those the check names.
func (g *grader) readDigest(ctx context.Context, db, coll string, counted map[string]bool) (*digest, error) {
	cur, err := g.st.client.Database(db).Collection(coll).Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("read %s for the goal: %w", coll, err)
	}
	defer cur.Close(ctx)
	d := &digest{at: map[string]int{}}
	for cur.Next(ctx) {
		elems, err := cur.Current.Elements()
		if err != nil {
			return nil, err
		}
		h := fnv.New64a()
		var id bson.RawValue
		for _, e := range elems {
			if e.Key() == "_id" {
				id = e.Value()
				continue
			}
			_, _ = h.Write(e)
			d.field(e.Key(), counted[e.Key()]).add(e.Value())
		}
		sum := h.Sum64()
		key := "~" + strconv.FormatUint(sum, 16)
		if id.Type != bson.TypeObjectID && id.Type != 0 {
			key = string(rune(id.Type)) + string(id.Value)
			_, _ = h.Write(id.Value)
			sum = h.Sum64()
		}
		for n := 1; key[0] == '~' && d.hash(key) != 0; n++ {
			// The same fields twice under generated ids: count them apart.
			key = "~" + strconv.FormatUint(sum, 16) + "#" + strconv.Itoa(n)
		}
		d.at[key] = len(d.keys)
		d.keys = append(d.keys, key)
		d.hashes = append(d.hashes, sum|1)
		d.ids = append(d.ids, bson.RawValue{Type: id.Type, Value: slices.Clone(id.Value)})
	}
	return d, cur.Err()
}

// checkedFields are the goal's top-level fields that the check's source
// names: their values are the ones worth counting.
func checkedFields(check string) map[string]bool {
	out := map[string]bool{}
	for _, w := range fieldWord.FindAllString(check, -1) {
		out[w] = true
	}
	return out
}

// DigestLine is one figure of a large collection that differs from the
// goal's.
type DigestLine struct {
	Field string
	// What is "present", "sum", "min", "max", or "value" (then Value is
	// the value, as mongosh prints it).
	What, Value string
	Goal, Yours float64
}

var (
	msgDigestPresent = &locale.Message{ID: "goal.digestPresent", Other: "{{.Field}}: in {{.Yours}} documents of yours, {{.Goal}} in the goal"}
	msgDigestSum     = &locale.Message{ID: "goal.digestSum", Other: "{{.Field}}: sums to {{.Yours}} in yours, {{.Goal}} in the goal"}
	msgDigestMin     = &locale.Message{ID: "goal.digestMin", Other: "{{.Field}}: smallest {{.Yours}} in yours, {{.Goal}} in the goal"}
	msgDigestMax     = &locale.Message{ID: "goal.digestMax", Other: "{{.Field}}: largest {{.Yours}} in yours, {{.Goal}} in the goal"}
	msgDigestValue   = &locale.Message{ID: "goal.digestValue", Other: "{{.Field}} = {{.Value}}: {{.Yours}} documents in yours, {{.Goal}} in the goal"}
)

// Text says what differs, in l's language.
func (d DigestLine) Text(l *locale.Localizer) string {
	data := map[string]any{"Field": d.Field, "Value": d.Value, "Goal": l.Number(d.Goal), "Yours": l.Number(d.Yours)}
	m := map[string]*locale.Message{"present": msgDigestPresent, "sum": msgDigestSum, "min": msgDigestMin, "max": msgDigestMax, "value": msgDigestValue}[d.What]
	return l.T(m, data)
}

// compareDigests lists the figures where yours differs from want, field
// by field in the goal's order.
func compareDigests(want, yours *digest) []DigestLine {
	var out []DigestLine
	names := []string{}
	for _, f := range want.fields {
		names = append(names, f.name)
	}
	for _, f := range yours.fields {
		names = appendNew(names, f.name)
	}
	empty := &fieldDigest{}
	for _, name := range names {
		w, y := empty, empty
		if i := slices.IndexFunc(want.fields, func(f *fieldDigest) bool { return f.name == name }); i >= 0 {
			w = want.fields[i]
		}
		if i := slices.IndexFunc(yours.fields, func(f *fieldDigest) bool { return f.name == name }); i >= 0 {
			y = yours.fields[i]
		}
		line := func(what string, a, b float64) {
			if a != b {
				out = append(out, DigestLine{Field: name, What: what, Goal: a, Yours: b})
			}
		}
		line("present", float64(w.present), float64(y.present))
		line("sum", w.sum, y.sum)
		if w.numbers > 0 && y.numbers > 0 {
			line("min", w.min, y.min)
			line("max", w.max, y.max)
		}
		if w.values != nil && y.values != nil {
			for _, v := range appendAllNew(slices.Clone(w.order), y.order) {
				if w.values[v] != y.values[v] {
					out = append(out, DigestLine{Field: name, What: "value", Value: v, Goal: float64(w.values[v]), Yours: float64(y.values[v])})
				}
			}
		}
	}
	return out
}

func appendAllNew(to, from []string) []string {
	for _, s := range from {
		to = appendNew(to, s)
	}
	return to
}

// firstDifferences finds, in _id order, the documents of yours that are
// not the goal's: those of the goal that yours lacks or holds otherwise,
// then those only yours has. It returns the keys of up to limit of each
// side and how many differ in all.
func firstDifferences(want, yours *digest, limit int) (goalKeys, yourKeys []string, total int) {
	for i, k := range want.keys {
		if yours.hash(k) != want.hashes[i] {
			total++
			if len(goalKeys) < limit {
				goalKeys = append(goalKeys, k)
			}
		}
	}
	for _, k := range yours.keys {
		if _, ok := want.at[k]; !ok {
			total++
			if len(yourKeys) < limit {
				yourKeys = append(yourKeys, k)
			}
		}
	}
	return goalKeys, yourKeys, total
}

// readByID reads the documents of coll in db whose _id is one of ids, in
// _id order.
func (g *grader) readByID(ctx context.Context, db, coll string, ids []bson.RawValue) ([]bson.D, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	in := bson.A{}
	for _, id := range ids {
		in = append(in, id)
	}
	cur, err := g.st.client.Database(db).Collection(coll).Find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: in}}}},
		options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, err
	}
	var docs []bson.D
	return docs, cur.All(ctx, &docs)
}
