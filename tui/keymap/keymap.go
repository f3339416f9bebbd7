// Package keymap defines every key binding of the TUI in one place, so
// that the help shown through bubbles/help is always what the keys do.
package keymap

import "charm.land/bubbles/v2/key"

// KeyMap is the TUI's bindings.
type KeyMap struct {
	Up, Down         key.Binding
	PageUp, PageDown key.Binding
	Next, Prev       key.Binding
	Run              key.Binding
	Edit             key.Binding
	Focus            key.Binding
	Shell            key.Binding
	Stages           key.Binding
	Setup            key.Binding
	Group            key.Binding
	Hint             key.Binding
	Solution         key.Binding
	Reset            key.Binding
	ResetExercise    key.Binding
	Back             key.Binding
	Quit             key.Binding
	Cancel           key.Binding
	Help             key.Binding
	Open             key.Binding
	ExternalEditor   key.Binding
	CheckFromEditor  key.Binding
	HistoryUp        key.Binding
	HistoryDown      key.Binding
	Yes, No          key.Binding
	// Follow jumps to the step a classroom's instructor announced.
	Follow key.Binding
}

// Default is the key map issue 6 specifies.
func Default() *KeyMap {
	return &KeyMap{
		Up:              key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:            key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		PageUp:          key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup", "page up")),
		PageDown:        key.NewBinding(key.WithKeys("pgdown", "space"), key.WithHelp("pgdn", "page down")),
		Next:            key.NewBinding(key.WithKeys("n", "right"), key.WithHelp("n/→", "next step")),
		Prev:            key.NewBinding(key.WithKeys("p", "left"), key.WithHelp("p/←", "previous step")),
		Run:             key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
		Edit:            key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit")),
		Focus:           key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "focus")),
		Shell:           key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "scratch shell")),
		Stages:          key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "stage preview")),
		Setup:           key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "show/hide setup")),
		Group:           key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "next comparison")),
		Hint:            key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "hint")),
		Solution:        key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "view solution")),
		Reset:           key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reset lesson")),
		ResetExercise:   key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "start exercise over")),
		Back:            key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Quit:            key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		Cancel:          key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "cancel run / quit")),
		Help:            key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Open:            key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		ExternalEditor:  key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "$EDITOR")),
		CheckFromEditor: key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "run & check")),
		HistoryUp:       key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "history")),
		HistoryDown:     key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "history")),
		Yes:             key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes")),
		No:              key.NewBinding(key.WithKeys("n", "N", "esc"), key.WithHelp("n", "no")),
		Follow:          key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "follow the instructor")),
	}
}
