package expr

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// The ISO fast path must read exactly what the token rules read: every
// string it accepts is scanned both ways and the results compared.
func TestScanISODateTimeMatchesTheTokenRules(t *testing.T) {
	r := rand.New(rand.NewPCG(45, 1))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	num := func(width, max int) string { return fmt.Sprintf("%0*d", width, r.IntN(max+1)) }
	accepted := 0
	for range 20000 {
		s := num(4, 9999) + "-" + num(2, 13) + "-" + num(2, 32)
		switch r.IntN(4) {
		case 0:
		case 1:
			s += pick("T", " ", "t") + num(2, 25) + ":" + num(2, 60) + ":" + num(2, 61)
		default:
			s += "T" + num(2, 23) + ":" + num(2, 59) + ":" + num(2, 59) +
				pick("", "."+num(1+r.IntN(9), 1), "."+num(3, 999), "."+num(6, 999999), "."+num(8, 99999999), ".") +
				pick("", "Z", "z", "+01:00", "ZZ", " Z", "X")
		}
		fast, ok := scanISODateTime(s)
		if !ok {
			continue
		}
		accepted++
		slow := scanDateTokens(s)
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: fast %+v (zone %+v), token rules %+v (zone %+v)", s, *fast, fast.zone, *slow, slow.zone)
		}
	}
	if accepted < 5000 {
		t.Fatalf("the fast path took only %d of the strings", accepted)
	}
}

// $toDate of an ISO string, the form imported data most often holds.
func BenchmarkToDateISOString(b *testing.B) {
	e, err := Compile(bson.D{{Key: "$toDate", Value: "$s"}}, NewScope())
	if err != nil {
		b.Fatal(err)
	}
	env := NewEnv(bson.D{{Key: "s", Value: "2017-07-04T12:34:56.789Z"}}, 0)
	for b.Loop() {
		if _, err := e.Eval(env); err != nil {
			b.Fatal(err)
		}
	}
}
