package shell

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/dop251/goja"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// A classroom runs each student's session in a process of its own, while
// the lessons' templates are built once, in the room's process: a
// Portable crosses from one to the other as bytes. MarshalBinary writes
// its value graph as a flat list of nodes that refer to each other by
// index, so that shared objects and cycles survive the trip, and
// UnmarshalPortable rebuilds it, compiling carried functions anew.

type portableWire struct {
	DB         string
	Globals    []globalWire
	Removed    []string
	Unportable []Unportable
	Values     int
	Nodes      []nodeWire
}

type globalWire struct {
	Name  string
	Value int
}

// nodeWire is a pvalue; Items hold node indexes plus one, 0 for a hole.
type nodeWire struct {
	Kind uint8
	B    bool
	I    int64
	// NumBits is num's bits: gob leaves out a zero, and so would lose -0.
	NumBits   uint64
	Str       string
	Flags     string
	Big       []byte
	BSONKind  string
	BSON      []byte
	N         int64
	Keys      []string
	Items     []int
	NullProto bool
	ShellType string
}

// MarshalBinary encodes p for UnmarshalPortable.
func (p *Portable) MarshalBinary() ([]byte, error) {
	w := portableWire{DB: p.db, Removed: p.removed, Unportable: p.unportable, Values: p.values}
	index := map[*pvalue]int{}
	var add func(pv *pvalue) (int, error)
	add = func(pv *pvalue) (int, error) {
		if i, ok := index[pv]; ok {
			return i, nil
		}
		i := len(w.Nodes)
		index[pv] = i
		n := nodeWire{Kind: uint8(pv.kind), B: pv.b, I: pv.i, NumBits: math.Float64bits(pv.num), Str: pv.str, Flags: pv.flags, N: pv.n,
			Keys: pv.keys, NullProto: pv.nullProto, ShellType: pv.shellType}
		if pv.big != nil {
			n.Big, _ = pv.big.GobEncode()
		}
		if pv.kind == pBSON {
			kind, raw, err := encodeBSONValue(pv.bson)
			if err != nil {
				return 0, err
			}
			n.BSONKind, n.BSON = kind, raw
		}
		w.Nodes = append(w.Nodes, n)
		items := make([]int, len(pv.items))
		for j, item := range pv.items {
			if item == nil {
				continue
			}
			k, err := add(item)
			if err != nil {
				return 0, err
			}
			items[j] = k + 1
		}
		w.Nodes[i].Items = items
		return i, nil
	}
	for _, g := range p.globals {
		i, err := add(g.value)
		if err != nil {
			return nil, fmt.Errorf("global %s: %w", g.name, err)
		}
		w.Globals = append(w.Globals, globalWire{Name: g.name, Value: i})
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&w); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// UnmarshalPortable decodes what MarshalBinary wrote.
func UnmarshalPortable(data []byte) (*Portable, error) {
	var w portableWire
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&w); err != nil {
		return nil, fmt.Errorf("portable globals: %w", err)
	}
	nodes := make([]*pvalue, len(w.Nodes))
	for i := range nodes {
		nodes[i] = &pvalue{}
	}
	for i, n := range w.Nodes {
		pv := nodes[i]
		*pv = pvalue{kind: pkind(n.Kind), b: n.B, i: n.I, num: math.Float64frombits(n.NumBits), str: n.Str, flags: n.Flags, n: n.N,
			keys: n.Keys, nullProto: n.NullProto, shellType: n.ShellType}
		if pv.kind > pPromise {
			return nil, fmt.Errorf("portable globals: unknown value kind %d", n.Kind)
		}
		if n.Big != nil {
			pv.big = new(big.Int)
			if err := pv.big.GobDecode(n.Big); err != nil {
				return nil, fmt.Errorf("portable globals: %w", err)
			}
		}
		if pv.kind == pBSON {
			v, err := decodeBSONValue(n.BSONKind, n.BSON)
			if err != nil {
				return nil, err
			}
			pv.bson = v
		}
		if pv.kind == pFunction {
			prog, err := goja.Compile("", "("+pv.str+")", false)
			if err != nil {
				return nil, fmt.Errorf("portable globals: a carried function: %w", err)
			}
			pv.prog = prog
		}
		if len(n.Items) > 0 {
			pv.items = make([]*pvalue, len(n.Items))
			for j, k := range n.Items {
				if k < 0 || k > len(nodes) {
					return nil, errors.New("portable globals: a value refers to a value that is not there")
				}
				if k > 0 {
					pv.items[j] = nodes[k-1]
				}
			}
		}
		if pv.kind == pObject && len(pv.items) != len(pv.keys) || pv.kind == pPromise && len(pv.items) != 1 {
			return nil, errors.New("portable globals: a value is incomplete")
		}
	}
	p := &Portable{db: w.DB, removed: w.Removed, unportable: w.Unportable, values: w.Values}
	for _, g := range w.Globals {
		if g.Value < 0 || g.Value >= len(nodes) {
			return nil, fmt.Errorf("portable globals: global %s refers to a value that is not there", g.Name)
		}
		p.globals = append(p.globals, portableGlobal{name: g.Name, value: nodes[g.Value]})
	}
	return p, nil
}

// encodeBSONValue writes a shell BSON wrapper's Go value as a one-field
// document, with the kind that says which Go type to make of it again
// where BSON alone cannot (Int32 and Double wrappers, DBRefs).
func encodeBSONValue(v any) (string, []byte, error) {
	kind := ""
	switch x := v.(type) {
	case Int32Value:
		kind, v = "Int32", int32(x)
	case DoubleValue:
		kind, v = "Double", float64(x)
	case DBRef:
		kind, v = "DBRef", bson.D{{Key: "c", Value: x.Collection}, {Key: "id", Value: x.ID}, {Key: "db", Value: x.DB}, {Key: "f", Value: x.Fields}}
	}
	raw, err := bson.Marshal(bson.D{{Key: "v", Value: v}})
	if err != nil {
		return "", nil, fmt.Errorf("a %T value: %w", v, err)
	}
	return kind, raw, nil
}

func decodeBSONValue(kind string, raw []byte) (any, error) {
	var d bson.D
	if err := bson.Unmarshal(raw, &d); err != nil || len(d) != 1 {
		return nil, fmt.Errorf("portable globals: a BSON value: %v", err)
	}
	v := d[0].Value
	switch kind {
	case "":
		return v, nil
	case "Int32":
		if x, ok := v.(int32); ok {
			return Int32Value(x), nil
		}
	case "Double":
		if x, ok := v.(float64); ok {
			return DoubleValue(x), nil
		}
	case "DBRef":
		if doc, ok := v.(bson.D); ok && len(doc) == 4 {
			ref := DBRef{ID: doc[1].Value}
			ref.Collection, _ = doc[0].Value.(string)
			ref.DB, _ = doc[2].Value.(string)
			ref.Fields, _ = doc[3].Value.(bson.D)
			return ref, nil
		}
	}
	return nil, fmt.Errorf("portable globals: a %s value that is not one", kind)
}
