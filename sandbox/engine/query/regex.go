package query

import (
	"errors"
	"regexp"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// mongod's codes for regex parse failures (src/mongo/db/matcher/expression_leaf.cpp).
const (
	codeRegexInvalid      = 51091
	codeRegexInvalidFlag  = 51108
	codeRegexOptionsTwice = 51075
	codeRegexOptionsBoth  = 51074
)

// Matches implements Node.
func (r *Regex) Matches(doc bson.D, pos *Position) bool {
	return matchPath(doc, pathParts(r.parts, r.Path), true, r, pos)
}

func (r *Regex) matchValue(v any, _ *Position) bool {
	re := r.compiled
	if re == nil {
		var err error
		if re, err = compileRegex(r.Regex.Pattern, r.Regex.Options); err != nil {
			return false
		}
	}
	return matchRegexValue(re, r.Regex, v)
}

// matchRegexValue: a regex matches strings and symbols, and a stored BSON
// regex only when pattern and flags are identical.
func matchRegexValue(re *regexp.Regexp, src bson.Regex, v any) bool {
	switch x := v.(type) {
	case string:
		return matchString(re, x)
	case bson.Symbol:
		return matchString(re, string(x))
	case bson.Regex:
		return x.Pattern == src.Pattern && x.Options == src.Options
	}
	return false
}

// matchString is re.MatchString, but a pattern that is one literal string
// is looked for as such: Go's matcher steps its automaton through every
// character of the literal at each candidate position, so a 16,384
// character literal took seconds against one long string, where PCRE
// answers at once.
func matchString(re *regexp.Regexp, s string) bool {
	if lit, complete := re.LiteralPrefix(); complete {
		return strings.Contains(s, lit)
	}
	return re.MatchString(s)
}

// compileRegex translates a PCRE pattern with mongod's options (i, m, s, x,
// u) into a Go regexp. Constructs RE2 cannot run (lookaround,
// backreferences) are refused with NotImplemented rather than silently
// matching differently.
func compileRegex(pattern, options string) (*regexp.Regexp, error) {
	// 8.0's RegexMatchExpression constructor reads the flags first
	// (makeRegex in its initializer list calls pcre_util::flagsToOptions),
	// then refuses a null byte in the pattern, then a pattern that does
	// not compile; a null byte among the flags is one more unknown flag.
	flags := ""
	extended := false
	for _, o := range options {
		switch o {
		case 'i', 'm', 's':
			if !strings.ContainsRune(flags, o) {
				flags += string(o)
			}
		case 'x':
			extended = true
		case 'u':
			// UTF-8 mode is always on in Go.
		default:
			// flagsToOptions's message starts with the operator's name,
			// which a query's regex leaves empty: hence the leading space.
			return nil, mongoerr.Newf(codeRegexInvalidFlag, " invalid flag in regex options: %c", o)
		}
	}
	if err := checkRegexLimits(pattern); err != nil {
		return nil, err
	}
	if extended {
		pattern = stripExtended(pattern)
	}
	written := pattern
	pattern, err := translatePCRE(pattern, strings.ContainsRune(flags, 'm'), strings.ContainsRune(flags, 's'))
	if err != nil {
		return nil, invalidBeforeRefused(written, err)
	}
	if flags != "" {
		pattern = "(?" + flags + ")" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		if construct := expr.PCREOnly(err); construct != "" {
			return nil, invalidBeforeRefused(written, expr.PCRERefusal(construct))
		}
		return nil, mongoerr.New(codeRegexInvalid, "Regular expression is invalid: "+expr.PCREMessage(err))
	}
	return re, nil
}

// invalidBeforeRefused answers for a pattern the sandbox refuses a
// construct of: mongod compiles the whole pattern, so one whose
// parentheses or classes do not close is invalid (51091) there, whatever
// it uses, and not a feature the sandbox leaves out.
func invalidBeforeRefused(pattern string, refused error) error {
	var me *mongoerr.Error
	if !errors.As(refused, &me) || me.Code != mongoerr.NotImplemented {
		return refused
	}
	if _, msg := expr.PatternStructure(pattern); msg != "" {
		return pcreInvalid(msg)
	}
	return refused
}

// checkRegexLimits is what RegexMatchExpression's constructor
// (src/mongo/db/matcher/expression_leaf.cpp) refuses of a pattern besides
// Go's own compile errors: an embedded null byte, checked first, then a
// pattern past the limits PCRE2 compiles with (expr.PCRE2Limit), which
// fails the compilation (51091). 8.0 has no length check of its own: the
// BadValue "Regular expression is too long" was the pre-PCRE2
// RegexMatchExpression::_init's.
func checkRegexLimits(pattern string) error {
	if strings.IndexByte(pattern, 0) >= 0 {
		return mongoerr.New(mongoerr.BadValue, "Regular expression cannot contain an embedded null byte")
	}
	if msg := expr.PCRE2Limit(pattern); msg != "" {
		return mongoerr.New(codeRegexInvalid, "Regular expression is invalid: "+msg)
	}
	return nil
}

// stripExtended removes the whitespace and #-comments that PCRE's x option
// ignores outside character classes.
func stripExtended(p string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			b.WriteByte(c)
			b.WriteByte(p[i+1])
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
			b.WriteByte(c)
		case c == '[':
			inClass = true
			b.WriteByte(c)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
		case c == '#':
			for i < len(p) && p[i] != '\n' {
				i++
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
