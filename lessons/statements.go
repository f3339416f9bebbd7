package lessons

import (
	"errors"
	"slices"
	"strings"

	"github.com/schemalab/schemalab/sandbox/shell"
)

// presenter turns what ran into what the learner sees: statements with
// their formatted outputs (here), a comparison's figures (variants.go)
// and the pictures of a step (pictures.go, tree.go), reading the
// session's database where a picture needs more than the output showed.
type presenter struct{ st *state }

// blockResult is the outcome of evaluating block b, as shown.
func blockResult(b *Block, out *shell.Result, err error) BlockResult {
	return BlockResult{Block: b, Statements: statements(b.Text, out, err), Output: out.Transcript, Elapsed: out.Elapsed, Err: err}
}

// statements splits the result of evaluating code into its statements,
// as the shell attributed its output; res is nil when the code did not
// get to run. Output the shell could not place (past its output cap, or
// an error that ended the evaluation from outside, such as a cancel)
// goes with the last statement, or with the whole code as one statement
// when there is none.
func statements(code string, res *shell.Result, err error) []Statement {
	if res == nil {
		res = &shell.Result{}
	}
	var out []Statement
	for _, s := range res.Statements {
		st := Statement{StartLine: s.Span.StartLine, EndLine: s.Span.EndLine,
			Printed: strings.TrimRight(s.Printed, "\n"), Error: s.Error}
		if s.Output >= 0 && s.Output < len(res.Outputs) {
			st.Output = res.Outputs[s.Output].Text
		}
		out = append(out, st)
	}
	if err != nil && !slices.ContainsFunc(out, func(s Statement) bool { return s.Error != "" }) {
		msg := errText(err)
		if len(out) == 0 {
			lines := strings.Count(strings.TrimRight(code, "\n"), "\n") + 1
			out = append(out, Statement{StartLine: 1, EndLine: lines})
		}
		out[len(out)-1].Error = msg
	}
	if len(out) == 0 && strings.TrimSpace(res.Transcript) != "" {
		// Code the shell evaluated as a whole (a stage preview's function).
		lines := strings.Count(strings.TrimRight(code, "\n"), "\n") + 1
		out = append(out, Statement{StartLine: 1, EndLine: lines, Output: strings.TrimRight(res.Transcript, "\n")})
	}
	return out
}

func errText(err error) string {
	var ee *shell.EvalError
	if errors.As(err, &ee) {
		return ee.Text
	}
	return err.Error()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
