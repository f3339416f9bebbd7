package lessons

import (
	"context"
	"errors"
	"strings"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox/shell"
)

var msgNotPipeline = &locale.Message{ID: "stages.notPipeline", Other: "a stage preview needs code that is one aggregate([...]) call"}

// pipelineOf returns the collection expression and the pipeline source of
// code that is one aggregate([...]) call on a collection, as the shell
// reads it, or ok=false: the only shape a stage preview can take apart.
func pipelineOf(code string) (coll, pipeline string, ok bool) { return shell.AggregateCall(code) }

// stageCode is the step's single aggregate, or "".
func stageCode(st *Step) string {
	runs := st.Code(Run)
	if len(runs) != 1 {
		return ""
	}
	if _, _, ok := pipelineOf(runs[0].Text); !ok {
		return ""
	}
	return runs[0].Text
}

// HasStages reports whether the step's code is a single aggregate([...])
// whose stages a preview can show one by one.
func (s *Step) HasStages() bool { return stageCode(s) != "" }

// IsPipeline reports whether code is a single aggregate([...]) call on a
// collection, such as an exercise's answer, whose stages a preview can
// show one by one.
func IsPipeline(code string) bool {
	_, _, ok := pipelineOf(code)
	return ok
}

// stageFile names the preview's code in stack traces.
const stageFile = "schemalab:stages.js"

// previewStage runs the first Stage+1 stages of a pipeline of the step:
// the request's code, or the step's own code when that is "". A run
// step's pipeline starts from the state the step's code starts from, an
// exercise's from the state its attempts start from. The pipeline is
// evaluated in a scope of its own, so the preview leaves no variable in
// the learner's session, and its result is shown as an array (toArray):
// a preview has no prompt to type "it" at.
func (s *Session) previewStage(ctx context.Context, req Request, res *Result) error {
	st, sess := &s.lesson.Steps[req.Step], s.st
	src := req.Code
	if src == "" {
		src = stageCode(st)
	}
	coll, pipeline, ok := pipelineOf(src)
	if !ok {
		return errors.New(sess.say(msgNotPipeline, nil))
	}
	var err error
	if st.Exercise != nil {
		err = sess.ensureBefore(ctx, req.Step+1)
	} else {
		err = sess.ensureSetup(ctx, req.Step)
	}
	if err != nil {
		return err
	}
	sess.live = liveState{step: req.Step}
	names, err := sess.sh.EvalFunction(ctx, stageFile, "return (\n"+pipeline+"\n).map((s) => Object.keys(s)[0]).join('\\n');", nil)
	if err != nil {
		return err
	}
	if len(names.Outputs) > 0 {
		list, _ := names.Outputs[0].Value.(string)
		res.Stages = strings.Split(list, "\n")
	}
	res.Stage = min(max(req.Stage, 0), len(res.Stages)-1)
	sess.sh.SetWidth(req.Widths.Output)
	defer sess.sh.SetWidth(0)
	out, err := sess.sh.EvalFunction(ctx, stageFile, "return "+coll+".aggregate((\n"+pipeline+"\n).slice(0, __stages)).toArray();",
		map[string]any{"__stages": res.Stage + 1})
	res.Statements = statements("", &out, err)
	return err
}
