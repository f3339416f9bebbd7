// Package styles holds the TUI's lipgloss styles, built once for the
// terminal's background (light or dark) or for monochrome output.
package styles

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// Styles is every style the TUI draws with. Components read it through
// common.Common; nothing else builds styles.
type Styles struct {
	IsDark  bool
	NoColor bool

	App       lipgloss.Style
	Title     lipgloss.Style
	Subtitle  lipgloss.Style
	Muted     lipgloss.Style
	Text      lipgloss.Style
	Accent    lipgloss.Style
	Selected  lipgloss.Style
	Error     lipgloss.Style
	Success   lipgloss.Style
	Warning   lipgloss.Style
	Key       lipgloss.Style
	StatusBar lipgloss.Style
	Badge     lipgloss.Style

	PaneFocused lipgloss.Style
	PaneBlurred lipgloss.Style
	PaneTitle   lipgloss.Style

	BarFull   lipgloss.Style
	BarEmpty  lipgloss.Style
	BarBetter lipgloss.Style
	Better    lipgloss.Style
	TreeHit   lipgloss.Style

	Prompt lipgloss.Style
	Dialog lipgloss.Style
	Help   help.Styles

	// Code token styles for JavaScript highlighting.
	CodeKeyword  lipgloss.Style
	CodeString   lipgloss.Style
	CodeNumber   lipgloss.Style
	CodeComment  lipgloss.Style
	CodeFunction lipgloss.Style
	CodeOperator lipgloss.Style
	CodeField    lipgloss.Style
	CodePlain    lipgloss.Style

	// BarProgress is the filled part of catalog progress bars.
	BarProgress lipgloss.Style
}

// New builds the styles. noColor gives clean monochrome (NO_COLOR,
// --no-color): emphasis through bold, underline and reverse only.
func New(isDark, noColor bool) *Styles {
	if noColor {
		return monochrome()
	}
	ld := lipgloss.LightDark(isDark)
	c := lipgloss.Color
	// Colours are picked per background so contrast stays readable on both:
	// darker, saturated tones on light terminals, softer ones on dark.
	fg := ld(c("#1F2328"), c("#E6EDF3"))
	muted := ld(c("#57606A"), c("#8B949E"))
	faint := ld(c("#D0D7DE"), c("#30363D"))
	accent := ld(c("#0B6E4F"), c("#3FB68B")) // MongoDB-ish green
	accent2 := ld(c("#6639BA"), c("#B392F0"))
	red := ld(c("#CF222E"), c("#FF7B72"))
	green := ld(c("#1A7F37"), c("#56D364"))
	yellow := ld(c("#9A6700"), c("#E3B341"))
	blue := ld(c("#0550AE"), c("#79C0FF"))
	orange := ld(c("#953800"), c("#FFA657"))

	s := &Styles{IsDark: isDark}
	s.App = lipgloss.NewStyle()
	s.Title = lipgloss.NewStyle().Bold(true).Foreground(accent)
	s.Subtitle = lipgloss.NewStyle().Bold(true).Foreground(fg)
	s.Muted = lipgloss.NewStyle().Foreground(muted)
	s.Text = lipgloss.NewStyle().Foreground(fg)
	s.Accent = lipgloss.NewStyle().Foreground(accent)
	s.Selected = lipgloss.NewStyle().Bold(true).Foreground(accent2)
	s.Error = lipgloss.NewStyle().Bold(true).Foreground(red)
	s.Success = lipgloss.NewStyle().Bold(true).Foreground(green)
	s.Warning = lipgloss.NewStyle().Foreground(yellow)
	s.Key = lipgloss.NewStyle().Bold(true).Foreground(accent2)
	s.StatusBar = lipgloss.NewStyle().Foreground(muted)
	s.Badge = lipgloss.NewStyle().Bold(true).Foreground(ld(c("#FFFFFF"), c("#0D1117"))).Background(accent).Padding(0, 1)
	s.PaneFocused = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(accent)
	s.PaneBlurred = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(faint)
	s.PaneTitle = lipgloss.NewStyle().Bold(true).Foreground(accent2)
	s.BarFull = lipgloss.NewStyle().Foreground(blue)
	s.BarEmpty = lipgloss.NewStyle().Foreground(faint)
	s.BarBetter = lipgloss.NewStyle().Foreground(green)
	s.Better = lipgloss.NewStyle().Bold(true).Foreground(green)
	s.TreeHit = lipgloss.NewStyle().Bold(true).Foreground(orange)
	s.Prompt = lipgloss.NewStyle().Bold(true).Foreground(accent)
	s.Dialog = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(yellow).Padding(1, 2)
	s.Help = help.Styles{
		ShortKey:       lipgloss.NewStyle().Foreground(ld(c("#6E7781"), c("#9198A1"))),
		ShortDesc:      lipgloss.NewStyle().Foreground(ld(c("#8C959F"), c("#6E7681"))),
		ShortSeparator: lipgloss.NewStyle().Foreground(faint),
		Ellipsis:       lipgloss.NewStyle().Foreground(faint),
		FullKey:        lipgloss.NewStyle().Bold(true).Foreground(accent2),
		FullDesc:       lipgloss.NewStyle().Foreground(fg),
		FullSeparator:  lipgloss.NewStyle().Foreground(faint),
	}
	s.CodeKeyword = lipgloss.NewStyle().Foreground(red)
	s.CodeString = lipgloss.NewStyle().Foreground(blue)
	s.CodeNumber = lipgloss.NewStyle().Foreground(blue)
	s.CodeComment = lipgloss.NewStyle().Foreground(muted).Italic(true)
	s.CodeFunction = lipgloss.NewStyle().Foreground(accent2)
	s.CodeOperator = lipgloss.NewStyle().Foreground(fg)
	s.CodeField = lipgloss.NewStyle().Foreground(orange)
	s.CodePlain = lipgloss.NewStyle().Foreground(fg)
	s.BarProgress = lipgloss.NewStyle().Foreground(accent)
	return s
}

func monochrome() *Styles {
	plain := lipgloss.NewStyle()
	bold := plain.Bold(true)
	s := &Styles{NoColor: true, IsDark: true}
	s.App = plain
	s.Title = bold
	s.Subtitle = bold
	s.Muted = plain.Faint(true)
	s.Text = plain
	s.Accent = plain
	s.Selected = bold.Reverse(true)
	s.Error = bold
	s.Success = bold
	s.Warning = plain.Underline(true)
	s.Key = bold
	s.StatusBar = plain
	s.Badge = bold.Reverse(true).Padding(0, 1)
	s.PaneFocused = plain.Border(lipgloss.ThickBorder())
	s.PaneBlurred = plain.Border(lipgloss.NormalBorder())
	s.PaneTitle = bold
	s.BarFull = plain
	s.BarEmpty = plain.Faint(true)
	s.BarBetter = bold
	s.Better = bold.Underline(true)
	s.TreeHit = bold.Reverse(true)
	s.Prompt = bold
	s.Dialog = plain.Border(lipgloss.DoubleBorder()).Padding(1, 2)
	s.Help = help.Styles{ShortKey: bold, ShortDesc: plain, ShortSeparator: plain, Ellipsis: plain, FullKey: bold, FullDesc: plain, FullSeparator: plain}
	s.CodeKeyword, s.CodeString, s.CodeNumber = bold, plain, plain
	s.CodeComment, s.CodeFunction, s.CodeOperator, s.CodeField, s.CodePlain = plain.Faint(true), plain, plain, plain, plain
	s.BarProgress = plain
	return s
}

// PaneBorder is the border of a pane and the style to draw it with.
func (s *Styles) PaneBorder(focused bool) (lipgloss.Border, lipgloss.Style) {
	st := s.PaneBlurred
	if focused {
		st = s.PaneFocused
	}
	return st.GetBorderStyle(), lipgloss.NewStyle().Foreground(st.GetBorderTopForeground())
}

// Textarea is the editors' style: bubbles' own for the background, or
// plain for monochrome.
func (s *Styles) Textarea() textarea.Styles {
	if !s.NoColor {
		return textarea.DefaultStyles(s.IsDark)
	}
	plain := lipgloss.NewStyle()
	state := textarea.StyleState{Base: plain, Text: plain, LineNumber: plain.Faint(true), CursorLineNumber: plain.Bold(true),
		CursorLine: plain, EndOfBuffer: plain, Placeholder: plain.Faint(true), Prompt: plain, Selection: plain.Reverse(true)}
	return textarea.Styles{Focused: state, Blurred: state, Cursor: textarea.CursorStyle{Color: lipgloss.NoColor{}, Shape: tea.CursorBlock}}
}
