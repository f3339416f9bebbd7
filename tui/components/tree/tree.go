// Package tree draws a category tree a step queried, in any of the four
// models lessons reads, with the nodes the step's outputs returned
// highlighted (and their $graphLookup depth).
package tree

import (
	"slices"
	"strings"

	lgtree "charm.land/lipgloss/v2/tree"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
)

var (
	msgLegend      = &locale.Message{ID: "tree.legend", Other: "tree · "}
	msgHighlighted = &locale.Message{ID: "tree.highlighted", Other: "highlighted"}
	msgReturned    = &locale.Message{ID: "tree.returned", Other: ": returned by the last run"}
	msgDepth       = &locale.Message{ID: "tree.depth", Other: "{{.Name}} · depth {{.Depth}}"}
)

// Render draws t as lines; nil draws nothing.
func Render(c common.Common, t *lessons.Tree) []string {
	if t == nil {
		return nil
	}
	st := c.Styles
	kids := map[string][]string{}
	var roots []string
	for _, id := range t.IDs {
		p := t.Parent[id]
		if p == "" || !slices.Contains(t.IDs, p) {
			roots = append(roots, id)
		} else {
			kids[p] = append(kids[p], id)
		}
	}
	label := func(id string) string {
		n := t.Name[id]
		if n == "" {
			n = id
		}
		if d, ok := t.Hits[id]; ok {
			if d >= 0 {
				n = c.T(msgDepth, map[string]any{"Name": n, "Depth": d})
			}
			return st.TreeHit.Render(n)
		}
		return st.Text.Render(n)
	}
	seen := map[string]bool{}
	var build func(id string) *lgtree.Tree
	build = func(id string) *lgtree.Tree {
		seen[id] = true
		tr := lgtree.Root(label(id)).EnumeratorStyle(st.Muted).IndenterStyle(st.Muted)
		for _, k := range kids[id] {
			if seen[k] { // a cycle in bad data must not loop forever
				continue
			}
			if len(kids[k]) == 0 {
				seen[k] = true
				tr.Child(label(k))
			} else {
				tr.Child(build(k))
			}
		}
		return tr
	}
	out := []string{st.Muted.Render(c.T(msgLegend, nil)) + st.TreeHit.Render(c.T(msgHighlighted, nil)) + st.Muted.Render(c.T(msgReturned, nil))}
	for _, r := range roots {
		out = append(out, strings.Split(build(r).String(), "\n")...)
	}
	// Nodes on a cycle of bad data are reached from no root: draw each
	// such cycle once, from its first node.
	for _, id := range t.IDs {
		if !seen[id] {
			out = append(out, strings.Split(build(id).String(), "\n")...)
		}
	}
	return out
}
