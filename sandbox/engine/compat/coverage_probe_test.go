package compat_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// TestCoverageRows finds, through the driver, which of mongod 8.0's names
// (mongod_names_test.go) the sandbox accepts, and gives each a row of
// COVERAGE.md, so that an accepted operator no case covers shows as a row
// of zeros. A name counts as accepted unless the sandbox answers with the
// error mongod gives for an unknown name of that family, or with
// NotImplemented (out of scope, said so).
func TestCoverageRows(t *testing.T) {
	s := newSuite(t)
	db := s.embedded.Database("coverage_probe")
	t.Cleanup(func() { _ = db.Drop(ctxFor(t)) })
	accept := func(f family, name string, unknown func(*mongo.CommandError) bool, cmd bson.D) {
		_, ce := command(t, db, cmd)
		if ce != nil && (unknown(ce) || ce.Code == notImplemented) {
			return
		}
		ledger.accept(f, name)
	}
	aggregate := func(stages ...bson.D) bson.D {
		p := bson.A{}
		for _, st := range stages {
			p = append(p, st)
		}
		return bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: p}, {Key: "cursor", Value: bson.D{}}}
	}
	for _, name := range mongodExpressions {
		accept(expression, name, hasCode(168), aggregate(bson.D{{Key: "$project", Value: bson.D{
			{Key: "x", Value: bson.D{{Key: name, Value: bson.A{}}}}}}}))
	}
	for _, name := range mongodStages {
		accept(stage, name, hasCode(40324), aggregate(bson.D{{Key: name, Value: bson.D{}}}))
	}
	for _, name := range mongodAccumulators {
		accept(accumulator, name, hasCode(15952), aggregate(bson.D{{Key: "$group", Value: bson.D{
			{Key: "_id", Value: nil}, {Key: "x", Value: bson.D{{Key: name, Value: "$a"}}}}}}))
	}
	for _, name := range mongodWindowFunctions {
		accept(window, name, hasMessage("Unrecognized window function"), aggregate(bson.D{{Key: "$setWindowFields", Value: bson.D{
			{Key: "sortBy", Value: bson.D{{Key: "a", Value: 1}}},
			{Key: "output", Value: bson.D{{Key: "x", Value: bson.D{{Key: name, Value: "$a"}}}}}}}}))
	}
	find := func(filter bson.D) bson.D {
		return bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: filter}}
	}
	for _, name := range mongodTopLevelQueryOperators {
		accept(query, name, hasMessage("unknown top level operator"), find(bson.D{{Key: name, Value: bson.A{}}}))
	}
	for _, name := range mongodQueryOperators {
		accept(query, name, hasMessage("unknown operator"), find(bson.D{{Key: "a", Value: bson.D{{Key: name, Value: 1}}}}))
	}
	for _, name := range mongodProjectionOperators {
		accept(projection, name, hasMessage("Unknown projection operator"), bson.D{{Key: "find", Value: "c"},
			{Key: "projection", Value: bson.D{{Key: "a", Value: bson.D{{Key: name, Value: 1}}}}}})
	}
	for _, name := range mongodUpdateOperators {
		accept(update, name, hasMessage("Unknown modifier"), bson.D{{Key: "update", Value: "c"}, {Key: "updates", Value: bson.A{
			bson.D{{Key: "q", Value: bson.D{}}, {Key: "u", Value: bson.D{{Key: name, Value: bson.D{{Key: "a", Value: 1}}}}}}}}})
	}
	admin := s.embedded.Database("admin")
	for _, name := range mongodCommands {
		// The probe sends each command a collection name it has never
		// seen; it is the command's name the server has to know. An
		// admin-only command refused on another database is sent again
		// on admin, where the sandbox either runs it or says it does not.
		cmd := bson.D{{Key: name, Value: "coverage_probe_none"}}
		if _, ce := command(t, db, cmd); ce != nil && ce.Code == unauthorized &&
			strings.HasSuffix(ce.Message, "may only be run against the admin database.") {
			if _, ce := command(t, admin, cmd); ce != nil && ce.Code == notImplemented {
				continue
			}
		}
		accept(commandFam, name, hasCode(59), cmd)
	}
}

// notImplemented is mongod's NotImplemented code, the sandbox's answer for
// what it leaves out of scope.
const notImplemented = 238

// unauthorized is mongod's Unauthorized code, which an admin-only command
// answers on any other database.
const unauthorized = 13

func hasCode(code int32) func(*mongo.CommandError) bool {
	return func(ce *mongo.CommandError) bool { return ce.Code == code }
}

func hasMessage(part string) func(*mongo.CommandError) bool {
	return func(ce *mongo.CommandError) bool { return strings.Contains(ce.Message, part) }
}
