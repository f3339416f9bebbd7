package update

import "github.com/schemalab/schemalab/sandbox/engine/value"

// elemString and valueString render values as mongod does inside update
// error messages.
func elemString(key string, v any) string { return value.FormatElem(key, v) }

func valueString(v any) string { return value.Format(v) }
