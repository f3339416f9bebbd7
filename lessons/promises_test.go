package lessons

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons/locale"
)

// gradesHow matches a check that grades how the learner did it: the
// commands their code sent, the collections it read, what it examined.
var gradesHow = regexp.MustCompile(`\b(reads|writes|readsOnly|docsExamined|track)\(|attempt\.(commands|explain)`)

// theCheck is how each language's lessons name the check in a task
// (the Indonesian lessons also keep the English word).
var theCheck = map[string][]string{"en": {"check"}, "id": {"pemeriksaan", "check"}, "ru": {"проверк"}}

// An exercise whose check grades how tells the learner so in its task,
// before the first attempt: a prompt that names the check says what it
// looks at. Before, the choosing lesson's exercises silently required the
// measurement in the answer code, and the computed and tree exercises
// did not say what their checks counted.
func TestTasksSayWhatIsGraded(t *testing.T) {
	all, errs := Load(content.FS)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, lang := range locale.Languages() {
		cat := all.In(lang)
		for _, l := range cat.Lessons {
			for _, st := range l.Steps {
				ex := st.Exercise
				if ex == nil || !gradesHow.MatchString(ex.Check) {
					continue
				}
				task := strings.ToLower(ex.Task)
				if !slices.ContainsFunc(theCheck[l.Lang], func(w string) bool { return strings.Contains(task, w) }) {
					t.Errorf("%s:%d (%s): the check grades how, and the task does not say what the %s looks at", l.File, st.Line, lang, theCheck[l.Lang])
				}
			}
		}
	}
}
