package query

import (
	"errors"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

type D = bson.D
type A = bson.A
type E = bson.E

func compile(t *testing.T, filter D) *Filter {
	t.Helper()
	f, err := Compile(filter, Options{})
	if err != nil {
		t.Fatalf("Compile(%v): %v", filter, err)
	}
	return f
}

// matchCase is one filter against one document with mongod's answer.
type matchCase struct {
	name   string
	filter D
	doc    D
	want   bool
}

func runMatchCases(t *testing.T, cases []matchCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := compile(t, c.filter)
			if got := f.Matches(c.doc); got != c.want {
				t.Errorf("filter %v on %v: got %v, want %v", c.filter, c.doc, got, c.want)
			}
		})
	}
}

type errCase struct {
	name   string
	filter D
	code   int32
	msg    string
}

func runErrCases(t *testing.T, cases []errCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Compile(c.filter, Options{})
			var me *mongoerr.Error
			if !errors.As(err, &me) {
				t.Fatalf("filter %v: want error %d %q, got %v", c.filter, c.code, c.msg, err)
			}
			if me.Code != c.code || me.Msg != c.msg {
				t.Errorf("filter %v: got (%d) %q, want (%d) %q", c.filter, me.Code, me.Msg, c.code, c.msg)
			}
		})
	}
}
