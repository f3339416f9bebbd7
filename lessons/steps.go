package lessons

import (
	"context"
	"errors"
	"strings"

	"github.com/schemalab/schemalab/lessons/locale"
)

type runMode int

const (
	modeShow runMode = iota
	modeReplay
	modeCheck
)

// stepRun is what running one step produced, with what its pictures are
// drawn from.
type stepRun struct {
	step     int
	blocks   []BlockResult
	failures []Failure
	// ran holds, for each run block (by index in blocks), the result as
	// the shell returned it and the commands it sent: pictures read
	// values and the collections and stages that were really used.
	ran map[int]ranBlock
}

// codeOK reports whether the step's code ran (failed expectations aside).
func (r *stepRun) codeOK() bool { return codeOK(r.failures) }

func codeOK(fs []Failure) bool {
	for _, f := range fs {
		if !f.Expect {
			return false
		}
	}
	return true
}

// runStep runs step i on the state before it and saves the states after
// its setup and after the step. Run and compare blocks are laid out for
// w, unless an expectation reads them.
func (s *Session) runStep(ctx context.Context, i int, mode runMode, w Widths) *stepRun {
	st, sess := &s.lesson.Steps[i], s.st
	res := &stepRun{step: i, ran: map[int]ranBlock{}}
	sess.live = liveState{step: i}
	fail := func(line int, msg string) {
		res.failures = append(res.failures, Failure{Line: line, Msg: msg})
	}
	failExpect := func(line int, msg string) {
		res.failures = append(res.failures, Failure{Line: line, Msg: msg, Expect: true})
	}
	// Setup comes first wherever it is written. A shared template's
	// state after it stands for running it: setup output is never shown,
	// and it is where the heavy lifting of a lesson (generating its data)
	// is.
	seeded := false
	if hasSetup(st) {
		var err error
		var setup []BlockResult
		if setup, seeded, err = sess.seedSetup(ctx, i); err != nil {
			fail(st.Line, err.Error())
			return res
		}
		res.blocks = append(res.blocks, setup...)
	}
	for bi := range st.Blocks {
		b := &st.Blocks[bi]
		if b.Kind != Setup || seeded {
			continue
		}
		out, err := sess.eval(ctx, w.Output, b.Text)
		res.blocks = append(res.blocks, blockResult(b, &out, err))
		if err != nil {
			fail(b.Line, sess.say(msgSetupFailed, map[string]any{"Err": errText(err)}))
			return res
		}
	}
	if hasSetup(st) {
		if err := sess.saveOnce(ctx, StateSetup(i)); err != nil {
			fail(st.Line, err.Error())
			return res
		}
	}
	// What the step's own blocks send is recorded: the pictures of a run
	// block are drawn from the collections and stages it really used.
	if mode != modeReplay {
		sess.rec.start(true)
		defer sess.rec.stop()
	}
	lastOutput := ""
	for bi := 0; bi < len(st.Blocks); bi++ {
		if ctx.Err() != nil {
			fail(st.Line, ctx.Err().Error())
			break
		}
		b := &st.Blocks[bi]
		switch b.Kind {
		case Run:
			from := sess.rec.count()
			out, err := sess.eval(ctx, widthFor(st, bi, w.Output), b.Text)
			if mode != modeReplay {
				res.ran[len(res.blocks)] = ranBlock{out: out, commands: sess.rec.since(from)}
			}
			res.blocks = append(res.blocks, blockResult(b, &out, err))
			lastOutput = out.Transcript
			switch {
			case b.Throws && err == nil:
				fail(b.Line, sess.say(msgShouldThrow, nil))
			case !b.Throws && err != nil:
				fail(b.Line, sess.say(msgRunFailed, map[string]any{"Err": errText(err)}))
			}
		case Compare:
			j := bi
			for j < len(st.Blocks) && st.Blocks[j].Kind == Compare && st.Blocks[j].Group == b.Group {
				j++
			}
			br := BlockResult{Block: b}
			var texts []string
			for k := bi; k < j; k++ {
				v := s.show.variant(ctx, &st.Blocks[k], widthFor(st, j-1, w.Variant))
				if v.Err != nil {
					fail(st.Blocks[k].Line, sess.say(msgVariantFailed, map[string]any{"Label": v.Label, "Err": errText(v.Err)}))
				}
				br.Variants = append(br.Variants, v)
				texts = append(texts, v.Output)
			}
			res.blocks = append(res.blocks, br)
			lastOutput = strings.Join(texts, "")
			bi = j - 1
		case ExpectOutput:
			if mode == modeReplay {
				continue
			}
			ok := MatchFragment(lastOutput, b.Text)
			br := BlockResult{Block: b, Passed: ok}
			if !ok {
				br.Message = sess.say(msgOutputMissing, map[string]any{"Fragment": b.Text})
				failExpect(b.Line, sess.say(msgOutputMissingFull, map[string]any{"Fragment": b.Text, "Output": strings.TrimRight(lastOutput, "\n")}))
			}
			res.blocks = append(res.blocks, br)
		case ExpectJS:
			if mode == modeReplay {
				continue
			}
			v, out := s.grade.predicate(ctx, b, predicateInput{output: lastOutput})
			br := BlockResult{Block: b, Output: out.Transcript, Elapsed: out.Elapsed, Passed: v.Pass, Message: v.Message}
			if !v.Pass {
				if v.Threw != "" {
					failExpect(v.Line, sess.say(msgPredicateThrew, map[string]any{"Err": v.Threw}))
				} else {
					failExpect(b.Line, sess.say(msgPredicateFailed, map[string]any{"Message": v.Message}))
				}
			}
			res.blocks = append(res.blocks, br)
		}
	}
	if res.codeOK() && ctx.Err() == nil {
		if err := sess.saveOnce(ctx, StateBefore(i+1)); err != nil {
			fail(st.Line, err.Error())
		} else if err := sess.shareState(ctx, StateBefore(i+1)); err != nil {
			fail(st.Line, err.Error())
		} else {
			sess.live = liveState{state: StateBefore(i + 1), step: i}
		}
	}
	return res
}

// replay runs step i to restore the state after it (ensureBefore on a
// server without snapshots, or a state not saved yet).
func (s *Session) replay(ctx context.Context, i int) error {
	res := s.runStep(ctx, i, modeReplay, Widths{})
	if !res.codeOK() {
		f := res.failures[0]
		return errors.New(s.st.say(msgReplayFailed, map[string]any{"Lesson": s.lesson.ID, "N": i + 1, "Title": s.lesson.Steps[i].Title, "Failure": f.Msg, "Line": f.Line}))
	}
	return nil
}

// templateStep runs step i from the state before it, as a template
// build does: every step once, from the start.
func (s *Session) templateStep(ctx context.Context, i int) (*stepRun, error) {
	if err := s.st.ensureBefore(ctx, i); err != nil {
		return nil, err
	}
	res := s.runStep(ctx, i, modeShow, Widths{})
	return res, ctx.Err()
}

// widthFor is width for the output of block bi of st, unless an
// expectation reads it: the expect blocks right after it (before the
// next executable block) compare the output as the author wrote it.
func widthFor(st *Step, bi, width int) int {
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

func hasSetup(st *Step) bool { return len(st.Code(Setup)) > 0 }

var (
	msgSetupFailed       = &locale.Message{ID: "run.setupFailed", Other: "setup failed: {{.Err}}"}
	msgShouldThrow       = &locale.Message{ID: "run.shouldThrow", Other: "this block should end in an error, but it ran without one"}
	msgRunFailed         = &locale.Message{ID: "run.failed", Other: "run block failed: {{.Err}}"}
	msgVariantFailed     = &locale.Message{ID: "run.variantFailed", Other: `compare variant "{{.Label}}" failed: {{.Err}}`}
	msgOutputMissing     = &locale.Message{ID: "run.outputMissing", Other: "expected output not found:\n{{.Fragment}}"}
	msgOutputMissingFull = &locale.Message{ID: "run.outputMissingFull", Other: "expected output not found.\n--- expected fragment:\n{{.Fragment}}\n--- actual output:\n{{.Output}}"}
	msgPredicateThrew    = &locale.Message{ID: "run.predicateThrew", Other: "expect predicate threw: {{.Err}}"}
	msgPredicateFailed   = &locale.Message{ID: "run.predicateFailed", Other: "expect predicate failed: {{.Message}}"}
)
