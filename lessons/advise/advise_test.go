package advise

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox"
)

// The seeded database: every planted pattern, and a negative control
// beside each (uniform arrays, dates that are no series, self-references
// that are no tree, a used index, a TTL index).
const seededDB = "shop"

// start is when the seeded series begin.
func start() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }

func openEmbedded(t testing.TB) *sandbox.Backend {
	t.Helper()
	be, err := sandbox.Open(context.Background(), sandbox.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = be.Close() })
	return be
}

func insert(t testing.TB, c *mongo.Collection, docs []any) {
	t.Helper()
	for i := 0; i < len(docs); i += 1000 {
		if _, err := c.InsertMany(context.Background(), docs[i:min(i+1000, len(docs))]); err != nil {
			t.Fatal(err)
		}
	}
}

func createIndex(t testing.TB, c *mongo.Collection, keys bson.D, opts ...*options.IndexOptionsBuilder) {
	t.Helper()
	m := mongo.IndexModel{Keys: keys}
	if len(opts) > 0 {
		m.Options = opts[0]
	}
	if _, err := c.Indexes().CreateOne(context.Background(), m); err != nil {
		t.Fatal(err)
	}
}

func ints(from, n int) bson.A {
	a := make(bson.A, n)
	for i := range a {
		a[i] = int32(from + i)
	}
	return a
}

// treeNodes is a category tree of 41 nodes under 2 roots, 4 levels deep:
// id, parent id ("" for a root) and path of ids from the root.
type treeNode struct {
	id, parent string
	path       []string
}

func treeNodes() []treeNode {
	var nodes []treeNode
	var add func(id string, parent *treeNode, level int)
	add = func(id string, parent *treeNode, level int) {
		n := treeNode{id: id}
		if parent != nil {
			n.parent = id[:len(id)-2]
			n.path = append(slices.Clone(parent.path), parent.id)
		}
		nodes = append(nodes, n)
		if level == 3 {
			return
		}
		kids := 3
		if level == 2 {
			kids = 2
		}
		self := n
		for k := range kids {
			add(fmt.Sprintf("%s.%d", id, k), &self, level+1)
		}
	}
	add("r0", nil, 0)
	add("r1", nil, 1)
	return nodes
}

func seed(t testing.TB, db *mongo.Database) {
	t.Helper()
	ctx := context.Background()

	// outlier: most books have 5 to 49 customers, five have 5,000.
	var books []any
	for i := range 1000 {
		books = append(books, bson.D{{Key: "title", Value: fmt.Sprint("book ", i)}, {Key: "customers", Value: ints(0, 5+i%45)}})
	}
	for i := range 5 {
		books = append(books, bson.D{{Key: "title", Value: fmt.Sprint("bestseller ", i)}, {Key: "customers", Value: ints(0, 5000)}})
	}
	insert(t, db.Collection("books"), books)
	createIndex(t, db.Collection("books"), bson.D{{Key: "customers", Value: 1}})

	// Negative: uniform arrays, 20 to 30 tracks.
	var playlists []any
	for i := range 500 {
		playlists = append(playlists, bson.D{{Key: "tracks", Value: ints(0, 20+i%11)}})
	}
	insert(t, db.Collection("playlists"), playlists)

	// unbounded-array: every document carries 1,500 lines.
	var logs []any
	for range 30 {
		logs = append(logs, bson.D{{Key: "lines", Value: ints(0, 1500)}})
	}
	insert(t, db.Collection("logs"), logs)

	// bucket: 20 sensors, a reading a minute for 10 hours.
	var readings []any
	for m := range 600 {
		for s := range 20 {
			readings = append(readings, bson.D{{Key: "sensor", Value: fmt.Sprintf("s%02d", s)},
				{Key: "ts", Value: start().Add(time.Duration(m) * time.Minute)},
				{Key: "temp", Value: 20 + float64((m*7+s)%50)/10}, {Key: "hum", Value: 40 + float64((m*3+s)%30)/10}})
		}
	}
	insert(t, db.Collection("readings"), readings)
	// A TTL index is used by the server, not by queries: never "unused".
	createIndex(t, db.Collection("readings"), bson.D{{Key: "ts", Value: 1}}, options.Index().SetExpireAfterSeconds(50*365*24*3600))

	// Negative: orders have dates, a status and totals, but one order per
	// customer now and then is no series.
	var orders []any
	statuses := []string{"paid", "shipped", "delivered"}
	for i := range 3000 {
		orders = append(orders, bson.D{{Key: "customerId", Value: fmt.Sprintf("c%04d", i%1000)},
			{Key: "status", Value: statuses[i%3]}, {Key: "createdAt", Value: start().Add(time.Duration(i*7919%(365*24)) * time.Hour)},
			{Key: "total", Value: float64(i%500) + 0.99}})
	}
	insert(t, db.Collection("orders"), orders)
	createIndex(t, db.Collection("orders"), bson.D{{Key: "customerId", Value: 1}})
	createIndex(t, db.Collection("orders"), bson.D{{Key: "status", Value: 1}})
	// The customerId index is used; status is not.
	if err := db.Collection("orders").FindOne(ctx, bson.D{{Key: "customerId", Value: "c0001"}}).Err(); err != nil {
		t.Fatal(err)
	}

	// tree: one tree in the four models of the tree lesson.
	var parents, children, ancestors, paths []any
	nodes := treeNodes()
	for _, n := range nodes {
		var parent any
		if n.parent != "" {
			parent = n.parent
		}
		kids := bson.A{}
		for _, m := range nodes {
			if m.parent == n.id {
				kids = append(kids, m.id)
			}
		}
		anc := bson.A{}
		for _, a := range n.path {
			anc = append(anc, a)
		}
		parents = append(parents, bson.D{{Key: "_id", Value: n.id}, {Key: "parent", Value: parent}})
		children = append(children, bson.D{{Key: "_id", Value: n.id}, {Key: "children", Value: kids}})
		ancestors = append(ancestors, bson.D{{Key: "_id", Value: n.id}, {Key: "ancestors", Value: anc}})
		paths = append(paths, bson.D{{Key: "_id", Value: n.id}, {Key: "path", Value: "/" + strings.Join(append(slices.Clone(n.path), n.id), "/")}})
	}
	insert(t, db.Collection("cat_parent"), parents)
	insert(t, db.Collection("cat_children"), children)
	insert(t, db.Collection("cat_ancestors"), ancestors)
	insert(t, db.Collection("cat_path"), paths)

	// Negative: self-references that are no tree. Everyone has a best
	// friend (no root), and friendships go both ways (a graph).
	var people []any
	for i := range 200 {
		people = append(people, bson.D{{Key: "_id", Value: int32(i)}, {Key: "bestFriend", Value: int32((i + 1) % 200)},
			{Key: "friends", Value: bson.A{int32((i + 1) % 200), int32((i + 199) % 200), int32((i + 100) % 200)}}})
	}
	insert(t, db.Collection("people"), people)

	// bloated-documents: 300 KiB articles.
	var articles []any
	for i := range 30 {
		articles = append(articles, bson.D{{Key: "title", Value: fmt.Sprint("article ", i)}, {Key: "body", Value: strings.Repeat("lorem ipsum ", 300<<10/12)}})
	}
	insert(t, db.Collection("articles"), articles)

	// Negative: three yearly archives are no sprawl.
	for y := 2023; y <= 2025; y++ {
		insert(t, db.Collection(fmt.Sprint("archive_", y)), []any{bson.D{{Key: "y", Value: y}}})
	}
	// many-collections: a collection per day.
	for d := 1; d <= 12; d++ {
		insert(t, db.Collection(fmt.Sprintf("events_2026_01_%02d", d)), []any{bson.D{{Key: "n", Value: d}}})
	}
}

type found struct{ pattern, collection, field string }

func findingsOf(rep *Report) []found {
	var out []found
	for _, f := range rep.Findings {
		out = append(out, found{f.Pattern, f.Collection, f.Field})
	}
	return out
}

// state is what a database holds that advise must not change: each
// collection's count and indexes.
func state(t testing.TB, db *mongo.Database) map[string]string {
	t.Helper()
	ctx := context.Background()
	names, err := db.ListCollectionNames(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, n := range names {
		count, err := db.Collection(n).CountDocuments(ctx, bson.D{})
		if err != nil {
			t.Fatal(err)
		}
		specs, err := db.Collection(n).Indexes().ListSpecifications(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var ix []string
		for _, s := range specs {
			ix = append(ix, s.Name)
		}
		slices.Sort(ix)
		out[n] = fmt.Sprint(count, ix)
	}
	return out
}

func TestAdviseFindsThePlantedPatternsAndNoControl(t *testing.T) {
	be := openEmbedded(t)
	db := be.Client.Database(seededDB)
	seed(t, db)
	before := state(t, db)

	var progress []string
	began := time.Now()
	rep, err := Run(context.Background(), FromBackend(be), Options{Database: seededDB, Progress: func(p Progress) {
		progress = append(progress, fmt.Sprintf("%d/%d %s", p.Index, p.Total, p.Collection))
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("advise on %d collections: %v", len(progress), time.Since(began))

	want := []found{
		{PatternManyCollections, "events*", ""},
		{PatternBloatedDocuments, "articles", ""},
		{PatternOutlier, "books", "customers"},
		{PatternUnusedIndex, "books", "customers"},
		{PatternTree, "cat_ancestors", "ancestors"},
		{PatternTree, "cat_children", "children"},
		{PatternTree, "cat_parent", "parent"},
		{PatternTree, "cat_path", "path"},
		{PatternUnboundedArray, "logs", "lines"},
		{PatternUnusedIndex, "orders", "status"},
		{PatternBucket, "readings", "ts"},
	}
	got := findingsOf(rep)
	cmp := func(a, b found) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) }
	slices.SortFunc(got, cmp)
	slices.SortFunc(want, cmp)
	var falsePos, falseNeg []found
	for _, g := range got {
		if !slices.Contains(want, g) {
			falsePos = append(falsePos, g)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			falseNeg = append(falseNeg, w)
		}
	}
	if len(falsePos)+len(falseNeg) > 0 {
		t.Errorf("%d false positives %v, %d false negatives %v", len(falsePos), falsePos, len(falseNeg), falseNeg)
	}
	if len(progress) != 26 || progress[0] != "1/26 archive_2023" {
		t.Errorf("progress: %v", progress)
	}
	if len(rep.Sampled) != 0 || rep.Interrupted {
		t.Errorf("sampled %v, interrupted %v", rep.Sampled, rep.Interrupted)
	}
	if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "system.profile") {
		t.Errorf("notes: %q, want the one saying computed cannot be seen", rep.Notes)
	}

	for _, f := range rep.Findings {
		if f.Summary == "" || f.Lesson == "" || f.Confidence == "" || f.Evidence.Threshold == "" ||
			!strings.HasPrefix(f.Evidence.Reference, "https://www.mongodb.com/docs/manual/") || len(f.Evidence.Figures) == 0 {
			t.Errorf("incomplete finding %+v", f)
		}
		figs := map[string]any{}
		for _, fig := range f.Evidence.Figures {
			figs[fig.Name] = fig.Value
		}
		switch {
		case f.Pattern == PatternOutlier:
			if figs["max length"] != 5000.0 || figs["p95 length"].(float64) > 49 || figs["proposed threshold"] != 50.0 ||
				figs["documents above it"] != int64(5) || f.Confidence != High || len(f.Evidence.Histogram) != 4 {
				t.Errorf("outlier evidence: %v %v", figs, f.Evidence.Histogram)
			}
			if _, ok := figs["share of index customers_1's entries in the top 1 % of documents"]; !ok {
				t.Errorf("outlier evidence lacks the multikey index's share: %v", figs)
			}
		case f.Pattern == PatternTree:
			if figs["nodes"] != int64(41) || figs["roots"] != int64(2) || figs["depth"] != int64(4) || figs["cycles"] != int64(0) {
				t.Errorf("tree %s: %v", f.Collection, figs)
			}
			model := map[string]string{"cat_parent": modelParent, "cat_children": modelChildren, "cat_ancestors": modelAncestors, "cat_path": modelPath}[f.Collection]
			if !strings.Contains(f.Summary, model) {
				t.Errorf("tree %s: %q does not name %s", f.Collection, f.Summary, model)
			}
		case f.Pattern == PatternBucket:
			if figs["documents per source per hour (p50)"] != 60.0 || figs["documents after bucketing"] != int64(200) ||
				figs["source field"] != "sensor" || !strings.Contains(f.Summary, "time series collection") {
				t.Errorf("bucket: %v %q", figs, f.Summary)
			}
		case f.Pattern == PatternUnusedIndex:
			if figs["operations"] != int64(0) || figs["counted since"] == "" || f.Confidence != Low {
				t.Errorf("unused index: %v %s", figs, f.Confidence)
			}
		}
	}
	// The same findings, and only them, in all three formats.
	var text, md, js bytes.Buffer
	if err := errors.Join(rep.WriteText(&text), rep.WriteMarkdown(&md), rep.WriteJSON(&js)); err != nil {
		t.Fatal(err)
	}
	var decoded Report
	if err := json.Unmarshal(js.Bytes(), &decoded); err != nil {
		t.Fatal(err)
	}
	if jsonGot := findingsOf(&decoded); fmt.Sprint(jsonGot) != fmt.Sprint(findingsOf(rep)) {
		t.Errorf("json findings %v, want %v", jsonGot, findingsOf(rep))
	}
	for _, f := range rep.Findings {
		where := f.Collection
		if f.Field != "" {
			where += "." + f.Field
		}
		head := fmt.Sprintf("%s: %s (%s confidence)", f.Pattern, where, f.Confidence)
		if strings.Count(text.String(), "\n"+head+"\n") != 1 || strings.Count(md.String(), "## "+head+"\n") != 1 {
			t.Errorf("%q is not once in the text and markdown reports", head)
		}
	}
	if n := strings.Count(md.String(), "\n## "); n != len(want)+1 { // and "What advise could not see"
		t.Errorf("markdown has %d sections, want %d", n, len(want)+1)
	}

	if after := state(t, db); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("advise changed the database:\nbefore %v\nafter  %v", before, after)
	}
}

func TestAdviseFormats(t *testing.T) {
	be := openEmbedded(t)
	db := be.Client.Database("fmt")
	var books []any
	for i := range 200 {
		books = append(books, bson.D{{Key: "customers", Value: ints(0, 5+i%10)}})
	}
	books = append(books, bson.D{{Key: "customers", Value: ints(0, 3000)}})
	insert(t, db.Collection("books"), books)
	rep, err := Run(context.Background(), FromBackend(be), Options{Database: "fmt"})
	if err != nil || len(rep.Findings) != 1 {
		t.Fatalf("%v, %+v", err, rep)
	}
	var text, md, js bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"outlier: books.customers (high confidence)", "max length", "3,000", "█", "2,000–4,999", "Lesson: outlier", "outlier-pattern"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	for _, want := range []string{"## outlier: books.customers", "| max length | 3,000 |", "```text", "`outlier`"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(js.Bytes(), &top); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"database", "server", "sampled", "findings"} {
		if _, ok := top[k]; !ok {
			t.Errorf("json lacks %q: %s", k, js.String())
		}
	}
	var fs []map[string]any
	_ = json.Unmarshal(top["findings"], &fs)
	for _, k := range []string{"pattern", "collection", "field", "summary", "evidence", "lesson", "confidence"} {
		if len(fs) == 0 || fs[0][k] == nil {
			t.Errorf("json finding lacks %q: %s", k, top["findings"])
		}
	}
}

// A collection larger than --sample is analysed on $sample, and the
// report says so; the bucket figures still count whole hours.
func TestAdviseSamplesLargeCollections(t *testing.T) {
	be := openEmbedded(t)
	db := be.Client.Database("big")
	var readings []any
	for m := range 300 {
		for s := range 10 {
			readings = append(readings, bson.D{{Key: "sensor", Value: fmt.Sprintf("s%02d", s)},
				{Key: "ts", Value: start().Add(time.Duration(m) * time.Minute)}, {Key: "v", Value: float64(m % 17)}})
		}
	}
	insert(t, db.Collection("readings"), readings)
	rep, err := Run(context.Background(), FromBackend(be), Options{Database: "big", Sample: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sampled) != 1 || rep.Sampled[0] != (Sampled{Collection: "readings", Documents: 3000, Sample: 1000}) {
		t.Errorf("sampled: %+v", rep.Sampled)
	}
	if got := findingsOf(rep); len(got) != 1 || got[0] != (found{PatternBucket, "readings", "ts"}) {
		t.Fatalf("findings: %v", got)
	}
	for _, fig := range rep.Findings[0].Evidence.Figures {
		if fig.Name == "documents per source per hour (p50)" && fig.Value != 60.0 {
			t.Errorf("per hour on a sample: %v, want the 60 of every hour", fig.Value)
		}
	}
	if !slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, "trees are only looked for") }) {
		t.Errorf("notes: %q", rep.Notes)
	}
	var text bytes.Buffer
	_ = rep.WriteText(&text)
	if !strings.Contains(text.String(), "readings has 3,000 documents; it was analysed on a $sample of 1,000") {
		t.Errorf("text does not say it sampled:\n%s", text.String())
	}
}

// ctrl+c cancels the context: advise stops, and reports what it found.
func TestAdviseStopsWithWhatItFound(t *testing.T) {
	be := openEmbedded(t)
	db := be.Client.Database("stop")
	seed(t, db)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rep, err := Run(ctx, FromBackend(be), Options{Database: "stop", Progress: func(p Progress) {
		if p.Collection == "cat_ancestors" {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || !rep.Interrupted {
		t.Fatalf("err %v, interrupted %v", err, rep.Interrupted)
	}
	got := findingsOf(rep)
	if !slices.Contains(got, found{PatternOutlier, "books", "customers"}) || slices.ContainsFunc(got, func(f found) bool { return f.collection == "readings" }) {
		t.Errorf("findings so far: %v", got)
	}
}

func TestDatabasesListsReadableOnes(t *testing.T) {
	be := openEmbedded(t)
	insert(t, be.Client.Database("one").Collection("c"), []any{bson.D{{Key: "x", Value: 1}}})
	names, err := Databases(context.Background(), FromBackend(be), 0)
	if err != nil || !slices.Contains(names, "one") || slices.Contains(names, "admin") {
		t.Errorf("%v, %v", names, err)
	}
}
