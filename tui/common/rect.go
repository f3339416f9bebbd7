package common

import tea "charm.land/bubbletea/v2"

// Rect is the area a parent gives a child, in the parent's cells. A
// parent computes its children's rectangles once per size change and
// uses them to size, draw, route the mouse and place the cursor, so that
// the four never disagree.
type Rect struct{ X, Y, W, H int }

// Contains reports whether cell x, y is inside r.
func (r Rect) Contains(x, y int) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// Wheel is a mouse wheel message in the cells of the child drawn at r.
func (r Rect) Wheel(m tea.MouseWheelMsg) tea.MouseWheelMsg {
	m.X, m.Y = m.X-r.X, m.Y-r.Y
	return m
}

// Cursor is a child's cursor, given in the child's cells, in the
// parent's; nil stays nil.
func (r Rect) Cursor(c *tea.Cursor) *tea.Cursor {
	if c != nil {
		c.X += r.X
		c.Y += r.Y
	}
	return c
}
