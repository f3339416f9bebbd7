package aggregate

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// streamingGroupStage is $_internalStreamingGroup
// (document_source_streaming_group.cpp, exec/agg/streaming_group_stage.cpp):
// a $group whose input arrives ordered so that some of its _id fields
// (the monotonic ones) only ever change between batches of documents.
// Each time one of them changes, the groups so far are complete: it
// returns them and starts afresh, holding one batch of groups at a time.
type streamingGroupStage struct {
	*groupStage
	// idFields are the _id's field names when it is an object of fields;
	// monotonic indexes them (sorted), or is [0] for an _id of one
	// expression.
	idFields  []string
	monotonic []int
}

const monotonicIDFields = "$monotonicIdFields"

func parseStreamingGroup(spec any, p *parser) ([]Stage, error) {
	d, _ := spec.(bson.D)
	groupSpec := spec
	if d != nil {
		// The stage's own field is reserved: the $group never sees it.
		groupSpec = slices.DeleteFunc(slices.Clone(d), func(e bson.E) bool { return e.Key == monotonicIDFields })
	}
	g, err := parseGroup(groupSpec, p)
	if err != nil {
		return nil, err
	}
	s := &streamingGroupStage{groupStage: g, idFields: groupIDFieldNames(g.idSpec)}
	fields, ok := value.Get(d, monotonicIDFields).(bson.A)
	if !ok {
		return nil, mongoerr.New(7026702, "streaming group must specify an array of monotonic id fields "+monotonicIDFields)
	}
	if len(s.idFields) == 0 {
		if len(fields) != 1 || fields[0] != "_id" {
			return nil, mongoerr.New(7026703, `if there is no explicit id fields, `+monotonicIDFields+` must contain a single "_id" string`)
		}
		s.monotonic = []int{0}
		return []Stage{s}, nil
	}
	for _, f := range fields {
		name, isStr := f.(string)
		if !isStr {
			return nil, mongoerr.New(7026704, monotonicIDFields+" elements must be strings")
		}
		i := slices.Index(s.idFields, name)
		if i < 0 {
			return nil, mongoerr.New(7026705, "id field not found")
		}
		s.monotonic = append(s.monotonic, i)
	}
	slices.Sort(s.monotonic)
	return []Stage{s}, nil
}

// groupIDFieldNames are the field names of an _id that is an object of
// fields (DocumentSourceGroup's idFieldNames); nil for any other _id.
func groupIDFieldNames(id any) []string {
	d, ok := id.(bson.D)
	if !ok || len(d) == 0 || strings.HasPrefix(d[0].Key, "$") {
		return nil
	}
	names := make([]string, len(d))
	for i, e := range d {
		names[i] = e.Key
	}
	return names
}

func (s *streamingGroupStage) Name() string { return "$_internalStreamingGroup" }

// Spec is the $group's serialization under the stage's name, with the
// monotonic fields last (serializeAdditionalFields).
func (s *streamingGroupStage) Spec() bson.D {
	body := s.groupStage.Spec()[0].Value.(bson.D)
	names := bson.A{"_id"}
	if len(s.idFields) > 0 {
		names = make(bson.A, len(s.monotonic))
		for i, m := range s.monotonic {
			names[i] = s.idFields[m]
		}
	}
	return stageSpec(s.Name(), append(body, bson.E{Key: monotonicIDFields, Value: names}))
}

func (s *streamingGroupStage) open(in Iterator, rt *runtime) (Iterator, error) {
	batch := &monotonicBatch{stage: s, in: in, env: rt.newEnv()}
	var ready []*group
	return funcIterator(func() (bson.D, bool, error) {
		for len(ready) == 0 {
			if batch.done {
				return nil, false, nil
			}
			batch.next()
			var err error
			if ready, err = s.consume(batch, rt); err != nil {
				return nil, false, err
			}
		}
		gr := ready[0]
		ready = ready[1:]
		return s.emit(gr, rt), true, nil
	}), nil
}

// monotonicBatch reads the input one batch at a time: it ends a batch
// before the first document whose monotonic _id values differ from the
// batch's, which starts the next one.
type monotonicBatch struct {
	stage   *streamingGroupStage
	in      Iterator
	env     *expr.Env
	last    []any  // the batch's monotonic values; nil before the first
	pending bson.D // the first document of the next batch
	ended   bool   // the current batch has ended
	done    bool   // the input has ended
	scratch []any
}

// next starts the following batch.
func (b *monotonicBatch) next() { b.ended = false }

func (b *monotonicBatch) Next() (bson.D, bool, error) {
	if b.ended || b.done {
		return nil, false, nil
	}
	if b.pending != nil {
		d := b.pending
		b.pending = nil
		return d, true, nil
	}
	d, ok, err := b.in.Next()
	if err != nil {
		return nil, false, err
	}
	if !ok {
		b.done = true
		return nil, false, nil
	}
	changed, err := b.changes(d)
	if err != nil {
		return nil, false, err
	}
	if changed {
		b.pending, b.ended = d, true
		return nil, false, nil
	}
	return d, true, nil
}

// changes evaluates d's monotonic _id values and reports whether they
// differ from the batch's, which they then become.
func (b *monotonicBatch) changes(d bson.D) (bool, error) {
	b.env.Reset(d)
	id, err := b.stage.id(b.env)
	if err != nil {
		return false, err
	}
	vals := b.scratch[:0]
	for _, m := range b.stage.monotonic {
		v := id
		if len(b.stage.idFields) > 0 {
			v = value.Get(id.(bson.D), b.stage.idFields[m])
		}
		// Nullish values sort together but group apart, and an array sorts
		// by one element but groups whole: neither keeps a batch whole.
		if _, isArray := v.(bson.A); isArray || v == nil || value.IsMissing(v) {
			return false, mongoerr.New(7026708, "Monotonic value should not be missing, null or an array")
		}
		vals = append(vals, v)
	}
	b.scratch = vals
	if b.last == nil {
		b.last = slices.Clone(vals)
		return false, nil
	}
	changed := false
	for i, v := range vals {
		if value.Compare(b.last[i], v) != 0 {
			b.last[i], changed = v, true
		}
	}
	return changed, nil
}

// streamGroups is enableStreamingGroupIfPossible
// (document_source_internal_unpack_bucket.cpp): a $group after an
// unpacking whose measurements are sorted on the time field, with no
// stage between them changing the time, becomes $_internalStreamingGroup
// when an _id field is increasing or decreasing in the time (the
// monotonic fields): its groups then complete batch by batch.
func streamGroups(stages []Stage) []Stage {
	for i, s := range stages {
		u, ok := s.(*unpackBucketStage)
		if !ok {
			continue
		}
		sorted := false
		for j := i + 1; j < len(stages); j++ {
			switch x := stages[j].(type) {
			case *groupStage:
				if !sorted {
					return stages
				}
				fields := groupIDFieldNames(x.idSpec)
				specs := []any{x.idSpec}
				if fields != nil {
					specs = make([]any, len(fields))
					for k, e := range x.idSpec.(bson.D) {
						specs[k] = e.Value
					}
				}
				var monotonic []int
				for k, spec := range specs {
					if m := monotony(spec, u.timeField); m == increasing || m == decreasing {
						monotonic = append(monotonic, k)
					}
				}
				if len(monotonic) > 0 {
					stages[j] = &streamingGroupStage{groupStage: x, idFields: fields, monotonic: monotonic}
				}
				return stages
			case *sortStage:
				sorted = strings.Join(x.Paths[0], ".") == u.timeField
				continue
			case *matchStage:
				continue
			case *projectStage:
			default:
				sorted = false
			}
			if mayModify(stages[j], u.timeField) {
				return stages
			}
		}
		return stages
	}
	return stages
}

// mayModify is GetModPathsReturn::canModify for stage s and path.
func mayModify(s Stage, path string) bool {
	mod, ok := modifiedPaths(s)
	if !ok {
		return true
	}
	related := func(p string) bool {
		return p == path || query.IsPathPrefixOf(p, path) || query.IsPathPrefixOf(path, p)
	}
	for newPath, oldPath := range mod.Renames {
		if related(newPath) && !(newPath == path && oldPath == path) {
			return true
		}
	}
	if mod.AllExcept {
		return !slices.ContainsFunc(mod.Paths, func(p string) bool { return p == path || query.IsPathPrefixOf(p, path) })
	}
	return slices.ContainsFunc(mod.Paths, related)
}

// monotonicState is monotonic::State: how an expression's value moves as
// the sorted field grows.
type monotonicState int

const (
	nonMonotonic monotonicState = iota
	constant
	increasing
	decreasing
)

// opposite is the state of the expression's negation.
func (m monotonicState) opposite() monotonicState {
	switch m {
	case increasing:
		return decreasing
	case decreasing:
		return increasing
	}
	return m
}

// combine is the state of a sum of two expressions.
func combine(a, b monotonicState) monotonicState {
	switch {
	case a == nonMonotonic || b == nonMonotonic:
		return nonMonotonic
	case a == b || a == constant:
		return b
	case b == constant:
		return a
	}
	return nonMonotonic
}

// monotony is Expression::getMonotonicState of an expression
// specification in the sorted field path (monotonic_expression.h and the
// overrides in expression.cpp): a constant, a field path to the sorted
// field, $add, $subtract, $floor, $ceil, and $dateTrunc, $dateAdd,
// $dateSubtract and $dateDiff with constant units and zones. A subtree
// with no field path or variable folds to a constant (expr.ConstantSpec),
// as optimize() makes it before mongod asks.
func monotony(spec any, sorted string) monotonicState {
	if expr.ConstantSpec(spec) {
		return constant
	}
	switch x := spec.(type) {
	case string:
		// A field path's first component is CURRENT (or the variable),
		// and the rest is compared with the sorted field.
		path := strings.TrimPrefix(x, "$")
		if strings.HasPrefix(path, "$") {
			_, path, _ = strings.Cut(path[1:], ".")
		}
		if path == sorted {
			return increasing
		}
		return nonMonotonic
	case bson.D:
		if len(x) != 1 {
			return nonMonotonic
		}
		args := x[0].Value
		switch x[0].Key {
		case "$add":
			state := constant
			for _, a := range operands(args) {
				state = combine(state, monotony(a, sorted))
			}
			return state
		case "$subtract":
			if ops := operands(args); len(ops) == 2 {
				return combine(monotony(ops[0], sorted), monotony(ops[1], sorted).opposite())
			}
		case "$floor", "$ceil":
			if ops := operands(args); len(ops) == 1 {
				return monotony(ops[0], sorted)
			}
		case "$dateTrunc":
			if constantArgs(args, "unit", "binSize", "timezone", "startOfWeek") {
				return monotony(value.Get(args.(bson.D), "date"), sorted)
			}
		case "$dateAdd", "$dateSubtract":
			// mongod combines the amount's state alike for both.
			if constantArgs(args, "unit", "timezone") {
				d := args.(bson.D)
				return combine(monotony(value.Get(d, "startDate"), sorted), monotony(value.Get(d, "amount"), sorted))
			}
		case "$dateDiff":
			if constantArgs(args, "unit", "timezone", "startOfWeek") {
				d := args.(bson.D)
				return combine(monotony(value.Get(d, "endDate"), sorted), monotony(value.Get(d, "startDate"), sorted).opposite())
			}
		}
	}
	return nonMonotonic
}

// operands are an operator's arguments: an array, or one argument.
func operands(args any) []any {
	if a, ok := args.(bson.A); ok {
		return a
	}
	return []any{args}
}

// constantArgs: args is an object whose named fields are missing or
// fold to constants (ExpressionConstant::allNullOrConstant).
func constantArgs(args any, names ...string) bool {
	d, ok := args.(bson.D)
	if !ok {
		return false
	}
	for _, n := range names {
		if v := value.Get(d, n); !value.IsMissing(v) && !expr.ConstantSpec(v) {
			return false
		}
	}
	return true
}
