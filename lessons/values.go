package lessons

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/shell"
)

// plainValue turns a statement result as the shell returns it (BSON
// values and the shell's display-only kinds) into BSON, so that a check
// sees attempt.value with its types: a function becomes its name, an
// instance its fields, an Error { name, message }.
func plainValue(v any) any {
	switch x := v.(type) {
	case bson.D:
		out := make(bson.D, len(x))
		for i, e := range x {
			out[i] = bson.E{Key: e.Key, Value: plainValue(e.Value)}
		}
		return out
	case bson.A:
		out := make(bson.A, len(x))
		for i, e := range x {
			out[i] = plainValue(e)
		}
		return out
	case shell.Int32Value:
		return int32(x)
	case shell.DoubleValue:
		return float64(x)
	case shell.Function:
		return "[Function: " + x.Name + "]"
	case shell.Instance:
		return plainValue(x.Doc)
	case shell.Circular:
		return "[Circular]"
	case shell.DBRef:
		d := bson.D{{Key: "$ref", Value: x.Collection}, {Key: "$id", Value: plainValue(x.ID)}}
		if x.DB != "" {
			d = append(d, bson.E{Key: "$db", Value: x.DB})
		}
		return append(d, plainValue(x.Fields).(bson.D)...)
	case shell.JSError:
		return bson.D{{Key: "name", Value: x.Name}, {Key: "message", Value: x.Message}}
	case shell.JSMap:
		out := bson.A{}
		for _, kv := range x.Entries {
			out = append(out, bson.A{plainValue(kv[0]), plainValue(kv[1])})
		}
		return out
	case shell.JSSet:
		out := bson.A{}
		for _, it := range x.Items {
			out = append(out, plainValue(it))
		}
		return out
	}
	return v
}
