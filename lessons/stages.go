package lessons

import (
	"context"
	"errors"
	"regexp"
	"strings"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox/shell"
)

var msgNotPipeline = &locale.Message{ID: "stages.notPipeline", Other: "a stage preview needs code that is one aggregate([...]) call"}

// aggregatePattern recognizes code that is one aggregate([...]) call on a
// collection: the only shape a stage preview can take apart.
var aggregatePattern = regexp.MustCompile(`^\s*(db(?:\.[A-Za-z_$][\w$]*|\.getCollection\(\s*(?:'[^']*'|"[^"]*")\s*\))+)\.aggregate\(\s*(\[[\s\S]*\])\s*\)\s*;?\s*$`)

// pipelineOf returns the collection expression and the pipeline source of
// a single aggregate call, or ok=false.
func pipelineOf(code string) (coll, pipeline string, ok bool) {
	code = stripLineComments(code)
	m := aggregatePattern.FindStringSubmatch(code)
	if m == nil || strings.Count(code, ".aggregate(") != 1 {
		return "", "", false
	}
	return m[1], m[2], true
}

func stripLineComments(code string) string {
	var out []string
	for _, line := range strings.Split(code, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "//") {
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

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

// StagePreview is the output after one stage of a pipeline.
type StagePreview struct {
	// Names are the pipeline's stages ($match, $group, …).
	Names []string
	// Stage is the stage shown (0-based); Result the output after it.
	Stage  int
	Result shell.Result
}

// stageFile names the preview's code in stack traces.
const stageFile = "schemalab:stages.js"

// PreviewStage runs the first k+1 stages of a pipeline of step i: src, or
// the step's own code when src is "". A run step's pipeline starts from
// the state the step's code starts from, an exercise's from the state its
// attempts start from. The pipeline is evaluated in a scope of its own, so
// the preview leaves no variable in the learner's session, and its result
// is shown as an array (toArray): a preview has no prompt to type "it" at.
func (r *Runner) PreviewStage(ctx context.Context, i int, src string, k int) (*StagePreview, error) {
	done, err := r.begin(ctx, i)
	if err != nil {
		return nil, err
	}
	defer done()
	st := &r.lesson.Steps[i]
	if src == "" {
		src = stageCode(st)
	}
	coll, pipeline, ok := pipelineOf(src)
	if !ok {
		return nil, errors.New(r.say(msgNotPipeline, nil))
	}
	if st.Exercise != nil {
		err = r.ensureBefore(ctx, i+1)
	} else {
		err = r.ensureSetup(ctx, i)
	}
	if err != nil {
		return nil, err
	}
	r.live = liveState{step: i}
	names, err := r.sh.EvalFunction(ctx, stageFile, "return (\n"+pipeline+"\n).map((s) => Object.keys(s)[0]).join('\\n');", nil)
	if err != nil {
		return nil, err
	}
	p := &StagePreview{}
	if len(names.Outputs) > 0 {
		s, _ := names.Outputs[0].Value.(string)
		p.Names = strings.Split(s, "\n")
	}
	p.Stage = min(max(k, 0), len(p.Names)-1)
	r.sh.SetWidth(r.widths.Output)
	defer r.sh.SetWidth(0)
	p.Result, err = r.sh.EvalFunction(ctx, stageFile, "return "+coll+".aggregate((\n"+pipeline+"\n).slice(0, __stages)).toArray();",
		map[string]any{"__stages": p.Stage + 1})
	return p, err
}
