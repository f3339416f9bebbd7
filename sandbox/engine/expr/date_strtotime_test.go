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

// $dateFromString and $toDate hand the scanner any string a document
// holds: it must answer every one with a date or mongod's error, never a
// panic, and take no longer than its length warrants.
func FuzzDateFromString(f *testing.F) {
	for _, s := range []string{"2017-07-04T12:34:56.789Z", "July 4th, 2017 11am", "7/4/17", "Tue, 04 Jul 2017 12:00:00 GMT",
		"2017-W27-2", "@1499169600", "2017-07-04T", "2017, 12:50:53", "23:59:60", "2017-02-30", "", " ", "\x00", "9999-12-31T23:59:59.999999Z"} {
		f.Add(s, "")
		f.Add(s, "Europe/Paris")
	}
	f.Fuzz(func(t *testing.T, s, zone string) {
		spec := bson.D{{Key: "dateString", Value: s}}
		if zone != "" {
			spec = append(spec, bson.E{Key: "timezone", Value: zone})
		}
		e, err := Compile(bson.D{{Key: "$dateFromString", Value: spec}}, NewScope())
		if err != nil {
			return
		}
		if v, err := e.Eval(NewEnv(bson.D{}, 0)); err == nil && v != nil {
			// A timezone that names a missing field makes the answer null.
			if _, ok := v.(bson.DateTime); !ok {
				t.Fatalf("%q in %q: %T %v", s, zone, v, v)
			}
		}
	})
}
