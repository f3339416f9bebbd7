package engine_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// The cost of an unanchored regex on an indexed field over 200,000
// documents (1 in 10 matches): with index-key filtering the IXSCAN tests
// every key and FETCH reads only the matches; the Explain variant adds
// explain('executionStats') on top.
//
//	go test ./sandbox/engine -run '^$' -bench 'UnanchoredRegex' -benchtime 10x
func regexBench(b *testing.B, explain bool) {
	client := startServer(b)
	coll := client.Database("bench").Collection("e")
	if _, err := coll.InsertMany(ctx, enrollments(200_000)); err != nil {
		b.Fatal(err)
	}
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "student", Value: 1}}}); err != nil {
		b.Fatal(err)
	}
	filter := bson.D{{Key: "student", Value: bson.Regex{Pattern: "7$"}}}
	b.ResetTimer()
	for range b.N {
		if explain {
			cmd := bson.D{{Key: "explain", Value: bson.D{{Key: "find", Value: "e"}, {Key: "filter", Value: filter}}}, {Key: "verbosity", Value: "executionStats"}}
			if err := coll.Database().RunCommand(ctx, cmd).Err(); err != nil {
				b.Fatal(err)
			}
			continue
		}
		cur, err := coll.Find(ctx, filter)
		if err != nil {
			b.Fatal(err)
		}
		var out []bson.Raw
		if err := cur.All(ctx, &out); err != nil {
			b.Fatal(err)
		}
		if len(out) != 20_000 {
			b.Fatalf("%d matches", len(out))
		}
	}
}

func BenchmarkUnanchoredRegex200k(b *testing.B)        { regexBench(b, false) }
func BenchmarkUnanchoredRegex200kExplain(b *testing.B) { regexBench(b, true) }
