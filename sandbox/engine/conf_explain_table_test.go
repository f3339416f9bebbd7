package engine_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Explain goes through the one command table: every command with an
// explain entry explains, and any other command fails as in mongod's
// CmdExplain::parse (unknown command) and Command::Invocation::explain
// (known but not explainable, named as mongod names it whatever alias was
// used).
func TestConfExplainThroughCommandTable(t *testing.T) {
	db, _ := confColl(t, `{"_id":1,"a":1}`, `{"_id":2,"a":2}`)
	explained := map[string]string{
		"find":          `{"find":"c","filter":{"a":1}}`,
		"aggregate":     `{"aggregate":"c","pipeline":[{"$match":{"a":1}}],"cursor":{}}`,
		"count":         `{"count":"c","query":{"a":1}}`,
		"distinct":      `{"distinct":"c","key":"a"}`,
		"update":        `{"update":"c","updates":[{"q":{"a":1},"u":{"$set":{"b":1}}}]}`,
		"delete":        `{"delete":"c","deletes":[{"q":{"a":1},"limit":1}]}`,
		"findAndModify": `{"findAndModify":"c","query":{"a":1},"update":{"$set":{"b":1}}}`,
		"findandmodify": `{"findandmodify":"c","query":{"a":1},"remove":true}`,
	}
	for _, name := range engine.ExplainableCommands() {
		if name == "explain" {
			continue // explain of explain is refused, below
		}
		cmd, ok := explained[name]
		if !ok {
			t.Errorf("explainable command %q has no case here", name)
			continue
		}
		for _, verbosity := range []string{"queryPlanner", "executionStats"} {
			out := okJ(t, db, `{"explain":`+cmd+`,"verbosity":"`+verbosity+`"}`)
			if field(out, "queryPlanner") == nil && field(out, "stages") == nil {
				t.Errorf("explain %s (%s): no plan in %v", name, verbosity, out)
			}
		}
		delete(explained, name)
	}
	for name := range explained {
		t.Errorf("%q is not explainable, but mongod explains it", name)
	}

	wantErr(t, db, `{"explain":{"noSuchCommand":"c"}}`, mongoerr.CommandNotFound, "Explain failed due to unknown command: noSuchCommand")
	wantErr(t, db, `{"explain":{"Find":"c"}}`, mongoerr.CommandNotFound, "Explain failed due to unknown command: Find")
	wantErr(t, db, `{"explain":{"insert":"c","documents":[{"a":3}]}}`, mongoerr.IllegalOperation, "Cannot explain cmd: insert")
	wantErr(t, db, `{"explain":{"getMore":1,"collection":"c"}}`, mongoerr.IllegalOperation, "Cannot explain cmd: getMore")
	wantErr(t, db, `{"explain":{"ping":1}}`, mongoerr.IllegalOperation, "Cannot explain cmd: ping")
	wantErr(t, db, `{"explain":{"ismaster":1}}`, mongoerr.IllegalOperation, "Cannot explain cmd: isMaster")
	wantErr(t, db, `{"explain":{"deleteIndexes":"c","index":"*"}}`, mongoerr.IllegalOperation, "Cannot explain cmd: dropIndexes")
	wantErr(t, db, `{"explain":{"explain":{"find":"c"}}}`, mongoerr.IllegalOperation, "Explain cannot explain itself.")
	wantErr(t, db, `{"explain":{"explain":{"noSuchCommand":"c"}}}`, mongoerr.CommandNotFound, "Explain failed due to unknown command: noSuchCommand")
	// The explained command ran nowhere: the insert inserted nothing.
	sameJSON(t, "count after explains", okJ(t, db, `{"count":"c"}`), `{"n":2,"ok":1.0}`)
}
