package query

import (
	"errors"
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func TestExpr(t *testing.T) {
	// Manual $expr: "Compare Two Fields from A Single Document".
	budget := func(spent, b int32) D {
		return D{{Key: "category", Value: "food"}, {Key: "budget", Value: b}, {Key: "spent", Value: spent}}
	}
	gt := D{{Key: "$expr", Value: D{{Key: "$gt", Value: A{"$spent", "$budget"}}}}}
	runMatchCases(t, []matchCase{
		{"spent over budget", gt, budget(450, 400), true},
		{"spent under budget", gt, budget(50, 100), false},
		{"with other predicates", D{{Key: "category", Value: "food"}, {Key: "$expr", Value: D{{Key: "$lt", Value: A{"$spent", "$budget"}}}}}, budget(50, 100), true},
		{"truthiness of a field", D{{Key: "$expr", Value: "$flag"}}, D{{Key: "flag", Value: int32(0)}}, false},
		{"in $or", D{{Key: "$or", Value: A{D{{Key: "x", Value: int32(1)}}, D{{Key: "$expr", Value: D{{Key: "$eq", Value: A{"$a", int32(2)}}}}}}}}, D{{Key: "a", Value: int32(2)}}, true},
	})
}

func TestExprLetVarsAndErrors(t *testing.T) {
	f, err := Compile(D{{Key: "$expr", Value: D{{Key: "$eq", Value: A{"$a", "$$target"}}}}}, Options{LetVars: D{{Key: "target", Value: int32(3)}}})
	if err != nil {
		t.Fatal(err)
	}
	if !f.Matches(D{{Key: "a", Value: int32(3)}}) || f.Matches(D{{Key: "a", Value: int32(4)}}) {
		t.Fatal("let variable not applied")
	}
	// An undefined variable fails at parse time, as in mongod.
	if _, err := Compile(D{{Key: "$expr", Value: D{{Key: "$eq", Value: A{"$a", "$$nope"}}}}}, Options{}); err == nil {
		t.Fatal("undefined variable accepted")
	}
	// An evaluation error fails the query through Eval.
	f, err = Compile(D{{Key: "$expr", Value: D{{Key: "$divide", Value: A{int32(1), "$z"}}}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = f.Eval(D{{Key: "z", Value: int32(0)}})
	var me *mongoerr.Error
	if !errors.As(err, &me) {
		t.Fatalf("Eval: want a mongo error, got %v", err)
	}
	if f.Matches(D{{Key: "z", Value: int32(0)}}) {
		t.Fatal("an erroring $expr matched")
	}
}
