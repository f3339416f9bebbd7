package expr

import "github.com/schemalab/schemalab/sandbox/mongoerr"

// unsupportedOperators are MongoDB 8.0 operators the sandbox does not
// implement. They fail with NotImplemented and a pointer to a real server,
// never with "Unrecognized expression", which would claim MongoDB does not
// know them.
var unsupportedOperators = map[string]bool{
	"$accumulator": true,
}

// Unsupported returns the sandbox's refusal for an operator it knows
// MongoDB has but does not implement, or nil.
func Unsupported(name string) error {
	if !unsupportedOperators[name] {
		return nil
	}
	return refusal(name)
}

// refusal is the sandbox's NotImplemented answer for name, also for the
// operators that parse as mongod does and cannot be evaluated here.
func refusal(name string) error {
	return mongoerr.Newf(mongoerr.NotImplemented,
		"%s is not supported by the schemalab sandbox; run this step against a real MongoDB with --uri", name)
}
