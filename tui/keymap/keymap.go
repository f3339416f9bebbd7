// Package keymap defines every key binding of the TUI in one place, so
// that the help shown through bubbles/help is always what the keys do.
package keymap

import (
	"charm.land/bubbles/v2/key"

	"github.com/schemalab/schemalab/lessons/locale"
)

// KeyMap is the TUI's bindings.
type KeyMap struct {
	Up, Down         key.Binding
	PageUp, PageDown key.Binding
	Left, Right      key.Binding
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
	ShowAll          key.Binding
	Watch            key.Binding
	Reset            key.Binding
	ResetExercise    key.Binding
	Follow           key.Binding
	Back             key.Binding
	Quit             key.Binding
	Cancel           key.Binding
	Help             key.Binding
	Open             key.Binding
	// OpenLesson opens the lesson an advise finding names; URI types the
	// server advise reads.
	OpenLesson      key.Binding
	URI             key.Binding
	ExternalEditor  key.Binding
	CheckFromEditor key.Binding
	HistoryUp       key.Binding
	HistoryDown     key.Binding
	// LogUp and LogDown page an input's output while the input has the
	// keyboard, where b and space are typed.
	LogUp, LogDown       key.Binding
	Yes, No              key.Binding
	ScrollTop, ScrollEnd key.Binding
	// Present and ClearAnnouncement are the classroom dashboard's: the
	// course in present mode, and the end of the room's announcement.
	Present, ClearAnnouncement key.Binding
}

var (
	helpUp            = &locale.Message{ID: "key.up", Other: "up"}
	helpDown          = &locale.Message{ID: "key.down", Other: "down"}
	helpPageUp        = &locale.Message{ID: "key.pageUp", Other: "page up"}
	helpPageDown      = &locale.Message{ID: "key.pageDown", Other: "page down"}
	helpLeft          = &locale.Message{ID: "key.scrollLeft", Other: "scroll left"}
	helpRight         = &locale.Message{ID: "key.scrollRight", Other: "scroll right"}
	helpTop           = &locale.Message{ID: "key.top", Other: "top"}
	helpEnd           = &locale.Message{ID: "key.bottom", Other: "bottom"}
	helpNext          = &locale.Message{ID: "key.next", Other: "next step"}
	helpPrev          = &locale.Message{ID: "key.prev", Other: "previous step"}
	helpRun           = &locale.Message{ID: "key.run", Other: "run"}
	helpEdit          = &locale.Message{ID: "key.edit", Other: "edit"}
	helpFocus         = &locale.Message{ID: "key.focus", Other: "focus"}
	helpShell         = &locale.Message{ID: "key.shell", Other: "scratch shell"}
	helpStages        = &locale.Message{ID: "key.stages", Other: "stage preview"}
	helpSetup         = &locale.Message{ID: "key.setup", Other: "show/hide setup"}
	helpGroup         = &locale.Message{ID: "key.group", Other: "next comparison"}
	helpHint          = &locale.Message{ID: "key.hint", Other: "hint"}
	helpSolution      = &locale.Message{ID: "key.solution", Other: "view solution"}
	helpShowAll       = &locale.Message{ID: "key.showAll", Other: "show all / collapse"}
	helpWatch         = &locale.Message{ID: "key.watch", Other: "watch a file"}
	helpReset         = &locale.Message{ID: "key.reset", Other: "reset lesson"}
	helpResetExercise = &locale.Message{ID: "key.resetExercise", Other: "start exercise over"}
	helpFollow        = &locale.Message{ID: "key.follow", Other: "follow the instructor"}
	helpBack          = &locale.Message{ID: "key.back", Other: "back"}
	helpQuit          = &locale.Message{ID: "key.quit", Other: "quit"}
	helpCancel        = &locale.Message{ID: "key.cancel", Other: "cancel run / quit"}
	helpHelp          = &locale.Message{ID: "key.help", Other: "help"}
	helpOpen          = &locale.Message{ID: "key.open", Other: "open"}
	helpOpenLesson    = &locale.Message{ID: "key.openLesson", Other: "open its lesson"}
	helpURI           = &locale.Message{ID: "key.uri", Other: "type a URI"}
	helpExternal      = &locale.Message{ID: "key.externalEditor", Other: "$EDITOR"}
	helpCheck         = &locale.Message{ID: "key.checkFromEditor", Other: "run & check"}
	helpHistory       = &locale.Message{ID: "key.history", Other: "history"}
	helpYes           = &locale.Message{ID: "key.yes", Other: "yes"}
	helpNo            = &locale.Message{ID: "key.no", Other: "no"}
	helpPresent       = &locale.Message{ID: "dashboard.key.present", Other: "present"}
	helpClear         = &locale.Message{ID: "dashboard.key.clear", Other: "clear announcement"}
)

// Default is the TUI's key map, its help in l's language.
func Default(l *locale.Localizer) *KeyMap {
	b := func(help *locale.Message, label string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(label, l.T(help, nil)))
	}
	return &KeyMap{
		Up:                b(helpUp, "↑/k", "k", "up"),
		Down:              b(helpDown, "↓/j", "j", "down"),
		PageUp:            b(helpPageUp, "pgup", "pgup", "b"),
		PageDown:          b(helpPageDown, "pgdn", "pgdown", "space"),
		Left:              b(helpLeft, "shift+←", "shift+left", "<"),
		Right:             b(helpRight, "shift+→", "shift+right", ">"),
		ScrollTop:         b(helpTop, "home", "home"),
		ScrollEnd:         b(helpEnd, "end", "end"),
		Next:              b(helpNext, "n/→", "n", "right"),
		Prev:              b(helpPrev, "p/←", "p", "left"),
		Run:               b(helpRun, "enter", "enter"),
		Edit:              b(helpEdit, "e", "e"),
		Focus:             b(helpFocus, "tab", "tab"),
		Shell:             b(helpShell, ":", ":"),
		Stages:            b(helpStages, "s", "s"),
		Setup:             b(helpSetup, "x", "x"),
		Group:             b(helpGroup, "g", "g"),
		Hint:              b(helpHint, "h", "h"),
		Solution:          b(helpSolution, "v", "v"),
		ShowAll:           b(helpShowAll, "a", "a"),
		Watch:             b(helpWatch, "w", "w"),
		Reset:             b(helpReset, "r", "r"),
		ResetExercise:     b(helpResetExercise, "u", "u"),
		Follow:            b(helpFollow, "f", "f"),
		Back:              b(helpBack, "esc", "esc"),
		Quit:              b(helpQuit, "q", "q"),
		Cancel:            b(helpCancel, "ctrl+c", "ctrl+c"),
		Help:              b(helpHelp, "?", "?"),
		Open:              b(helpOpen, "enter", "enter"),
		OpenLesson:        b(helpOpenLesson, "o/enter", "o", "enter"),
		URI:               b(helpURI, "u", "u"),
		ExternalEditor:    b(helpExternal, "ctrl+o", "ctrl+o"),
		CheckFromEditor:   b(helpCheck, "ctrl+r", "ctrl+r"),
		HistoryUp:         b(helpHistory, "↑", "up"),
		HistoryDown:       b(helpHistory, "↓", "down"),
		LogUp:             b(helpPageUp, "pgup", "pgup"),
		LogDown:           b(helpPageDown, "pgdn", "pgdown"),
		Yes:               b(helpYes, "y", "y", "Y"),
		No:                b(helpNo, "n", "n", "N", "esc"),
		Present:           b(helpPresent, "p", "p"),
		ClearAnnouncement: b(helpClear, "c", "c"),
	}
}

// WithHelp is b with its help changed, for a key whose meaning depends
// on the screen (enter runs, checks or reveals).
func WithHelp(b key.Binding, k, desc string) key.Binding {
	b.SetHelp(k, desc)
	return b
}
