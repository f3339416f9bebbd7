package tui

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"charm.land/lipgloss/v2/tree"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/tui/styles"
)

// treeData is a category tree read from the lesson database and the nodes
// the last query returned, with their $graphLookup depth when known (-1
// otherwise).
type treeData struct {
	ids    []string          // in document order
	name   map[string]string // id → name
	parent map[string]string // id → parent id ("" for roots)
	hits   map[string]int    // id → depth
}

// treeShaped reports whether a step's outputs look like tree nodes, so
// that the tree is only read for steps about trees.
func treeShaped(res *lessons.StepResult) bool {
	found := false
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case bson.D:
			for _, e := range x {
				switch e.Key {
				case "parent", "path", "ancestors", "children", "depth":
					found = true
				}
				walk(e.Value)
			}
		case bson.A:
			for _, e := range x {
				walk(e)
			}
		}
	}
	for _, b := range res.Blocks {
		if b.Block != nil && b.Block.Kind == lessons.Run {
			for _, o := range b.Result.Outputs {
				walk(o.Value)
			}
		}
	}
	return found
}

var collectionRef = regexp.MustCompile(`db\.(?:getCollection\(\s*['"]([^'"]+)['"]\s*\)|([A-Za-z_][\w]*))\.`)

// readTree loads the tree from the first collection named in the step's
// code whose documents are tree nodes (parent, children, ancestors or a
// materialized path), and marks what the step's outputs returned.
func readTree(ctx context.Context, r *lessons.Runner, st *lessons.Step, res *lessons.StepResult) *treeData {
	if !treeShaped(res) {
		return nil
	}
	var names []string
	for _, b := range st.Code(lessons.Run) {
		for _, m := range collectionRef.FindAllStringSubmatch(b.Text, -1) {
			n := m[1] + m[2]
			if n != "getCollection" && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	for _, n := range names {
		out, err := r.Eval(ctx, fmt.Sprintf("db.getCollection(%q).find({}, { name: 1, parent: 1, path: 1, ancestors: 1, children: 1 }).limit(500).toArray()", n))
		if err != nil || len(out.Outputs) == 0 {
			continue
		}
		docs, _ := out.Outputs[len(out.Outputs)-1].Value.(bson.A)
		if t := buildTree(docs); t != nil {
			t.hits = treeHits(t, res)
			return t
		}
	}
	return nil
}

func str(v any) (string, bool) {
	s, ok := v.(string)
	return s, ok
}

// buildTree accepts any of the four tree patterns.
func buildTree(docs bson.A) *treeData {
	t := &treeData{name: map[string]string{}, parent: map[string]string{}}
	byPath := map[string]string{}
	shaped := false
	for _, d := range docs {
		doc, ok := d.(bson.D)
		if !ok {
			return nil
		}
		idv, _ := field(doc, "_id")
		id, ok := str(idv)
		if !ok {
			return nil
		}
		t.ids = append(t.ids, id)
		if n, ok := field(doc, "name"); ok {
			t.name[id], _ = str(n)
		}
		if p, ok := field(doc, "path"); ok {
			if ps, ok := str(p); ok {
				byPath[ps] = id
			}
		}
	}
	for _, d := range docs {
		doc := d.(bson.D)
		idv, _ := field(doc, "_id")
		id := idv.(string)
		if p, ok := field(doc, "parent"); ok {
			shaped = true
			t.parent[id], _ = str(p)
		}
		if a, ok := field(doc, "ancestors"); ok {
			if arr, ok := a.(bson.A); ok {
				shaped = true
				if len(arr) > 0 {
					t.parent[id], _ = str(arr[len(arr)-1])
				}
			}
		}
		if c, ok := field(doc, "children"); ok {
			if arr, ok := c.(bson.A); ok {
				shaped = true
				for _, k := range arr {
					if ks, ok := str(k); ok {
						t.parent[ks] = id
					}
				}
			}
		}
		if p, ok := field(doc, "path"); ok {
			if ps, ok := str(p); ok {
				shaped = true
				if i := strings.LastIndex(strings.TrimSuffix(ps, "/"), "/"); i > 0 {
					t.parent[id] = byPath[ps[:i]]
				}
			}
		}
	}
	if !shaped || len(t.ids) == 0 {
		return nil
	}
	return t
}

// treeHits collects what the outputs returned: documents by _id, name or
// path, and plain string ids (a parent, an ancestors array).
func treeHits(t *treeData, res *lessons.StepResult) map[string]int {
	byName := map[string]string{}
	for id, n := range t.name {
		byName[n] = id
	}
	has := func(id string) bool { _, ok := t.name[id]; return ok || slices.Contains(t.ids, id) }
	hits := map[string]int{}
	mark := func(id string, depth int) {
		if d, ok := hits[id]; !ok || d < 0 {
			hits[id] = depth
		}
	}
	var walk func(v any, top bool)
	walk = func(v any, top bool) {
		switch x := v.(type) {
		case string:
			if has(x) {
				mark(x, -1)
			}
		case bson.D:
			depth := -1
			if dv, ok := field(x, "depth"); ok {
				if n, ok := num(dv); ok {
					depth = int(n)
				}
			}
			id := ""
			if v, ok := field(x, "_id"); ok {
				if s, ok := str(v); ok && has(s) {
					id = s
				}
			}
			if id == "" {
				if v, ok := field(x, "name"); ok {
					if s, ok := str(v); ok {
						id = byName[s]
					}
				}
			}
			if id == "" {
				if v, ok := field(x, "path"); ok {
					if s, ok := str(v); ok {
						segs := strings.Split(strings.Trim(s, "/"), "/")
						id = byName[segs[len(segs)-1]]
					}
				}
			}
			if id != "" {
				mark(id, depth)
			}
			for _, e := range x {
				if e.Key == "_id" || e.Key == "name" || e.Key == "path" {
					continue
				}
				walk(e.Value, false)
			}
		case bson.A:
			for _, e := range x {
				walk(e, top)
			}
		}
	}
	for _, b := range res.Blocks {
		if b.Block != nil && b.Block.Kind == lessons.Run {
			for _, o := range b.Result.Outputs {
				walk(o.Value, true)
			}
		}
	}
	return hits
}

// treePicture draws the tree with the returned nodes highlighted.
func treePicture(st *styles.Styles, t *treeData) string {
	if t == nil {
		return ""
	}
	kids := map[string][]string{}
	var roots []string
	for _, id := range t.ids {
		p := t.parent[id]
		if p == "" || !slices.Contains(t.ids, p) {
			roots = append(roots, id)
		} else {
			kids[p] = append(kids[p], id)
		}
	}
	label := func(id string) string {
		n := t.name[id]
		if n == "" {
			n = id
		}
		if d, ok := t.hits[id]; ok {
			if d >= 0 {
				n += fmt.Sprintf(" · depth %d", d)
			}
			return st.TreeHit.Render(n)
		}
		return st.Text.Render(n)
	}
	seen := map[string]bool{}
	var build func(id string) *tree.Tree
	build = func(id string) *tree.Tree {
		seen[id] = true
		tr := tree.Root(label(id)).EnumeratorStyle(st.Muted).IndenterStyle(st.Muted)
		for _, k := range kids[id] {
			if seen[k] { // a cycle in bad data must not loop forever
				continue
			}
			if len(kids[k]) == 0 {
				tr.Child(label(k))
			} else {
				tr.Child(build(k))
			}
		}
		return tr
	}
	var parts []string
	for _, r := range roots {
		parts = append(parts, build(r).String())
	}
	legend := st.Muted.Render("tree · ") + st.TreeHit.Render("highlighted") + st.Muted.Render(": returned by the last run")
	return legend + "\n" + strings.Join(parts, "\n")
}
