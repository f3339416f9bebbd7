package lessons

import (
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

// Statements splits the result of evaluating code into its statements.
// The shell attributes output to statements when it can; otherwise the
// whole block is one statement holding the transcript, which still shows
// the output under the code that produced it.
func Statements(code string, res shell.Result, err error) []Statement {
	lines := strings.Count(strings.TrimRight(code, "\n"), "\n") + 1
	st := Statement{StartLine: 1, EndLine: lines, Output: strings.TrimRight(res.Transcript, "\n")}
	if err != nil {
		msg := errText(err)
		st.Error = msg
		st.Output = strings.TrimRight(strings.TrimSuffix(st.Output, msg), "\n")
	}
	if st.Output == "" && st.Error == "" {
		return nil
	}
	return []Statement{st}
}
