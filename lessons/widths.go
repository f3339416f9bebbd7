package lessons

import (
	"context"

	"github.com/schemalab/schemalab/sandbox/shell"
)

// Widths are the columns results are laid out for, as util.inspect's
// breakLength: Output for run and setup blocks, the scratch shell, edits
// and stage previews; Variant for comparison variants, which are shown
// in narrower columns. 0 is mongosh's 80. Output that an expectation
// reads is laid out at 80 whatever the widths, as the lesson's author saw
// it, and so is an exercise attempt, which its check reads.
type Widths struct{ Output, Variant int }

// SetWidths sets the widths for the operations that follow.
func (r *Runner) SetWidths(w Widths) { r.widths = w }

// eval evaluates src with results laid out width columns wide, then puts
// the session back at mongosh's width.
func (r *Runner) eval(ctx context.Context, width int, src string) (shell.Result, error) {
	r.sh.SetWidth(width)
	defer r.sh.SetWidth(0)
	return r.sh.Eval(ctx, src)
}

// widthFor is width for the output of block bi of st, unless an
// expectation reads it: the expect blocks right after it (before the
// next executable block) compare the output as the author wrote it.
func (r *Runner) widthFor(st *Step, bi, width int) int {
	for _, b := range st.Blocks[bi+1:] {
		switch b.Kind {
		case ExpectOutput, ExpectJS:
			return 0
		case Run, Compare:
			return width
		}
	}
	return width
}
