package compat_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// cmdCase runs one command (JSON) and checks its reply or its error.
// Collection c holds docs first, and the setup commands run before it. In
// every JSON string, {{db}} stands for the case's database name (a
// bulkWrite names namespaces). admin runs the command on the admin
// database. want lists reply fields to compare, in the order the reply
// must have them (other fields may sit between them); "*" as a value only
// asks for the field to be there. When the command is a write, its
// writeErrors' first entry is what code and msg check (writeError), or
// else the command's own error. thenFind (a find or any command) and
// thenWant check what the command left: a cursor's documents, or the
// reply's fields as want does.
type cmdCase struct {
	name       string
	ref        string
	cov        cover // default: the command's row, errors or semantics
	docs       string
	setup      []string
	admin      bool
	db         string // a database other than the suite's, e.g. config
	cmd        string
	want       string
	code       int32
	msg        string
	codeless   bool // the error mongod sends with errmsg alone, no code
	writeError bool
	thenFind   string
	thenWant   string
}

func runCmdCases(t *testing.T, cases []cmdCase) {
	t.Helper()
	s := newSuite(t)
	for _, tc := range cases {
		first := ""
		if d := ejDoc(t, strings.ReplaceAll(tc.cmd, "{{db}}", "x")); len(d) > 0 {
			first = d[0].Key
		}
		col := errorsOr(tc.code)
		if tc.codeless {
			col = errorCol
		}
		cov := tc.cov.or(cover{family: commandFam, op: first, col: col})
		s.runCase(t, tc.name, tc.ref, cov, func(t *testing.T, db *mongo.Database) {
			fill := func(js string) string { return strings.ReplaceAll(js, "{{db}}", db.Name()) }
			insertDocs(t, db.Collection("c"), tc.docs)
			for _, c := range tc.setup {
				mustCommand(t, db, fill(c))
			}
			target := db
			if tc.admin {
				target = db.Client().Database("admin")
			}
			if tc.db != "" {
				target = db.Client().Database(tc.db)
			}
			cmd := ejDoc(t, fill(tc.cmd))
			reply, err := command(t, target, cmd)
			if err == nil && tc.writeError {
				we, _ := field(reply, "writeErrors").(bson.A)
				if len(we) == 0 {
					t.Fatalf("%s: no writeErrors in %s", tc.cmd, relaxed(reply))
				}
				first := we[0].(bson.D)
				code, _ := field(first, "code").(int32)
				msg, _ := field(first, "errmsg").(string)
				err = &mongo.CommandError{Code: code, Message: msg}
			}
			switch {
			case tc.code != 0 || tc.codeless:
				// A failed command's thenFind checks what it left behind.
				sameError(t, tc.cmd, err, tc.code, fill(tc.msg))
			case err != nil:
				t.Fatalf("%s: %v", tc.cmd, err)
			case tc.want != "":
				sameFields(t, tc.cmd, reply, ejDoc(t, fill(tc.want)))
			}
			if tc.thenFind == "" {
				return
			}
			then := ejDoc(t, fill(tc.thenFind))
			if then[0].Key == "find" || then[0].Key == "aggregate" {
				docs, err := cursorDocs(t, db, then)
				if err != nil {
					t.Fatal(err)
				}
				sameDocs(t, "then "+tc.thenFind, docs, fill(tc.thenWant), false)
				return
			}
			after, err := command(t, db, then)
			if err != nil {
				t.Fatal(err)
			}
			sameFields(t, "then "+tc.thenFind, after, ejDoc(t, fill(tc.thenWant)))
		})
	}
}

// sameFields fails unless reply holds every field of want with the same
// value, in want's order ("*" matches any value, at any depth).
func sameFields(t *testing.T, what string, reply, want bson.D) {
	t.Helper()
	at := -1
	for _, w := range want {
		pos := -1
		for i, f := range reply {
			if f.Key == w.Key {
				pos = i
				break
			}
		}
		if pos < 0 {
			t.Errorf("%s: reply has no field %q: %s", what, w.Key, relaxed(reply))
			continue
		}
		if pos < at {
			t.Errorf("%s: field %q comes before the fields want lists ahead of it: %s", what, w.Key, relaxed(reply))
		}
		at = pos
		if !matchesWant(t, reply[pos].Value, w.Value) {
			t.Errorf("%s: field %q\n got: %s\nwant: %s", what, w.Key, relaxed(reply[pos].Value), relaxed(w.Value))
		}
	}
}

// matchesWant compares got with want exactly (field names, order, BSON
// types), except where want holds "*".
func matchesWant(t *testing.T, got, want any) bool {
	if s, ok := want.(string); ok && s == "*" {
		return true
	}
	switch w := want.(type) {
	case bson.D:
		g, ok := got.(bson.D)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if g[i].Key != w[i].Key || !matchesWant(t, g[i].Value, w[i].Value) {
				return false
			}
		}
		return true
	case bson.A:
		g, ok := got.(bson.A)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !matchesWant(t, g[i], w[i]) {
				return false
			}
		}
		return true
	}
	return canonical(t, got) == canonical(t, want)
}
