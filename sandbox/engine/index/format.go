package index

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// FormatValue renders v as mongod does in E11000 messages, index specs
// and explain's index bounds.
func FormatValue(v any) string { return value.Format(v) }

// FormatDoc renders a document as mongod prints it: { a: 1, b: "x" }.
func FormatDoc(d bson.D) string { return value.FormatDoc(d) }
