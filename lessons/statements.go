package lessons

import (
	"slices"
	"strings"

	"github.com/schemalab/schemalab/sandbox/shell"
)

// Statement is one top-level statement of evaluated code and what it
// showed, for a view that puts each output right under its statement.
type Statement struct {
	// StartLine and EndLine are 1-based and inclusive, in the code as it
	// was evaluated.
	StartLine, EndLine int
	// Printed is what print, printjson and console.log wrote while it ran.
	Printed string
	// Output is its value as mongosh prints it; "" when undefined.
	Output string
	// Error is the error it stopped on, as mongosh prints it.
	Error string
}

// Statements splits the result of evaluating code into its statements,
// as the shell attributed its output. Output the shell could not place
// (past its output cap, or an error that ended the evaluation from
// outside, such as a cancel) goes with the last statement, or with the
// whole code as one statement when there is none.
func Statements(code string, res shell.Result, err error) []Statement {
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
