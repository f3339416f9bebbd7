package query

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// A learner's $regex reaches the PCRE2 translator as typed: whatever the
// pattern and options, compiling the filter answers (a match, or an error
// with a code) and never panics.
func FuzzRegexFilter(f *testing.F) {
	for _, p := range []string{`^a$`, `(*UTF)(*CR)x$`, `\Qa.b\E*`, `[[:alpha:]\h]`, `a{2,}?b{`, `(?i)x(?-i)y`,
		`\p{L&}\p{Xan}`, `(?<n>a)(?'m'b)`, `\o{101}\x{41}\e`, `a(?#c)b\K`, `(*FAIL)|(*ACCEPT)`, `[\Q]\E]`, `\R\N\v`} {
		f.Add(p, "imsx")
	}
	f.Fuzz(func(t *testing.T, pattern, options string) {
		filter, err := Compile(bson.D{{Key: "s", Value: bson.D{{Key: "$regex", Value: pattern}, {Key: "$options", Value: options}}}}, Options{})
		if err != nil {
			return
		}
		for _, s := range []string{"", "a\n", "hashthis", pattern} {
			filter.Matches(bson.D{{Key: "s", Value: s}})
		}
	})
}
