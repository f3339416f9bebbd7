package lessons

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox/shell"
)

// goalDocLimit caps the documents of one collection compared with the
// goal; a larger collection is compared by its count only.
const goalDocLimit = 500

// maxDifferences is how many differences a comparison lists.
const maxDifferences = 5

// goal is what the reference solution (and the check after it) leaves in
// the collections it writes, taken from the state attempts start from.
type goal struct {
	collections []string
	docs        map[string][]bson.D // nil for a collection over goalDocLimit
	counts      map[string]int64
	// snapshot is the saved state the solution left, from which a large
	// collection is read when an attempt fails; "" on a server without
	// snapshots, where digests holds the large collections' digests,
	// read at once.
	snapshot string
	digests  map[string]*digest
	// checked are the names the check's source uses: the fields whose
	// values a digest counts.
	checked map[string]bool
	// restore, if set, copies the snapshot into a database: a goal taken
	// from a shared template (Template.goals) is the template's snapshot,
	// not the session's.
	restore func(ctx context.Context, snapshot, db string) error
}

// GoalComparison sets the data an attempt left beside the goal's, for
// every collection the reference solution writes: what "done" looks like.
type GoalComparison struct {
	Collections []CollectionComparison
}

// Match reports whether every collection matches the goal.
func (g *GoalComparison) Match() bool {
	for _, c := range g.Collections {
		if !c.Match() {
			return false
		}
	}
	return true
}

// CollectionComparison is one collection against the goal.
type CollectionComparison struct {
	Name string
	// Goal and Yours are the two documents counts.
	Goal, Yours int64
	// Differences are the first differences found, in the goal's order;
	// More counts those left out.
	Differences []Difference
	More        int
	// Digest lists, for a collection too large to list, the figures
	// (documents per field and value, sums, minimums, maximums) where
	// yours differs from the goal; its Differences are then the first
	// documents that differ, in _id order.
	Digest []DigestLine
	// TooLarge is set when a large collection could not be compared by
	// digest (after a pass, or when the goal's state is gone); only the
	// counts are then compared.
	TooLarge bool
	// OnlyYours marks a collection the attempt wrote and the goal leaves
	// alone.
	OnlyYours bool
}

// Match reports whether the collection matches the goal.
func (c *CollectionComparison) Match() bool {
	return len(c.Differences) == 0 && len(c.Digest) == 0 && c.Goal == c.Yours && !c.OnlyYours
}

// Difference is one document or field that differs from the goal.
type Difference struct {
	// Doc names the document ("_id: 101"), or shows it when its _id is an
	// ObjectId generated on insert, which no attempt can match.
	Doc string
	// Field is the first differing top-level field; "" when the whole
	// document is missing from one side.
	Field string
	// Goal and Yours are the values as mongosh prints them; "" when that
	// side lacks the field or the document.
	Goal, Yours string
}

var (
	msgDocOnlyGoal    = &locale.Message{ID: "goal.docOnlyGoal", Other: "{{.Doc}}: in the goal, missing in yours"}
	msgDocOnlyYours   = &locale.Message{ID: "goal.docOnlyYours", Other: "{{.Doc}}: in yours, not in the goal"}
	msgFieldOnlyGoal  = &locale.Message{ID: "goal.fieldOnlyGoal", Other: "{{.Doc}}: {{.Field}} is {{.Goal}} in the goal, missing in yours"}
	msgFieldOnlyYours = &locale.Message{ID: "goal.fieldOnlyYours", Other: "{{.Doc}}: {{.Field}} is {{.Yours}} in yours, absent from the goal"}
	msgFieldDiffers   = &locale.Message{ID: "goal.fieldDiffers", Other: "{{.Doc}}: {{.Field}} is {{.Yours}}, the goal has {{.Goal}}"}
)

// Text says what differs, in l's language.
func (d Difference) Text(l *locale.Localizer) string {
	data := map[string]any{"Doc": d.Doc, "Field": d.Field, "Goal": d.Goal, "Yours": d.Yours}
	switch {
	case d.Field == "" && d.Yours == "":
		return l.T(msgDocOnlyGoal, data)
	case d.Field == "":
		return l.T(msgDocOnlyYours, data)
	case d.Yours == "":
		return l.T(msgFieldOnlyGoal, data)
	case d.Goal == "":
		return l.T(msgFieldOnlyYours, data)
	}
	return l.T(msgFieldDiffers, data)
}

// computeGoal runs the reference solution and the check on the state
// attempts start from and keeps what they leave in the collections they
// write. nil means the solution changes no data (its result is an answer,
// which the goal must not give away), or fails its check. solved reports
// whether the solution passes.
func (g *grader) computeGoal(ctx context.Context, i int) (want *goal, solved bool, err error) {
	ex, err := g.exercise(i)
	if err != nil {
		return nil, false, err
	}
	out, err := g.attempt(ctx, i, ex, ex.Solution)
	if err != nil || !out.passed {
		// A solution that fails its check is the author's bug, which
		// `run --check` reports; the learner just gets no goal.
		return nil, false, err
	}
	var colls []string
	for _, c := range g.st.rec.since(0) { // the solution's commands and the check's
		if c.Writes > 0 && c.Target != "" && c.DB == g.st.database() {
			colls = appendNew(colls, c.Target)
		}
	}
	if len(colls) == 0 {
		return nil, true, nil
	}
	want = &goal{collections: colls, docs: map[string][]bson.D{}, counts: map[string]int64{}, digests: map[string]*digest{},
		checked: checkedFields(ex.Check)}
	for _, c := range colls {
		docs, n, err := g.readCollection(ctx, c)
		if err != nil {
			return nil, true, err
		}
		want.docs[c], want.counts[c] = docs, n
		if docs != nil || want.snapshot != "" {
			continue
		}
		// A large collection: keep the state (free on a server with
		// snapshots) and read it only when an attempt fails, so that
		// attempts that pass cost no more than before.
		if g.st.snapshots == snapshotsOn {
			want.snapshot = stateGoal(i)
			if err := g.st.snapshotCmd(ctx, "save", want.snapshot); err == nil {
				continue
			}
			want.snapshot = ""
		}
		if want.digests[c], err = g.readDigest(ctx, g.st.database(), c, want.checked); err != nil {
			return nil, true, err
		}
	}
	return want, true, nil
}

// readCollection reads up to goalDocLimit documents of coll in _id order
// and counts them all; docs is nil when there are more.
func (g *grader) readCollection(ctx context.Context, coll string) ([]bson.D, int64, error) {
	c := g.st.client.Database(g.st.database()).Collection(coll)
	// The collection's count from its metadata: reading all of a 200,000
	// document collection to count it would cost more than the attempt.
	n, err := c.EstimatedDocumentCount(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("read %s for the goal: %w", coll, err)
	}
	if n > goalDocLimit {
		return nil, n, nil
	}
	cur, err := c.Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, 0, fmt.Errorf("read %s for the goal: %w", coll, err)
	}
	var docs []bson.D
	if err := cur.All(ctx, &docs); err != nil {
		return nil, 0, fmt.Errorf("read %s for the goal: %w", coll, err)
	}
	return docs, n, nil
}

// compareGoal reads what the attempt left in the goal's collections and
// in those the attempt wrote besides, and compares. A collection too
// large to list is compared by digest when the attempt failed (after a
// pass nobody is shown the comparison, and it would cost a read of every
// document).
func (g *grader) compareGoal(ctx context.Context, want *goal, attempt []Command, passed bool) *GoalComparison {
	cmp := &GoalComparison{}
	goalDB := ""
	defer func() {
		if goalDB != "" {
			g.dropScratch(ctx, goalDB)
		}
	}()
	for _, name := range want.collections {
		docs, n, err := g.readCollection(ctx, name)
		if err != nil {
			continue
		}
		cc := CollectionComparison{Name: name, Goal: want.counts[name], Yours: n}
		switch {
		case want.docs[name] != nil && docs != nil:
			cc.Differences, cc.More = diffDocuments(want.docs[name], docs)
		case passed:
			cc.TooLarge = true
		default:
			if want.snapshot != "" && goalDB == "" {
				goalDB = goalDatabase(g.st.database())
				restore := g.st.restoreInto
				if want.restore != nil {
					restore = want.restore
				}
				if restore(ctx, want.snapshot, goalDB) != nil {
					goalDB = ""
				}
			}
			g.compareLarge(ctx, want, goalDB, &cc)
		}
		cmp.Collections = append(cmp.Collections, cc)
	}
	for _, c := range attempt {
		if c.Writes > 0 && c.Target != "" && c.DB == g.st.database() && !slices.Contains(want.collections, c.Target) &&
			!slices.ContainsFunc(cmp.Collections, func(cc CollectionComparison) bool { return cc.Name == c.Target }) {
			cmp.Collections = append(cmp.Collections, CollectionComparison{Name: c.Target, OnlyYours: true})
		}
	}
	return cmp
}

// compareLarge compares a collection too large to list by its digest and
// names the first documents that differ, in _id order, with their
// fields when the goal's state can still be read (goalDB); else only the
// counts are compared.
func (g *grader) compareLarge(ctx context.Context, want *goal, goalDB string, cc *CollectionComparison) {
	wd := want.digests[cc.Name]
	if wd == nil && goalDB != "" {
		// Read once: the goal is the same for every attempt.
		wd, _ = g.readDigest(ctx, goalDB, cc.Name, want.checked)
		if wd != nil {
			want.digests[cc.Name] = wd
		}
	}
	yd, err := g.readDigest(ctx, g.st.database(), cc.Name, want.checked)
	if wd == nil || err != nil {
		cc.TooLarge = true
		return
	}
	cc.Digest = compareDigests(wd, yd)
	goalKeys, yourKeys, total := firstDifferences(wd, yd, maxDifferences)
	var goalIDs, yourIDs []bson.RawValue
	for _, k := range goalKeys {
		goalIDs = append(goalIDs, wd.ids[wd.at[k]])
		if j, ok := yd.at[k]; ok && goalDB != "" {
			yourIDs = append(yourIDs, yd.ids[j])
		}
	}
	for _, k := range yourKeys {
		yourIDs = append(yourIDs, yd.ids[yd.at[k]])
	}
	yours, _ := g.readByID(ctx, g.st.database(), cc.Name, yourIDs)
	var wantDocs []bson.D
	if goalDB != "" {
		wantDocs, _ = g.readByID(ctx, goalDB, cc.Name, goalIDs)
	}
	if wantDocs == nil {
		// Without the goal's documents, name the ones that differ.
		for _, k := range goalKeys {
			if id := wd.ids[wd.at[k]]; id.Type != bson.TypeObjectID {
				cc.Differences = append(cc.Differences, Difference{Doc: "_id: " + show(rawValue(id))})
			}
		}
	}
	diffs, _ := diffDocuments(wantDocs, yours)
	cc.Differences = append(cc.Differences, diffs...)
	if len(cc.Differences) > maxDifferences {
		cc.Differences = cc.Differences[:maxDifferences]
	}
	cc.More = max(total-len(cc.Differences), 0)
}

// diffDocuments lists how yours differs from want. Documents are matched
// by _id, except those whose _id is an ObjectId (generated on insert, so
// different in every run), which are matched by their other fields.
func diffDocuments(want, yours []bson.D) ([]Difference, int) {
	var diffs []Difference
	add := func(d Difference) { diffs = append(diffs, d) }
	byID := map[string]bson.D{}
	anonYours := map[string]int{}
	for _, d := range yours {
		if key, ok := idKey(d); ok {
			byID[key] = d
		} else {
			anonYours[canonical(withoutID(d))]++
		}
	}
	seen := map[string]bool{}
	for _, w := range want {
		key, ok := idKey(w)
		if !ok {
			c := canonical(withoutID(w))
			if anonYours[c] > 0 {
				anonYours[c]--
			} else {
				add(Difference{Doc: show(withoutID(w))})
			}
			continue
		}
		seen[key] = true
		y, found := byID[key]
		if !found {
			add(Difference{Doc: "_id: " + key})
			continue
		}
		if d, differs := diffFields(w, y); differs {
			d.Doc = "_id: " + key
			add(d)
		}
	}
	for _, y := range yours {
		if key, ok := idKey(y); ok && !seen[key] {
			add(Difference{Doc: "_id: " + key, Yours: show(y)})
		}
	}
	for _, y := range yours {
		if _, ok := idKey(y); ok {
			continue
		}
		if c := canonical(withoutID(y)); anonYours[c] > 0 {
			anonYours[c]--
			add(Difference{Doc: show(withoutID(y)), Yours: show(withoutID(y))})
		}
	}
	if len(diffs) > maxDifferences {
		return diffs[:maxDifferences], len(diffs) - maxDifferences
	}
	return diffs, 0
}

// diffFields returns the first top-level field where y differs from w: a
// value both have but differently first (the likeliest mistake, such as a
// wrong average), then a field missing from y, then one y has in excess.
func diffFields(w, y bson.D) (Difference, bool) {
	for _, e := range w {
		if yv, ok := field(y, e.Key); ok && canonical(bson.D{{Key: "v", Value: e.Value}}) != canonical(bson.D{{Key: "v", Value: yv}}) {
			return Difference{Field: e.Key, Goal: show(e.Value), Yours: show(yv)}, true
		}
	}
	for _, e := range w {
		if _, ok := field(y, e.Key); !ok {
			return Difference{Field: e.Key, Goal: show(e.Value)}, true
		}
	}
	for _, e := range y {
		if _, ok := field(w, e.Key); !ok {
			return Difference{Field: e.Key, Yours: show(e.Value)}, true
		}
	}
	return Difference{}, false
}

func field(d bson.D, key string) (any, bool) {
	for _, e := range d {
		if e.Key == key {
			return e.Value, true
		}
	}
	return nil, false
}

// idKey is a document's _id as mongosh prints it, unless it is an
// ObjectId.
func idKey(d bson.D) (string, bool) {
	id, ok := field(d, "_id")
	if !ok {
		return "", false
	}
	if _, oid := id.(bson.ObjectID); oid {
		return "", false
	}
	return show(id), true
}

func withoutID(d bson.D) bson.D {
	out := make(bson.D, 0, len(d))
	for _, e := range d {
		if e.Key != "_id" {
			out = append(out, e)
		}
	}
	return out
}

// canonical is a document's canonical Extended JSON: equal for equal
// BSON, types included.
func canonical(d bson.D) string {
	raw, err := bson.MarshalExtJSON(d, true, false)
	if err != nil {
		return fmt.Sprint(d)
	}
	return string(raw)
}

// showLimit keeps a difference on one line.
const showLimit = 70

// show prints a value as mongosh does, on one line.
func show(v any) string {
	s := shell.Format(v, shell.FormatOptions{Depth: 2, MaxArrayLength: 5, Compact: 3, BreakLength: 1 << 20})
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) > showLimit {
		s = string([]rune(s)[:showLimit-1]) + "…"
	}
	return s
}
