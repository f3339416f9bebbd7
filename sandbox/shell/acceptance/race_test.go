package acceptance

import (
	"strings"
	"testing"
)

// Races are real (issue 16): 60 upserts started together with Promise.all
// reach the server together, and an upsert is not atomic between its
// query and its insert on mongod, nor on the embedded server. Without a
// unique index the upserts that open batch 1 can each insert one; with
// the unique { bookId, batch } index there is one batch 1 on every run:
// the server retries the losing upserts as updates.
func TestUpsertRaceIsRealAndTheUniqueIndexClosesIt(t *testing.T) {
	sh := newShell(t, "race")
	eval(t, sh, "const upsert = async (i) => { await db.extra.updateOne({ bookId: 5000, batch: 1 }, { $push: { customers: 'c' + i }, $inc: { count: 1 } }, { upsert: true }) };\n"+
		"const race = async () => { const runs = []; for (let r = 0; r < 20; r++) { await db.extra.deleteMany({}); await Promise.all(Array.from({ length: 60 }, (_, i) => upsert(i))); runs.push((await db.extra.find({}, { _id: 0, count: 1 }).toArray()).map(d => d.count)) } return runs };")

	runs := eval(t, sh, "race().then(runs => runs.map(counts => counts.length + ' documents, ' + counts.reduce((a, b) => a + b) + ' customers').join('\\n'))")
	lines := strings.Split(strings.TrimSpace(runs), "\n")
	duplicated := 0
	for _, l := range lines {
		if !strings.HasSuffix(l, ", 60 customers") {
			t.Errorf("a run lost customers: %s", l)
		}
		if !strings.HasPrefix(l, "1 documents,") {
			duplicated++
		}
	}
	t.Logf("without the unique index, %d of %d runs made more than one batch 1", duplicated, len(lines))
	if len(lines) != 20 || duplicated == 0 {
		t.Errorf("no run of 20 made a duplicate batch:\n%s", runs)
	}

	eval(t, sh, "db.extra.deleteMany({}); db.extra.createIndex({ bookId: 1, batch: 1 }, { unique: true })")
	expectOut(t, sh, "race().then(runs => runs.every(counts => counts.length === 1 && counts[0] === 60))", "true\n")

	// The lesson's guarded writer caps the batch in the filter, so the
	// server does not retry its duplicate key: the writer sees E11000.
	expectOut(t, sh, "const codes = new Set();\n"+
		"const capped = async (i) => { try { await db.extra.updateOne({ bookId: 5000, batch: 1, count: { $lt: 1000 } }, { $push: { customers: 'c' + i }, $inc: { count: 1 } }, { upsert: true }) } catch (e) { codes.add(e.code) } };\n"+
		"(async () => { let one = true; for (let r = 0; r < 20; r++) { await db.extra.deleteMany({}); await Promise.all(Array.from({ length: 60 }, (_, i) => capped(i))); one = one && (await db.extra.countDocuments()) === 1 } return one && [...codes].every(c => c === 11000) })()",
		"true\n")
}
