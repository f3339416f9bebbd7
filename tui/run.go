package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// Run starts the app on the terminal and blocks until the user quits. The
// sandbox it opened is closed before Run returns.
func Run(ctx context.Context, opts Options) error {
	m := New(ctx, opts)
	defer m.Close()
	popts := []tea.ProgramOption{tea.WithContext(ctx)}
	if opts.NoColor {
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	}
	_, err := tea.NewProgram(m, popts...).Run()
	return err
}
