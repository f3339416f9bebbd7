package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2/tree"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/tui/styles"
)

// treePicture draws the tree with the returned nodes highlighted.
func treePicture(st *styles.Styles, t *lessons.Tree) string {
	if t == nil {
		return ""
	}
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
