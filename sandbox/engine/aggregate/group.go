package aggregate

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

type groupStage struct {
	idSpec any // the _id as explain shows it
	id     func(env *expr.Env) (any, error)
	accs   []*accStatement
	// distinctKey is the path a DISTINCT_SCAN can group on: the _id is
	// that one field path ("$a.b"), or an object of one such field
	// (distinctIDField); empty otherwise. distinctPath evaluates it.
	distinctKey     string
	distinctIDField string
	distinctPath    expr.Expr

	// Execution statistics for explain: the BSON size of the output, and
	// per accumulator the BSON size of its results over all groups (the
	// model of its memory use).
	outputBytes int64
	accBytes    []int64
}

func (g *groupStage) execStats() bson.D {
	mem := bson.D{}
	for i, a := range g.accs {
		var n int64
		if i < len(g.accBytes) {
			n = g.accBytes[i]
		}
		mem = append(mem, bson.E{Key: a.field, Value: n})
	}
	return bson.D{
		{Key: "maxAccumulatorMemoryUsageBytes", Value: mem},
		{Key: "totalOutputDataSizeBytes", Value: g.outputBytes},
		{Key: "usedDisk", Value: false},
		{Key: "spills", Value: int64(0)},
		{Key: "spilledDataStorageSize", Value: int64(0)},
		{Key: "numBytesSpilledEstimate", Value: int64(0)},
		{Key: "spilledRecords", Value: int64(0)},
	}
}

func parseGroupStage(spec any, p *parser) ([]Stage, error) {
	g, err := parseGroup(spec, p)
	if err != nil {
		return nil, err
	}
	return g.withCommonSortKeys(p), nil
}

func parseGroup(spec any, p *parser) (*groupStage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrGroupNotObject, "a group's fields must be specified in an object")
	}
	g := &groupStage{}
	idSeen := false
	for _, e := range d {
		if e.Key == "_id" {
			if idSeen {
				return nil, mongoerr.New(mongoerr.ErrGroupDuplicateID, "a group's _id may only be specified once")
			}
			idSeen = true
			id, err := parseGroupID(e.Value, p)
			if err != nil {
				return nil, err
			}
			g.idSpec, g.id = e.Value, id
			continue
		}
		st, err := parseAccStatement(e.Key, e.Value, p)
		if err != nil {
			return nil, err
		}
		g.accs = append(g.accs, st)
	}
	if !idSeen {
		return nil, mongoerr.New(mongoerr.ErrGroupMissingID, "a group specification must include an _id")
	}
	return g, g.setDistinctKey(p)
}

// setDistinctKey finds the single field path the _id groups on, as
// getRewriteGroupRequirements does: a variable ($$ROOT, $$x.a) is not one.
func (g *groupStage) setDistinctKey(p *parser) error {
	spec := g.idSpec
	if d, ok := spec.(bson.D); ok && len(d) == 1 && !strings.HasPrefix(d[0].Key, "$") {
		g.distinctIDField, spec = d[0].Key, d[0].Value
	}
	path, ok := spec.(string)
	if !ok || len(path) < 2 || path[0] != '$' || path[1] == '$' {
		g.distinctIDField = ""
		return nil
	}
	x, err := p.compile(path)
	if err != nil {
		return err
	}
	g.distinctKey, g.distinctPath = path[1:], x
	return nil
}

// parseGroupID compiles the _id. An object of fields ({a: "$a", b: "$b"})
// is grouped on its fields' values, as mongod's setIdExpression does: with
// one field a missing value becomes null ({a: null}, one group for null and
// missing), with several a missing field is left out of the key.
func parseGroupID(spec any, p *parser) (func(env *expr.Env) (any, error), error) {
	d, isDoc := spec.(bson.D)
	if !isDoc || len(d) == 0 || strings.HasPrefix(d[0].Key, "$") {
		x, err := p.compile(spec)
		if err != nil {
			return nil, err
		}
		return x.Eval, nil
	}
	for _, e := range d {
		if _, isBool := e.Value.(bool); isBool || value.IsNumber(e.Value) {
			return nil, mongoerr.New(mongoerr.ErrGroupInclusionID, "$group does not support inclusion-style expressions")
		}
	}
	// The object as a whole gets mongod's checks on its field names.
	if _, err := p.compile(d); err != nil {
		return nil, err
	}
	fields := make([]expr.Expr, len(d))
	for i, e := range d {
		x, err := p.compile(e.Value)
		if err != nil {
			return nil, err
		}
		fields[i] = x
	}
	return func(env *expr.Env) (any, error) {
		out := make(bson.D, 0, len(d))
		for i, x := range fields {
			v, err := x.Eval(env)
			if err != nil {
				return nil, err
			}
			if value.IsMissing(v) {
				if len(fields) > 1 {
					continue
				}
				v = nil
			}
			out = append(out, bson.E{Key: d[i].Key, Value: v})
		}
		return out, nil
	}, nil
}

func (g *groupStage) Name() string { return "$group" }

func (g *groupStage) Spec() bson.D {
	body := bson.D{{Key: "_id", Value: expr.SerializeExplain(g.idSpec, nil)}}
	for _, a := range g.accs {
		body = append(body, bson.E{Key: a.field, Value: a.explainSpec()})
	}
	return stageSpec("$group", body)
}

// explainSpec is {op: arg} as AccumulatorState::serialize (and its
// overrides) writes the statement for explain, in $group and $bucketAuto:
// the one argument is an expression as it serializes (AccumulationStatement
// and ExpressionConstant); $count became a $sum of 1; the $top family and
// the AccumulatorN family write their named arguments in their own order;
// $percentile and $median write what they parsed (a.explain); other named
// arguments are kept as given.
func (a *accStatement) explainSpec() bson.D {
	op, arg := a.op, a.spec
	switch tb, isTB := topBottomMemberOf(a); {
	case a.explain != nil:
		arg = a.explain
	case op == "$count":
		// parseCountAccumulator makes it a $sum of 1.
		op, arg = "$sum", bson.D{{Key: "$const", Value: int32(1)}}
	case isTB:
		arg = tb.serialize(expr.SerializeExplain)
	case expr.IsNOperator(op):
		if nd, ok := nExplain(op, arg, nil); ok {
			arg = nd
		}
	default:
		if d, named := arg.(bson.D); !named || len(d) == 0 || strings.HasPrefix(d[0].Key, "$") {
			arg = expr.SerializeExplain(arg, nil)
		}
	}
	return bson.D{{Key: op, Value: arg}}
}

type group struct {
	id   any
	accs []accumulator
}

func (g *groupStage) open(in Iterator, rt *runtime) (Iterator, error) {
	return blockingIterator(func() ([]*group, error) { return g.consume(in, rt) }, func(gr *group) bson.D {
		return g.emit(gr, rt)
	}), nil
}

// emit is a finished group's output document.
func (g *groupStage) emit(gr *group, rt *runtime) bson.D {
	out := make(bson.D, 0, 1+len(gr.accs))
	out = append(out, bson.E{Key: "_id", Value: gr.id})
	if g.accBytes == nil {
		g.accBytes = make([]int64, len(g.accs))
	}
	for i, a := range gr.accs {
		r := a.result()
		if rt.explain {
			g.accBytes[i] += int64(value.ValueSize(r))
		}
		out = append(out, bson.E{Key: g.accs[i].field, Value: r})
	}
	if rt.explain {
		g.outputBytes += int64(value.Size(out))
	}
	return out
}

// groupMemoryExceeded is DocumentSourceGroup's error past
// internalDocumentSourceGroupMaxMemoryBytes with allowDiskUse: false.
func groupMemoryExceeded() error {
	return mongoerr.New(mongoerr.QueryExceededMemoryLimitNoDiskUseAllowed,
		"Exceeded memory limit for $group, but didn't allow external sort. Pass allowDiskUse:true to opt in.")
}

// consume reads the whole input into a hash map keyed by the encoded group
// key; only the groups and their accumulators stay in memory, and a
// document costs no allocation beyond what its expressions need.
//
// With allowDiskUse: false it also keeps mongod's account of the stage's
// memory, each group's key plus its accumulators (value.MemSize of what
// they hold), and fails past value.MemoryLimit. With disk use allowed
// mongod would spill groups to disk; they stay in memory here, so nothing
// is counted and the common path pays nothing.
func (g *groupStage) consume(in Iterator, rt *runtime) ([]*group, error) {
	env, keyEnv := rt.newEnv(), rt.newEnv()
	index := map[string]*group{}
	var order []*group
	var key []byte
	limited := rt.ctx.NoDiskUse
	var mem int
	for n := 0; ; n++ {
		if n&4095 == 4095 {
			if err := rt.ctx.err(); err != nil {
				return nil, err
			}
		}
		d, ok, err := in.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		env.Reset(d)
		id, err := g.id(env)
		if err != nil {
			return nil, err
		}
		if value.IsMissing(id) {
			id = nil
		}
		key = appendKey(key[:0], id)
		gr, ok := index[string(key)]
		if !ok {
			gr = &group{id: id, accs: make([]accumulator, len(g.accs))}
			// An accumulator's n ($firstN, $topN...) is evaluated against
			// the group key, as mongod's group processor does: "$k" in n
			// is the _id's field k.
			idDoc, _ := id.(bson.D)
			keyEnv.Reset(idDoc)
			for i, st := range g.accs {
				if gr.accs[i], err = st.newAcc(keyEnv); err != nil {
					return nil, err
				}
			}
			index[string(key)] = gr
			order = append(order, gr)
			if limited {
				mem += value.MemSize(id) + len(gr.accs)*accumulatorBaseMem
			}
		}
		for i, st := range g.accs {
			v, err := st.input(env)
			if err != nil {
				return nil, err
			}
			if limited {
				err = addCounted(gr.accs[i], v, &mem)
			} else {
				err = gr.accs[i].add(v)
			}
			if err != nil {
				return nil, err
			}
		}
		if limited && mem > value.MemoryLimit {
			return nil, groupMemoryExceeded()
		}
	}
	// An empty input yields no groups at all, even for _id: null.
	return order, nil
}

// addCounted adds v to acc and carries the change of its memory into mem.
func addCounted(acc accumulator, v any, mem *int) error {
	m, ok := acc.(memAccumulator)
	if !ok {
		return acc.add(v)
	}
	*mem -= m.mem()
	err := acc.add(v)
	*mem += m.mem()
	return err
}
