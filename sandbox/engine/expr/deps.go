package expr

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Dependencies lists the document fields an aggregation expression reads,
// as mongod's Expression::addDependencies does, so that the query layer
// can fetch only those (a projection pushed below a pipeline, a covered
// find projection). The walk is syntactic, which is how mongod decides
// too: "$a.b" depends on a.b, "$$ROOT.a" on a, "$$v.x" on nothing (a
// variable), and $literal's operand on nothing.
func Dependencies(spec any) Deps {
	var d deps
	d.walk(spec)
	return Deps{Paths: d.paths, Whole: d.whole, Meta: d.meta}
}

// Deps is what an expression reads of its input document.
type Deps struct {
	Paths []string
	// Whole: the expression needs the entire document ($$ROOT,
	// $$CURRENT, or an operator that reads fields by computed name).
	Whole bool
	// Meta: it reads the document's metadata ($meta).
	Meta bool
}

type deps struct {
	paths []string
	whole bool
	meta  bool
}

func (d *deps) walk(spec any) {
	if d.whole {
		return
	}
	switch x := spec.(type) {
	case string:
		d.fieldPath(x)
	case bson.A:
		for _, e := range x {
			d.walk(e)
		}
	case bson.D:
		if len(x) == 1 && strings.HasPrefix(x[0].Key, "$") {
			d.operator(x[0].Key, x[0].Value)
			return
		}
		for _, e := range x {
			d.walk(e.Value)
		}
	}
}

func (d *deps) fieldPath(s string) {
	switch {
	case strings.HasPrefix(s, "$$"):
		name, rest, _ := strings.Cut(s[2:], ".")
		if name != "ROOT" && name != "CURRENT" {
			return
		}
		if rest == "" {
			d.whole = true
			return
		}
		d.paths = append(d.paths, rest)
	case strings.HasPrefix(s, "$"):
		d.paths = append(d.paths, s[1:])
	}
}

func (d *deps) operator(name string, arg any) {
	switch name {
	case "$meta":
		d.meta = true
		return
	case "$literal", "$const", "$rand":
		return
	case "$getField", "$setField", "$unsetField", "$function", "$accumulator":
		// They read or rewrite fields by name at run time (an implicit
		// $$CURRENT input), so nothing short of the document will do.
		d.whole = true
		return
	}
	d.walk(arg)
}

// MentionsMeta reports whether the specification v holds {$meta: name}
// anywhere outside a $literal: an expression, or a projection whose
// values are expressions, that depends on that metadata.
func MentionsMeta(v any, name string) bool {
	switch x := v.(type) {
	case bson.D:
		if len(x) == 1 && x[0].Key == "$meta" && x[0].Value == name {
			return true
		}
		if len(x) == 1 && x[0].Key == "$literal" {
			return false
		}
		for _, e := range x {
			if MentionsMeta(e.Value, name) {
				return true
			}
		}
	case bson.A:
		for _, e := range x {
			if MentionsMeta(e, name) {
				return true
			}
		}
	}
	return false
}
