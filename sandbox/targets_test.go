package sandbox

import (
	"errors"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

type (
	D = bson.D
	A = bson.A
)

// cmdOn is cmd with $db appended, as the driver sends it.
func cmdOn(db string, cmd ...bson.E) D {
	return append(D(cmd), bson.E{Key: "$db", Value: db})
}

func e(k string, v any) bson.E { return bson.E{Key: k, Value: v} }

func pipeline(stages ...D) A {
	a := A{}
	for _, s := range stages {
		a = append(a, s)
	}
	return a
}

func TestPolicyAllows(t *testing.T) {
	p := policy{prefix: "schemalab_", unlockable: true}
	for _, tc := range []struct {
		name string
		cmd  D
	}{
		{"hello on admin", cmdOn("admin", e("hello", 1), e("helloOk", true))},
		{"hello on any database", cmdOn("important", e("hello", 1))},
		{"ping", cmdOn("admin", e("ping", 1))},
		{"buildInfo", cmdOn("admin", e("buildInfo", 1))},
		{"saslStart on the auth source", cmdOn("admin", e("saslStart", 1), e("mechanism", "SCRAM-SHA-256"))},
		{"authenticate on $external", cmdOn("$external", e("authenticate", 1), e("mechanism", "MONGODB-X509"))},
		{"endSessions", cmdOn("admin", e("endSessions", A{D{e("id", 1)}}))},
		{"find", cmdOn("schemalab_x", e("find", "c"), e("filter", D{}))},
		{"getMore", cmdOn("schemalab_x", e("getMore", int64(5)), e("collection", "c"))},
		{"insert with $out-like data", cmdOn("schemalab_x", e("insert", "c"), e("documents", A{D{e("$out", D{e("db", "important")})}}))},
		{"aggregate $out to a collection", cmdOn("schemalab_x", e("aggregate", "c"), e("pipeline", pipeline(D{e("$out", "o")})), e("cursor", D{}))},
		{"aggregate $out to a sandbox database", cmdOn("schemalab_x", e("aggregate", "c"), e("pipeline", pipeline(D{e("$out", D{e("db", "schemalab_y"), e("coll", "o")})})))},
		{"$merge into a sandbox database", cmdOn("schemalab_x", e("aggregate", "c"), e("pipeline", pipeline(D{e("$merge", D{e("into", D{e("db", "schemalab_y"), e("coll", "o")})})})))},
		{"$lookup within the database", cmdOn("schemalab_x", e("aggregate", "c"), e("pipeline", pipeline(D{e("$lookup", D{e("from", "d"), e("let", D{e("db", "$x")}), e("pipeline", pipeline(D{e("$match", D{})})), e("as", "a")})})))},
		{"renameCollection inside the sandbox", cmdOn("admin", e("renameCollection", "schemalab_x.a"), e("to", "schemalab_y.b"))},
		{"bulkWrite inside the sandbox", cmdOn("admin", e("bulkWrite", 1), e("ops", A{D{e("insert", 0), e("document", D{})}}), e("nsInfo", A{D{e("ns", "schemalab_x.c")}}))},
		{"mapReduce inline", cmdOn("schemalab_x", e("mapReduce", "c"), e("map", "function(){}"), e("reduce", "function(){}"), e("out", D{e("inline", 1)}))},
		{"explain of find", cmdOn("schemalab_x", e("explain", D{e("find", "c")}), e("verbosity", "queryPlanner"))},
		{"view inside the database", cmdOn("schemalab_x", e("create", "v"), e("viewOn", "c"), e("pipeline", pipeline(D{e("$match", D{})})))},
		{"snapshot restore from a template", cmdOn("schemalab_alice", e("schemalabSnapshot", "restore"), e("db", "schemalab_alice"), e("fromDb", "schemalab_template"), e("name", "s1"))},
		{"commitTransaction", cmdOn("admin", e("commitTransaction", 1))},
		{"dropDatabase in the sandbox", cmdOn("schemalab_x", e("dropDatabase", 1))},
	} {
		if err := p.check(tc.cmd); err != nil {
			t.Errorf("%s: refused: %v", tc.name, err)
		}
	}
}

func TestPolicyRefuses(t *testing.T) {
	p := policy{prefix: "schemalab_", unlockable: true}
	outToImportant := D{e("$out", D{e("db", "important"), e("coll", "x")})}
	agg := func(stages ...D) D {
		return cmdOn("schemalab_x", e("aggregate", "c"), e("pipeline", pipeline(stages...)), e("cursor", D{}))
	}
	for _, tc := range []struct {
		name string
		cmd  D
		// db is the database the refusal names; "" for a refusal for
		// another reason, whose text must contain why.
		db, why string
	}{
		{"dropDatabase", cmdOn("important", e("dropDatabase", 1)), "important", ""},
		{"insert", cmdOn("important", e("insert", "people"), e("documents", A{D{e("pwned", true)}})), "important", ""},
		{"find", cmdOn("important", e("find", "people")), "important", ""},
		{"two $db", append(cmdOn("schemalab_x", e("dropDatabase", 1)), e("$db", "important")), "important", ""},
		{"two $db, the sandbox one last", append(cmdOn("important", e("dropDatabase", 1)), e("$db", "schemalab_x")), "important", ""},
		{"two $db in the sandbox", append(cmdOn("schemalab_x", e("dropDatabase", 1)), e("$db", "schemalab_y")), "", "more than one $db"},
		{"two $db on a server command", append(cmdOn("schemalab_x", e("hello", 1)), e("$db", "important")), "important", ""},
		{"no $db", D{e("dropDatabase", 1)}, "", "no $db"},
		{"$db not a string", D{e("find", "c"), e("$db", int32(1))}, "", "not a string"},
		{"$out to another database", agg(outToImportant), "important", ""},
		{"$merge into another database", agg(D{e("$merge", D{e("into", D{e("db", "important"), e("coll", "x")})})}), "important", ""},
		{"$out inside $facet", agg(D{e("$facet", D{e("a", pipeline(outToImportant))})}), "important", ""},
		{"$out inside $lookup", agg(D{e("$lookup", D{e("from", "d"), e("pipeline", pipeline(outToImportant)), e("as", "a")})}), "important", ""},
		{"$out inside $unionWith", agg(D{e("$unionWith", D{e("coll", "d"), e("pipeline", pipeline(outToImportant))})}), "important", ""},
		{"$lookup from another database", agg(D{e("$lookup", D{e("from", D{e("db", "important"), e("coll", "people")}), e("as", "a"), e("localField", "x"), e("foreignField", "y")})}), "important", ""},
		{"$graphLookup from another database", agg(D{e("$graphLookup", D{e("from", D{e("db", "local"), e("coll", "oplog.rs")})})}), "local", ""},
		{"$unionWith another database", agg(D{e("$unionWith", D{e("coll", D{e("db", "important"), e("coll", "people")})})}), "important", ""},
		{"$merge whenMatched pipeline", agg(D{e("$merge", D{e("into", "o"), e("whenMatched", pipeline(D{e("$lookup", D{e("from", D{e("db", "important")})})}))})}), "important", ""},
		{"duplicated $out db", agg(D{e("$out", D{e("db", "schemalab_y"), e("db", "important"), e("coll", "x")})}), "important", ""},
		{"$out db not a string", agg(D{e("$out", D{e("db", D{}), e("coll", "x")})}), "", "not a string"},
		{"internal stage", agg(D{e("$mergeCursors", D{})}), "", "`$mergeCursors`"},
		{"server-wide stage", agg(D{e("$currentOp", D{})}), "", "`$currentOp`"},
		{"explain of $out", cmdOn("schemalab_x", e("explain", agg(outToImportant)[:3])), "important", ""},
		{"explain with its own $db", cmdOn("schemalab_x", e("explain", D{e("find", "c"), e("$db", "important")})), "important", ""},
		{"explain of a refused command", cmdOn("schemalab_x", e("explain", D{e("applyOps", A{})})), "", "explaining `applyOps`"},
		{"renameCollection to another database", cmdOn("admin", e("renameCollection", "schemalab_x.a"), e("to", "important.a")), "important", ""},
		{"renameCollection from another database", cmdOn("admin", e("renameCollection", "important.people"), e("to", "schemalab_x.stolen")), "important", ""},
		{"applyOps", cmdOn("admin", e("applyOps", A{D{e("op", "c"), e("ns", "important.$cmd"), e("o", D{e("drop", "people")})}})), "admin", ""},
		{"applyOps inside the sandbox", cmdOn("schemalab_x", e("applyOps", A{})), "", "does not allow this command"},
		{"mapReduce out db", cmdOn("schemalab_x", e("mapReduce", "c"), e("out", D{e("replace", "o"), e("db", "important")})), "important", ""},
		{"view on a pipeline reading another database", cmdOn("schemalab_x", e("create", "v"), e("viewOn", "c"), e("pipeline", pipeline(D{e("$lookup", D{e("from", D{e("db", "important"), e("coll", "p")})})}))), "important", ""},
		{"collMod view pipeline", cmdOn("schemalab_x", e("collMod", "v"), e("pipeline", pipeline(D{e("$unionWith", D{e("coll", D{e("db", "important")})})}))), "important", ""},
		{"bulkWrite nsInfo", cmdOn("admin", e("bulkWrite", 1), e("ops", A{}), e("nsInfo", A{D{e("ns", "schemalab_x.c")}, D{e("ns", "important.people")}})), "important", ""},
		{"bulkWrite nsInfo not documents", cmdOn("admin", e("bulkWrite", 1), e("nsInfo", A{"important.people"})), "", "other than documents"},
		{"snapshot of another database", cmdOn("schemalab_x", e("schemalabSnapshot", "save"), e("db", "important"), e("name", "s")), "important", ""},
		{"snapshot restore from another database", cmdOn("schemalab_x", e("schemalabSnapshot", "restore"), e("fromDb", "important"), e("name", "s")), "important", ""},
		{"listDatabases", cmdOn("admin", e("listDatabases", 1)), "admin", ""},
		{"serverStatus", cmdOn("admin", e("serverStatus", 1)), "admin", ""},
		{"shutdown", cmdOn("admin", e("shutdown", 1)), "admin", ""},
		{"the prefix itself", cmdOn("schemalab_", e("insert", "c")), "schemalab_", ""},
		{"a differently cased prefix", cmdOn("Schemalab_x", e("insert", "c")), "Schemalab_x", ""},
		{"empty command", D{}, "", "empty command"},
		{"update pipeline reading another database", cmdOn("schemalab_x", e("update", "c"), e("updates", A{D{e("q", D{}), e("u", pipeline(D{e("$unionWith", D{e("coll", D{e("db", "important")})})}))}})), "important", ""},
	} {
		err := p.check(tc.cmd)
		var oe *OutsideSandboxError
		if !errors.As(err, &oe) || !errors.Is(err, ErrOutsideSandbox) {
			t.Errorf("%s: not refused: %v", tc.name, err)
			continue
		}
		if oe.Database != tc.db || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%s: refusal %q, want database %q and %q", tc.name, err, tc.db, tc.why)
		}
	}
}

func TestRefusalMessage(t *testing.T) {
	p := policy{prefix: "schemalab_", unlockable: true}
	err := p.check(cmdOn("important", e("dropDatabase", 1)))
	want := "schemalab: refusing `dropDatabase` on database `important`: outside the sandbox prefix `schemalab_` (pass --unsafe-any-db to allow)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	// A prefix given to NewClient (a classroom student's) is not lifted by
	// --unsafe-any-db, so its refusals do not suggest it.
	student := policy{prefix: "alice_"}
	err = student.check(cmdOn("bob_tree", e("drop", "c")))
	want = "schemalab: refusing `drop` on database `bob_tree`: outside the sandbox prefix `alice_`"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
