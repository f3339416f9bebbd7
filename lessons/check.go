package lessons

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox/shell"
)

var (
	msgExplainOnlyAttempts = &locale.Message{ID: "check.explainOnlyAttempts", Other: "explain is only for exercise attempts"}
	msgExplainNoCommand    = &locale.Message{ID: "check.explainNoCommand", Other: "explain: no command {{.N}} was recorded"}
	msgCheckStopped        = &locale.Message{ID: "check.stopped", Other: "the check stopped with an error: {{.Err}}"}
	msgCheckThrew          = &locale.Message{ID: "check.threw", Other: "the check stopped with an error ({{.File}}:{{.Line}}): {{.Err}}"}
	msgNoVerdict           = &locale.Message{ID: "check.noVerdict", Other: "the check gave no verdict: its last statement must be true, false, a message or { pass, message }, not {{.Value}}"}
	msgCheckFalse          = &locale.Message{ID: "check.false", Other: "not yet: the check returned false"}
)

// checkWords are the messages check.js puts together for a check's
// helpers (readsOnly, explain), by the name it asks for.
var checkWords = map[string]*locale.Message{
	"readOthers":   {ID: "check.readOthers", Other: "your code read {{.Others}}: the task asks for {{.Coll}} only"},
	"neverRead":    {ID: "check.neverRead", Other: "your code never read {{.Coll}}"},
	"readOnly":     {ID: "check.readOnly", Other: "your code read {{.Coll}} only"},
	"explainRange": {ID: "check.explainRange", One: "explain({{.I}}): there was {{.Count}} read", Other: "explain({{.I}}): there were {{.Count}} reads"},
}

// checkSay is check.js's way to the messages of checkWords: a name and
// the data of its placeholders (a count, for a plural one, in Count).
func (g *grader) checkSay(name string, data map[string]any) string {
	m := checkWords[name]
	if m == nil {
		return name
	}
	switch n := data["Count"].(type) {
	case int64:
		return g.st.opts.Locale.N(m, int(n), data)
	case float64:
		return g.st.opts.Locale.N(m, int(n), data)
	}
	return g.st.say(m, data)
}

//go:embed check.js
var checkScope string

// checkFile names the check scope in JavaScript stack traces, which is
// how a thrown check's own line is told from the session's.
const checkFile = "schemalab:check.js"

// verdict is a check's or a js expect block's answer.
type verdict struct {
	Pass bool
	// Message is shown on success and on failure: the check's own words,
	// what it printed, or why it gave no verdict.
	Message string
	// Threw is the error a check threw ("" if none), and Line its line in
	// the lesson file.
	Threw string
	Line  int
	// errorSeen reports that the check looked at attempt.error, so that a
	// thrown attempt is the check's to judge.
	errorSeen bool
}

// grader judges what ran: expectations (expect.go and here), exercise
// attempts and the authoring guard (exercise.go), and what an attempt
// left beside what the reference solution leaves (goal.go).
type grader struct {
	st *state
	// goals are the reference solutions' results by step, computed on
	// first use; they outlive a reset, since they are what the solutions
	// leave on the lesson's deterministic data, which a reset rebuilds
	// the same (and which a server without snapshots resets often).
	goals map[int]*goal
	// solved records, with goals, whether each exercise's reference
	// solution passes its check.
	solved map[int]bool
}

// predicateInput is what a check sees of the code before it.
type predicateInput struct {
	output  string
	attempt *attemptRecord
	// explain explains recorded command k on the data as it was before
	// the attempt (nil outside attempts).
	explain func(k int) (string, error)
}

// attemptRecord is an attempt as a check sees it.
type attemptRecord struct {
	output string
	value  any
	// valueText is the value as mongosh printed it.
	valueText string
	err       error
	commands  []Command
}

// predicate evaluates a check or js expect block b in a scope of its own
// (check.js): its helpers are not globals of the session. The block
// passes when its last statement is true or { pass: true }; a string is
// a failure message.
func (g *grader) predicate(ctx context.Context, b *Block, in predicateInput) (verdict, shell.Result) {
	input := bson.D{{Key: "output", Value: in.output}}
	if a := in.attempt; a != nil {
		input = append(input, bson.E{Key: "attempt", Value: a.document()})
	}
	raw, err := bson.MarshalExtJSON(input, true, false)
	if err != nil && in.attempt != nil {
		// A value BSON cannot hold reaches the check as mongosh printed it.
		a := *in.attempt
		a.value = a.valueText
		input[len(input)-1].Value = a.document()
		raw, err = bson.MarshalExtJSON(input, true, false)
	}
	if err != nil {
		return verdict{Message: "internal error: " + err.Error()}, shell.Result{}
	}
	explain := in.explain
	if explain == nil {
		explain = func(int) (string, error) { return "", errors.New(g.st.say(msgExplainOnlyAttempts, nil)) }
	}
	side := map[string]any{
		"check": b.Text,
		"input": string(raw),
		"mark":  func() int { return g.st.rec.count() },
		"say":   g.checkSay,
		"since": func(n int) (string, error) { return commandsJSON(g.st.rec.since(n)) },
		"explain": func(k int) (string, error) {
			if g.st.rec.count() <= k {
				return "", errors.New(g.st.say(msgExplainNoCommand, map[string]any{"N": k}))
			}
			return explain(k)
		},
	}
	res, err := g.st.sh.EvalFunction(ctx, checkFile, checkScope, map[string]any{"__schemalab": side})
	if err != nil {
		return verdict{Threw: errText(err), Line: b.Line, Message: g.st.say(msgCheckStopped, map[string]any{"Err": firstLine(errText(err))})}, res
	}
	var out struct {
		Pass      bool    `json:"pass"`
		Message   *string `json:"message"`
		Plain     bool    `json:"plain"`
		Threw     string  `json:"threw"`
		Stack     string  `json:"stack"`
		Invalid   string  `json:"invalid"`
		ErrorSeen bool    `json:"errorSeen"`
	}
	text := ""
	if len(res.Outputs) > 0 {
		text, _ = res.Outputs[len(res.Outputs)-1].Value.(string)
	}
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		return verdict{Message: "internal error: the check scope answered " + strconv.Quote(text)}, res
	}
	v := verdict{Pass: out.Pass, errorSeen: out.ErrorSeen}
	printed := strings.TrimRight(res.Printed, "\n")
	switch {
	case out.Threw != "":
		v.Pass, v.Threw, v.Line = false, out.Threw, b.Line+checkLine(out.Threw, out.Stack)
		v.Message = g.st.say(msgCheckThrew, map[string]any{"File": g.st.lesson.File, "Line": v.Line, "Err": firstLine(out.Threw)})
	case out.Invalid != "":
		v.Message = g.st.say(msgNoVerdict, map[string]any{"Value": out.Invalid})
	case out.Message != nil && *out.Message != "":
		v.Message = *out.Message
	case printed != "":
		v.Message = printed
	case !out.Pass:
		v.Message = g.st.say(msgCheckFalse, nil)
	}
	return v, res
}

// stackFrame matches a position in eval'd check code: "<eval>:3:7".
var (
	evalFrame   = regexp.MustCompile(`<eval>:(\d+):\d+`)
	syntaxFrame = regexp.MustCompile(`<eval>: Line (\d+):\d+`)
)

// checkLine finds the line of the check's own source (1-based) where a
// thrown error surfaced: the outermost frame in the eval'd check, that
// is, the check's statement that was running. 0 means unknown.
func checkLine(threw, stack string) int {
	if m := syntaxFrame.FindStringSubmatch(threw); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	line := 0
	for _, frame := range strings.Split(stack, "\n") {
		if strings.Contains(frame, checkFile) {
			break
		}
		if m := evalFrame.FindStringSubmatch(frame); m != nil {
			line, _ = strconv.Atoi(m[1])
		}
	}
	return line
}

// document is the attempt in the shape check.js reads.
func (a *attemptRecord) document() bson.D {
	var errDoc any
	if a.err != nil {
		var ee *shell.EvalError
		d := bson.D{{Key: "message", Value: errText(a.err)}}
		if errors.As(a.err, &ee) {
			d = bson.D{{Key: "name", Value: ee.Name}, {Key: "message", Value: ee.Text}, {Key: "code", Value: int32(ee.Code)}}
		}
		errDoc = d
	}
	return bson.D{
		{Key: "output", Value: a.output},
		{Key: "value", Value: plainValue(a.value)},
		{Key: "error", Value: errDoc},
		{Key: "commands", Value: commandDocs(a.commands)},
	}
}

// maxCommandBytes caps the command documents handed to checks: an
// insertMany of thousands of documents is summarized, not copied.
const maxCommandBytes = 64 << 10

func commandDocs(cs []Command) bson.A {
	out := bson.A{}
	for _, c := range cs {
		reads := bson.A{}
		for _, s := range c.Reads {
			reads = append(reads, s)
		}
		d := bson.D{{Key: "name", Value: c.Name}, {Key: "db", Value: c.DB}, {Key: "collection", Value: c.Collection},
			{Key: "reads", Value: reads}, {Key: "writes", Value: int32(c.Writes)}, {Key: "target", Value: c.Target},
			{Key: "index", Value: int32(c.Index)}}
		if len(c.raw) <= maxCommandBytes {
			d = append(d, bson.E{Key: "command", Value: c.raw})
		}
		out = append(out, d)
	}
	return out
}

// commandsJSON is {c: [commands]} as Extended JSON, for track().
func commandsJSON(cs []Command) (string, error) {
	raw, err := bson.MarshalExtJSON(bson.D{{Key: "c", Value: commandDocs(cs)}}, true, false)
	return string(raw), err
}
