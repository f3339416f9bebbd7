package lessons

import (
	"context"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// Tree is a category tree read from the lesson database, in any of the
// four models (parent or child references, an array of ancestors, a
// materialized path), with the nodes a step's outputs returned.
type Tree struct {
	// IDs are the nodes in document order.
	IDs []string
	// Name and Parent map an id to its name and its parent's id ("" for
	// a root).
	Name, Parent map[string]string
	// Hits are the nodes the outputs returned, with their $graphLookup
	// depth (-1 when the output gave none).
	Hits map[string]int
}

// treeReadLimit bounds the nodes read for a picture.
const treeReadLimit = 500

// readTree loads the tree from the first collection the step used whose
// documents are tree nodes, and marks what the outputs returned.
func (p *presenter) readTree(ctx context.Context, run *stepRun, colls []string) *Tree {
	if !treeShaped(run) {
		return nil
	}
	db := p.st.client.Database(p.st.database())
	opts := options.Find().SetLimit(treeReadLimit).SetProjection(bson.D{{Key: "name", Value: 1}, {Key: "parent", Value: 1},
		{Key: "path", Value: 1}, {Key: "ancestors", Value: 1}, {Key: "children", Value: 1}})
	for _, n := range colls {
		cur, err := db.Collection(n).Find(ctx, bson.D{}, opts)
		if err != nil {
			continue
		}
		var docs []bson.D
		if err := cur.All(ctx, &docs); err != nil {
			continue
		}
		if t := buildTree(docs); t != nil {
			t.Hits = treeHits(t, run)
			return t
		}
	}
	return nil
}

// buildTree accepts any of the four tree models.
func buildTree(docs []bson.D) *Tree {
	t := &Tree{Name: map[string]string{}, Parent: map[string]string{}}
	byPath := map[string]string{}
	shaped := false
	for _, doc := range docs {
		idv, _ := field(doc, "_id")
		id, ok := idv.(string)
		if !ok {
			return nil
		}
		t.IDs = append(t.IDs, id)
		if n, ok := field(doc, "name"); ok {
			t.Name[id], _ = n.(string)
		}
		if p, ok := field(doc, "path"); ok {
			if ps, ok := p.(string); ok {
				byPath[ps] = id
			}
		}
	}
	for _, doc := range docs {
		idv, _ := field(doc, "_id")
		id := idv.(string)
		if p, ok := field(doc, "parent"); ok {
			shaped = true
			t.Parent[id], _ = p.(string)
		}
		if a, ok := field(doc, "ancestors"); ok {
			if arr, ok := a.(bson.A); ok {
				shaped = true
				if len(arr) > 0 {
					t.Parent[id], _ = arr[len(arr)-1].(string)
				}
			}
		}
		if c, ok := field(doc, "children"); ok {
			if arr, ok := c.(bson.A); ok {
				shaped = true
				for _, k := range arr {
					if ks, ok := k.(string); ok {
						t.Parent[ks] = id
					}
				}
			}
		}
		if p, ok := field(doc, "path"); ok {
			if ps, ok := p.(string); ok {
				shaped = true
				if i := strings.LastIndex(strings.TrimSuffix(ps, "/"), "/"); i > 0 {
					t.Parent[id] = byPath[ps[:i]]
				}
			}
		}
	}
	if !shaped || len(t.IDs) == 0 {
		return nil
	}
	return t
}

// treeHits collects what the outputs returned: documents by _id, name or
// path, and plain string ids (a parent, an ancestors array).
func treeHits(t *Tree, run *stepRun) map[string]int {
	byName := map[string]string{}
	for id, n := range t.Name {
		byName[n] = id
	}
	has := func(id string) bool { _, ok := t.Name[id]; return ok || slices.Contains(t.IDs, id) }
	hits := map[string]int{}
	mark := func(id string, depth int) {
		if d, ok := hits[id]; !ok || d < 0 {
			hits[id] = depth
		}
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if has(x) {
				mark(x, -1)
			}
		case bson.D:
			depth := -1
			if dv, ok := field(x, "depth"); ok {
				if n, ok := number(dv); ok {
					depth = int(n)
				}
			}
			id := ""
			if v, ok := field(x, "_id"); ok {
				if s, ok := v.(string); ok && has(s) {
					id = s
				}
			}
			if id == "" {
				if v, ok := field(x, "name"); ok {
					if s, ok := v.(string); ok {
						id = byName[s]
					}
				}
			}
			if id == "" {
				if v, ok := field(x, "path"); ok {
					if s, ok := v.(string); ok {
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
				walk(e.Value)
			}
		case bson.A:
			for _, e := range x {
				walk(e)
			}
		}
	}
	run.eachOutput(walk)
	return hits
}
