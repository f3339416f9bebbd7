// Package common is what every TUI component shares, as in soft-serve's
// pkg/ui/common: the Component interface, and the Common struct holding
// the size a component owns, the styles, the key map, the localizer every
// string goes through, present mode and the backend's label.
package common

import (
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/keymap"
	"github.com/schemalab/schemalab/tui/styles"
)

// Model is a Bubble Tea model that returns its own kind from Update and
// its frame as a string, for its parent to place.
type Model interface {
	Init() tea.Cmd
	Update(tea.Msg) (Model, tea.Cmd)
	View() string
}

// Component is a model with key help and a size its parent sets.
type Component interface {
	Model
	help.KeyMap
	SetSize(width, height int)
}

// Common is handed to components by value; Width and Height are the area
// the component owns.
type Common struct {
	Width, Height int
	Styles        *styles.Styles
	KeyMap        *keymap.KeyMap
	L             *locale.Localizer
	// Present is --present: minimal chrome, larger margins, big bars.
	Present bool
	// Backend is shown plainly: "embedded sandbox", or a host and version.
	Backend string
	// Durations formats run times; nil rounds them (tests fix them, so
	// that frames are stable).
	Durations func(time.Duration) string
}

// Duration is d as the status line and footers show it, in the units and
// with the decimal mark of the learner's language.
func (c Common) Duration(d time.Duration) string {
	if c.Durations != nil {
		return c.Durations(d)
	}
	return c.L.Duration(d)
}

// SetSize records the area the component owns.
func (c *Common) SetSize(w, h int) { c.Width, c.Height = w, h }

// T is message m of the localizer.
func (c Common) T(m *locale.Message, data any) string { return c.L.T(m, data) }

// N is message m in its plural form for n.
func (c Common) N(m *locale.Message, n int, data map[string]any) string { return c.L.N(m, n, data) }
