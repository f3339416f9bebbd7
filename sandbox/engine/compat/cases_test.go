package compat_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// The case kinds of the suite. Every case names its source in ref: a
// manual page ("manual: reference/operator/aggregation/mod") or a mongod
// jstest ("jstests/aggregation/expressions/let.js").

// planExecutor is what mongod puts before an error raised while a pipeline
// runs, as opposed to while it is parsed.
const planExecutor = "PlanExecutor error during aggregation :: caused by :: "

// aggCase runs pipeline on collection c, holding docs, and expects the
// documents want (in order unless unordered) or the error code/msg. After
// a pipeline that writes, even one that fails, thenFind (a find command,
// JSON) or else a find of collection thenColl sorted by _id lists the
// documents to compare with thenWant.
type aggCase struct {
	name      string
	ref       string
	cov       cover             // default: the first stage, errors or semantics
	docs      string            // JSON array for collection c
	other     map[string]string // further collections: name -> JSON array
	setup     []string          // commands run first (JSON), e.g. createIndexes
	let       string            // the command's let (JSON), if any
	pipeline  string
	want      string
	unordered bool
	code      int32
	msg       string
	thenColl  string
	thenFind  string
	thenWant  string
}

func runAggCases(t *testing.T, cases []aggCase) {
	t.Helper()
	s := newSuite(t)
	for _, tc := range cases {
		first := ""
		if stages := ejArray(t, tc.pipeline); len(stages) > 0 {
			first = firstOperator(stages[0])
		}
		cov := tc.cov.or(cover{family: stage, op: first, col: errorsOr(tc.code)})
		s.runCase(t, tc.name, tc.ref, cov, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), tc.docs)
			for name, docs := range tc.other {
				insertDocs(t, db.Collection(name), docs)
			}
			for _, cmd := range tc.setup {
				mustCommand(t, db, cmd)
			}
			cmd := bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: ejArray(t, tc.pipeline)}, {Key: "cursor", Value: bson.D{}}}
			if tc.let != "" {
				cmd = append(cmd, bson.E{Key: "let", Value: ejDoc(t, tc.let)})
			}
			got, err := cursorDocs(t, db, cmd)
			if tc.code != 0 {
				sameError(t, tc.pipeline, err, tc.code, tc.msg)
			} else if err != nil {
				t.Fatalf("%s: %v", tc.pipeline, err)
			}
			if tc.want != "" {
				sameDocs(t, tc.pipeline, got, tc.want, tc.unordered)
			}
			// A write that fails part way leaves what it wrote before it
			// failed: thenWant holds after an error too.
			if tc.thenColl != "" || tc.thenFind != "" {
				find := bson.D{{Key: "find", Value: tc.thenColl}, {Key: "sort", Value: bson.D{{Key: "_id", Value: 1}}}}
				if tc.thenFind != "" {
					find = ejDoc(t, tc.thenFind)
				}
				after, err := cursorDocs(t, db, find)
				if err != nil {
					t.Fatal(err)
				}
				sameDocs(t, "then "+relaxed(find), after, tc.thenWant, false)
			}
		})
	}
}

// exprCase evaluates expr as {$project: {_id: 0, r: expr}} over the one
// document doc: want is r's value, or missing is set when r is absent, or
// the error code/msg (msg in full, prefixes included).
type exprCase struct {
	name    string
	ref     string
	cov     cover  // default: the expression's operator, errors or semantics
	doc     string // JSON document; "" for {_id: 0}
	expr    string
	want    string
	missing bool
	code    int32
	msg     string
}

func runExprCases(t *testing.T, cases []exprCase) {
	t.Helper()
	s := newSuite(t)
	for _, tc := range cases {
		cov := tc.cov.or(cover{family: expression, op: exprOperator(ejValue(t, tc.expr)), col: errorsOr(tc.code)})
		s.runCase(t, tc.name, tc.ref, cov, func(t *testing.T, db *mongo.Database) {
			doc := tc.doc
			if doc == "" {
				doc = `{"_id": 0}`
			}
			insertDocs(t, db.Collection("c"), "["+doc+"]")
			pipeline := bson.A{bson.D{{Key: "$project", Value: bson.D{{Key: "_id", Value: int32(0)}, {Key: "r", Value: ejValue(t, tc.expr)}}}}}
			got, err := cursorDocs(t, db, bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: pipeline}, {Key: "cursor", Value: bson.D{}}})
			if tc.code != 0 {
				sameError(t, tc.expr, err, tc.code, tc.msg)
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.expr, err)
			}
			if len(got) != 1 {
				t.Fatalf("%s: %d documents", tc.expr, len(got))
			}
			if tc.missing {
				sameDocs(t, tc.expr, got, `[{}]`, false)
				return
			}
			sameDocs(t, tc.expr, got, `[{"r": `+tc.want+`}]`, false)
		})
	}
}

// findCase runs find on collection c with filter, projection and sort (JSON;
// sort defaults to {_id: 1}) and expects the documents want or an error.
type findCase struct {
	name       string
	ref        string
	cov        cover // default: the filter's first operator ($eq when it has none), else the projection's
	docs       string
	filter     string
	projection string
	sort       string
	want       string
	code       int32
	msg        string
}

func runFindCases(t *testing.T, cases []findCase) {
	t.Helper()
	s := newSuite(t)
	for _, tc := range cases {
		s.runCase(t, tc.name, tc.ref, tc.cov.or(findCover(t, tc)), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), tc.docs)
			cmd := bson.D{{Key: "find", Value: "c"}}
			if tc.filter != "" {
				cmd = append(cmd, bson.E{Key: "filter", Value: ejDoc(t, tc.filter)})
			}
			if tc.projection != "" {
				cmd = append(cmd, bson.E{Key: "projection", Value: ejDoc(t, tc.projection)})
			}
			sort := tc.sort
			if sort == "" {
				sort = `{"_id": 1}`
			}
			cmd = append(cmd, bson.E{Key: "sort", Value: ejDoc(t, sort)})
			got, err := cursorDocs(t, db, cmd)
			what := "filter " + tc.filter + " projection " + tc.projection
			if tc.code != 0 {
				sameError(t, what, err, tc.code, tc.msg)
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			sameDocs(t, what, got, tc.want, false)
		})
	}
}

// findCover is a find case's default row: the filter's first operator, or
// the projection's when the filter has none, or an equality match.
func findCover(t *testing.T, tc findCase) cover {
	c := cover{family: query, op: "$eq", col: errorsOr(tc.code)}
	if tc.filter != "" {
		if op := firstOperator(ejDoc(t, tc.filter)); op != "" {
			c.op = op
			return c
		}
	}
	if tc.projection != "" {
		c.family, c.op = projection, "inclusion and exclusion"
		if op := firstOperator(ejDoc(t, tc.projection)); op != "" {
			c.op = op
		}
	}
	return c
}

// updateCase applies update (a document or a pipeline, JSON) with updateOne
// semantics to the documents of c matching filter, then expects c to hold
// want (sorted by _id) and, when modified is set, the reply's nModified, or
// the update to fail with code/msg.
type updateCase struct {
	name         string
	ref          string
	cov          cover // default: the update's first operator ("pipeline" or "replacement" when it has none), errors or semantics
	docs         string
	filter       string // "" for {}
	update       string
	arrayFilters string
	upsert       bool
	multi        bool
	want         string
	modified     string
	code         int32
	msg          string
}

func runUpdateCases(t *testing.T, cases []updateCase) {
	t.Helper()
	s := newSuite(t)
	for _, tc := range cases {
		op := "pipeline"
		if u, ok := ejValue(t, tc.update).(bson.D); ok {
			op = "replacement"
			if len(u) > 0 && strings.HasPrefix(u[0].Key, "$") {
				op = u[0].Key
			}
		}
		s.runCase(t, tc.name, tc.ref, tc.cov.or(cover{family: update, op: op, col: errorsOr(tc.code)}), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), tc.docs)
			filter := tc.filter
			if filter == "" {
				filter = `{}`
			}
			stmt := bson.D{{Key: "q", Value: ejDoc(t, filter)}, {Key: "u", Value: ejValue(t, tc.update)},
				{Key: "upsert", Value: tc.upsert}, {Key: "multi", Value: tc.multi}}
			if tc.arrayFilters != "" {
				stmt = append(stmt, bson.E{Key: "arrayFilters", Value: ejArray(t, tc.arrayFilters)})
			}
			reply, err := command(t, db, bson.D{{Key: "update", Value: "c"}, {Key: "updates", Value: bson.A{stmt}}})
			if err == nil {
				// Per-statement failures come back as writeErrors.
				if we, ok := field(reply, "writeErrors").(bson.A); ok && len(we) > 0 {
					first := we[0].(bson.D)
					code, _ := field(first, "code").(int32)
					msg, _ := field(first, "errmsg").(string)
					err = &mongo.CommandError{Code: code, Message: msg}
				}
			}
			if tc.code != 0 {
				sameError(t, tc.update, err, tc.code, tc.msg)
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.update, err)
			}
			if tc.modified != "" {
				sameValue(t, "nModified of "+tc.update, field(reply, "nModified"), tc.modified)
			}
			after, ferr := cursorDocs(t, db, bson.D{{Key: "find", Value: "c"}, {Key: "sort", Value: bson.D{{Key: "_id", Value: 1}}}})
			if ferr != nil {
				t.Fatal(ferr)
			}
			sameDocs(t, tc.update, after, tc.want, false)
		})
	}
}
