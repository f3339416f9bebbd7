// Package common is what every TUI component shares: the size it may draw
// in, the styles, the key map and what the user should know about the
// backend. It mirrors soft-serve's pkg/ui/common.
package common

import (
	"github.com/schemalab/schemalab/tui/keymap"
	"github.com/schemalab/schemalab/tui/styles"
)

// Common is handed to components by value; Width and Height are the area
// the component owns.
type Common struct {
	Width, Height int
	Styles        *styles.Styles
	KeyMap        *keymap.KeyMap
	// Present is --present: minimal chrome, larger margins, big bars.
	Present bool
	// Backend is shown plainly: "embedded sandbox", or a host and version.
	Backend string
}

// SetSize records the area the component owns.
func (c *Common) SetSize(w, h int) { c.Width, c.Height = w, h }
