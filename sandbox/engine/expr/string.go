package expr

import (
	"errors"
	"math"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// coerceToString is Value::coerceToString, used by $toUpper, $toLower,
// $substr* and $strcasecmp.
func coerceToString(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case bson.Symbol:
		return string(x), nil
	case nil, value.Missing, bson.Undefined:
		return "", nil
	case int32:
		return strconv.FormatInt(int64(x), 10), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float64:
		// str::stream() << double, which prints as %g does.
		return value.FormatStreamDouble(x), nil
	case bson.Decimal128:
		return x.String(), nil
	case bson.DateTime:
		s, err := isoDate(x)
		return s, withContext(err, "failed while coercing date to string")
	case bson.Timestamp:
		return prettyTimestamp(x), nil
	case bson.JavaScript:
		return string(x), nil
	}
	return "", mongoerr.Newf(mongoerr.ErrCoerceToStringFailed, "can't convert from BSON type %s to String", typeName(v))
}

// prettyTimestamp is Timestamp::toStringPretty: time_t_to_String_short of
// the seconds (ctime's "Sun Sep 13 12:26:40 2020" without the weekday and
// the year) then ':' and the increment. ctime prints mongod's local time;
// the sandbox's is UTC.
func prettyTimestamp(ts bson.Timestamp) string {
	return time.Unix(int64(ts.T), 0).UTC().Format("Jan _2 15:04:05") + ":" + strconv.FormatUint(uint64(ts.I), 10)
}

// doubleToString formats a double as $toString does (fmt's "{}": the
// shortest round-trip digits, exponent form outside [1e-5, 1e16)).
func doubleToString(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0 && math.Signbit(f):
		return "-0"
	}
	a := math.Abs(f)
	if a != 0 && (a >= 1e16 || a < 1e-4) {
		return strconv.FormatFloat(f, 'e', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func compileConcat(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileArgs(arg, scope)
	if err != nil {
		return nil, err
	}
	if args, err = foldAssociative(scope, args, false, concat); err != nil {
		return nil, err
	}
	return concat(args), nil
}

func concat(args []Expr) Expr {
	return evalFunc(func(env *Env) (any, error) {
		parts := make([]string, 0, len(args))
		var size stringBuild
		for _, a := range args {
			v, err := a.Eval(env)
			if err != nil {
				return nil, err
			}
			if nullish(v) {
				return nil, nil
			}
			s, ok := v.(string)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrConcatNonString, "$concat only supports strings, not %s", typeName(v))
			}
			if err := size.add(len(s)); err != nil {
				return nil, err
			}
			parts = append(parts, s)
		}
		if err := size.done(); err != nil {
			return nil, err
		}
		return strings.Join(parts, ""), nil
	})
}

func caseChange(name string, v any) (any, error) {
	s, err := coerceToString(v)
	if err != nil {
		return nil, err
	}
	b := []byte(s)
	for i, c := range b {
		// mongod changes ASCII letters only.
		if name == "$toUpper" && c >= 'a' && c <= 'z' {
			b[i] = c - 32
		} else if name == "$toLower" && c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b), nil
}

func strcasecmp(a, b any) (any, error) {
	x, err := coerceToString(a)
	if err != nil {
		return nil, err
	}
	y, err := coerceToString(b)
	if err != nil {
		return nil, err
	}
	c := strings.Compare(asciiUpper(x), asciiUpper(y))
	return int32(c), nil
}

func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}

func compileSubstrBytes(_ string, arg any, scope *Scope) (Expr, error) {
	// $substr parses into $substrBytes, whose name its messages carry.
	name := "$substrBytes"
	args, err := compileFixed(name, arg, scope, 3)
	if err != nil {
		return nil, err
	}
	return evalFunc(func(env *Env) (any, error) {
		vals, err := evalAll(env, args, make([]any, 0, 3))
		if err != nil {
			return nil, err
		}
		s, err := coerceToString(vals[0])
		if err != nil {
			return nil, err
		}
		if !value.IsNumber(vals[1]) {
			return nil, mongoerr.Newf(mongoerr.ErrSubstrBytesStartNotNumber, "%s:  starting index must be a numeric type (is BSON type %s)", name, typeName(vals[1]))
		}
		if !value.IsNumber(vals[2]) {
			return nil, mongoerr.Newf(mongoerr.ErrSubstrBytesLengthNotNumber, "%s:  length must be a numeric type (is BSON type %s)", name, typeName(vals[2]))
		}
		lo, err := value.CoerceToLong(vals[1])
		if err != nil {
			return nil, err
		}
		if lo < 0 {
			return nil, mongoerr.Newf(mongoerr.ErrSubstrBytesStartNegative, "%s:  starting index must be non-negative (got: %d)", name, lo)
		}
		ln, err := value.CoerceToLong(vals[2])
		if err != nil {
			return nil, err
		}
		ulo, uln := uint64(lo), uint64(ln)
		if ln < 0 {
			// A negative length means the rest of the string.
			uln = uint64(len(s))
		}
		if ulo < uint64(len(s)) && s[ulo]&0xC0 == 0x80 {
			return nil, mongoerr.Newf(mongoerr.ErrSubstrBytesStartInCharacter, "%s:  Invalid range, starting index is a UTF-8 continuation byte.", name)
		}
		if ulo+uln < uint64(len(s)) && s[ulo+uln]&0xC0 == 0x80 {
			return nil, mongoerr.Newf(mongoerr.ErrSubstrBytesEndInCharacter, "%s:  Invalid range, ending index is in the middle of a UTF-8 character.", name)
		}
		if ulo >= uint64(len(s)) {
			return "", nil
		}
		end := min(ulo+uln, uint64(len(s)))
		return s[ulo:end], nil
	}), nil
}

func compileSubstrCP(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileFixed(name, arg, scope, 3)
	if err != nil {
		return nil, err
	}
	return evalFunc(func(env *Env) (any, error) {
		vals, err := evalAll(env, args, make([]any, 0, 3))
		if err != nil {
			return nil, err
		}
		s, err := coerceToString(vals[0])
		if err != nil {
			return nil, err
		}
		if !value.IsNumber(vals[1]) {
			return nil, mongoerr.Newf(mongoerr.ErrSubstrCPStartNotNumber, "$substrCP: starting index must be a numeric type (is BSON type %s)", typeName(vals[1]))
		}
		if !value.Integral(vals[1]) {
			return nil, mongoerr.Newf(mongoerr.ErrSubstrCPStartNotInt, "$substrCP: starting index cannot be represented as a 32-bit integral value: %s", formatValue(vals[1]))
		}
		if !value.IsNumber(vals[2]) {
			return nil, mongoerr.Newf(mongoerr.ErrSubstrCPLengthNotNumber, "$substrCP: length must be a numeric type (is BSON type %s)", typeName(vals[2]))
		}
		if !value.Integral(vals[2]) {
			return nil, mongoerr.Newf(mongoerr.ErrSubstrCPLengthNotInt, "$substrCP: length cannot be represented as a 32-bit integral value: %s", formatValue(vals[2]))
		}
		start, length := checkedInt(vals[1]), checkedInt(vals[2])
		if length < 0 {
			return nil, mongoerr.New(mongoerr.ErrSubstrCPLengthNegative, "$substrCP: length must be a nonnegative integer.")
		}
		if start < 0 {
			return nil, mongoerr.New(mongoerr.ErrSubstrCPStartNegative, "$substrCP: the starting index must be nonnegative integer.")
		}
		i, cp := 0, 0
		for i < len(s) && cp < start {
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
			cp++
		}
		j, n := i, 0
		for j < len(s) && n < length {
			_, w := utf8.DecodeRuneInString(s[j:])
			j += w
			n++
		}
		return s[i:j], nil
	}), nil
}

func strLen(name string, v any) (any, error) {
	s, ok := v.(string)
	if !ok {
		if name == "$strLenCP" {
			return nil, mongoerr.Newf(mongoerr.ErrStrLenCPNotString, "$strLenCP requires a string argument, found: %s", typeName(v))
		}
		return nil, mongoerr.Newf(mongoerr.ErrStrLenBytesNotString, "$strLenBytes requires a string argument, found: %s", typeName(v))
	}
	if name == "$strLenCP" {
		return int32(utf8.RuneCountInString(s)), nil
	}
	return int32(len(s)), nil
}

func split(a, b any) (any, error) {
	if nullish(a) || nullish(b) {
		return nil, nil
	}
	s, ok := a.(string)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrSplitInputNotString, "$split requires an expression that evaluates to a string as a first argument, found: %s", typeName(a))
	}
	sep, ok := b.(string)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrSplitSeparatorNotString, "$split requires an expression that evaluates to a string as a second argument, found: %s", typeName(b))
	}
	if sep == "" {
		return nil, mongoerr.New(mongoerr.ErrSplitSeparatorEmpty, "$split requires a non-empty separator")
	}
	// Each part costs at least 8 bytes of array (value.MemSize), counted
	// before the parts are cut.
	if n := 8 * (strings.Count(s, sep) + 1); n > value.MemoryLimit {
		return nil, tooMuchMemory("$split", n)
	}
	parts := strings.Split(s, sep)
	out := make(bson.A, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out, nil
}

func compileIndexOfStr(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileRanged(name, arg, scope, 2, 4)
	if err != nil {
		return nil, err
	}
	cp := name == "$indexOfCP"
	codes := [2]int32{mongoerr.ErrIndexOfBytesInputNotString, mongoerr.ErrIndexOfBytesTokenNotString}
	if cp {
		codes = [2]int32{mongoerr.ErrIndexOfCPInputNotString, mongoerr.ErrIndexOfCPTokenNotString}
	}
	return evalFunc(func(env *Env) (any, error) {
		// mongod evaluates each argument just before it checks it: a
		// nullish input answers null without evaluating the rest
		// (ExpressionIndexOfBytes/CP, evaluate_string.cpp).
		in, err := args[0].Eval(env)
		if err != nil {
			return nil, err
		}
		if nullish(in) {
			return nil, nil
		}
		s, ok := in.(string)
		if !ok {
			return nil, mongoerr.Newf(codes[0], "%s requires a string as the first argument, found: %s", name, typeName(in))
		}
		tv, err := args[1].Eval(env)
		if err != nil {
			return nil, err
		}
		tok, ok := tv.(string)
		if !ok {
			return nil, mongoerr.Newf(codes[1], "%s requires a string as the second argument, found: %s", name, typeName(tv))
		}
		// offsets[i] is the byte offset of unit i (bytes or code points).
		var offsets []int
		n := len(s)
		if cp {
			for i := range s {
				offsets = append(offsets, i)
			}
			n = len(offsets)
		}
		start, end, err := indexBounds(name, args, env, n)
		if err != nil {
			return nil, err
		}
		if !cp {
			// std::string::find on the prefix, as mongod does.
			if start > len(s) || end < start {
				return int32(-1), nil
			}
			if p := strings.Index(s[start:end], tok); p >= 0 {
				return int32(start + p), nil
			}
			return int32(-1), nil
		}
		if end < start {
			return int32(-1), nil
		}
		if s == "" && tok == "" && start == 0 {
			return int32(0), nil
		}
		for i := start; i < end; i++ {
			if strings.HasPrefix(s[offsets[i]:], tok) {
				return int32(i), nil
			}
		}
		return int32(-1), nil
	}), nil
}

// trimWhitespace is mongod's default $trim set: the Unicode whitespace
// code points it lists, plus the null character.
var trimWhitespace = []rune{0, ' ', '\t', '\n', '\v', '\f', '\r', 0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A}

func compileTrim(name string, arg any, scope *Scope) (Expr, error) {
	m, err := namedArgs(arg, scope, argSpec{
		names: []string{"input", "chars"},
		notObject: func(arg any) error {
			return mongoerr.Newf(mongoerr.ErrTrimArgumentNotObject, "%s only supports an object as an argument, found %s", name, typeName(arg))
		},
		unknown: func(f string) error {
			return mongoerr.Newf(mongoerr.ErrTrimUnknownArgument, "%s found an unknown argument: %s", name, f)
		},
	})
	if err != nil {
		return nil, err
	}
	input, chars := m["input"], m["chars"]
	if input == nil {
		return nil, mongoerr.Newf(mongoerr.ErrTrimMissingInput, "%s requires an 'input' field", name)
	}
	return evalFunc(func(env *Env) (any, error) {
		v, err := input.Eval(env)
		if err != nil {
			return nil, err
		}
		if nullish(v) {
			return nil, nil
		}
		s, ok := v.(string)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.ErrTrimInputNotString, "%s requires its input to be a string, got %s (of type %s) instead.", name, formatValue(v), typeName(v))
		}
		set := trimWhitespace
		if chars != nil {
			c, err := chars.Eval(env)
			if err != nil {
				return nil, err
			}
			if nullish(c) {
				return nil, nil
			}
			cs, ok := c.(string)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrTrimCharsNotString, "%s requires 'chars' to be a string, got %s (of type %s) instead.", name, formatValue(c), typeName(c))
			}
			set = []rune(cs)
		}
		in := func(r rune) bool {
			for _, c := range set {
				if c == r {
					return true
				}
			}
			return false
		}
		if name != "$rtrim" {
			s = strings.TrimLeftFunc(s, in)
		}
		if name != "$ltrim" {
			s = strings.TrimRightFunc(s, in)
		}
		return s, nil
	}), nil
}

func compileReplace(name string, arg any, scope *Scope) (Expr, error) {
	exprs, err := namedArgs(arg, scope, argSpec{
		names: []string{"input", "find", "replacement"},
		notObject: func(arg any) error {
			return mongoerr.Newf(mongoerr.ErrReplaceArgumentNotObject, "%s requires an object as an argument, found: %s", name, typeName(arg))
		},
		unknown: func(f string) error {
			return mongoerr.Newf(mongoerr.ErrReplaceUnknownArgument, "%s found an unknown argument: %s", name, f)
		},
	})
	if err != nil {
		return nil, err
	}
	for _, k := range []struct {
		key  string
		code int32
	}{{"input", mongoerr.ErrReplaceMissingInput}, {"find", mongoerr.ErrReplaceMissingFind}, {"replacement", mongoerr.ErrReplaceMissingReplacement}} {
		if exprs[k.key] == nil {
			return nil, mongoerr.Newf(k.code, "%s requires '%s' to be specified", name, k.key)
		}
	}
	return evalFunc(func(env *Env) (any, error) {
		var strs [3]string
		null := false
		for i, k := range []struct {
			key  string
			code int32
		}{{"input", mongoerr.ErrReplaceInputNotString}, {"find", mongoerr.ErrReplaceFindNotString}, {"replacement", mongoerr.ErrReplaceReplacementNotString}} {
			v, err := exprs[k.key].Eval(env)
			if err != nil {
				return nil, err
			}
			if nullish(v) {
				null = true
				continue
			}
			s, ok := v.(string)
			if !ok {
				return nil, mongoerr.Newf(k.code, "%s requires that '%s' be a string, found: %s", name, k.key, formatForMessage(v))
			}
			strs[i] = s
		}
		if null {
			return nil, nil
		}
		if err := checkReplacedSize(strs[0], strs[1], strs[2], name == "$replaceOne"); err != nil {
			return nil, err
		}
		if name == "$replaceOne" {
			return strings.Replace(strs[0], strs[1], strs[2], 1), nil
		}
		return strings.ReplaceAll(strs[0], strs[1], strs[2]), nil
	}), nil
}

// checkReplacedSize applies the string limits to the result of replacing
// find in input before it is built: mongod writes the pieces between the
// matches and the replacements one by one into a StringBuilder.
func checkReplacedSize(input, find, repl string, once bool) error {
	var size stringBuild
	rest := input
	for {
		i := strings.Index(rest, find)
		if i < 0 {
			break
		}
		if err := size.add(i); err != nil {
			return err
		}
		if err := size.add(len(repl)); err != nil {
			return err
		}
		if find == "" {
			// An empty find matches before every character: step over one.
			_, w := utf8.DecodeRuneInString(rest)
			if w == 0 {
				return size.done()
			}
			i += w
			if err := size.add(w); err != nil {
				return err
			}
		} else {
			i += len(find)
		}
		rest = rest[i:]
		if once {
			break
		}
	}
	if err := size.add(len(rest)); err != nil {
		return err
	}
	return size.done()
}

// compileRegex builds $regexMatch, $regexFind and $regexFindAll.
func compileRegex(name string, arg any, scope *Scope) (Expr, error) {
	m, err := namedArgs(arg, scope, argSpec{
		names: []string{"input", "regex", "options"},
		notObject: func(arg any) error {
			return mongoerr.Newf(mongoerr.ErrRegexArgumentNotObject, "%s expects an object of named arguments but found: %s", name, typeName(arg))
		},
		unknown: func(f string) error {
			return mongoerr.Newf(mongoerr.ErrRegexUnknownArgument, "%s found an unknown argument: %s", name, f)
		},
	})
	if err != nil {
		return nil, err
	}
	input, re, opts := m["input"], m["regex"], m["options"]
	if input == nil {
		return nil, mongoerr.Newf(mongoerr.ErrRegexMissingInput, "%s requires 'input' parameter", name)
	}
	if re == nil {
		return nil, mongoerr.Newf(mongoerr.ErrRegexMissingRegex, "%s requires 'regex' parameter", name)
	}
	// A constant pattern is compiled once, when the command is parsed, as
	// mongod precompiles it.
	var cached *regexp.Regexp
	cachedBehind := false
	_, c1 := re.(constant)
	_, c2 := opts.(constant)
	if c1 && (opts == nil || c2) {
		rv, _ := re.Eval(nil)
		ov, _ := evalOpt(opts, nil)
		rx, _, err := resolveRegex(name, rv, ov)
		if err != nil {
			return nil, err
		}
		cached = rx
		if rx != nil && name == "$regexFindAll" {
			cachedBehind = looksBehind(rx)
		}
	}
	noMatch := func() any {
		switch name {
		case "$regexMatch":
			return false
		case "$regexFind":
			return nil
		}
		return bson.A{}
	}
	return evalFunc(func(env *Env) (any, error) {
		in, err := input.Eval(env)
		if err != nil {
			return nil, err
		}
		rx, havePattern := cached, cached != nil
		if rx == nil {
			rv, err := re.Eval(env)
			if err != nil {
				return nil, err
			}
			ov, err := evalOpt(opts, env)
			if err != nil {
				return nil, err
			}
			if rx, havePattern, err = resolveRegex(name, rv, ov); err != nil {
				return nil, err
			}
		}
		if !nullish(in) {
			if _, ok := in.(string); !ok {
				return nil, mongoerr.Newf(mongoerr.ErrRegexInputNotString, "%s needs 'input' to be of type string", name)
			}
		}
		if nullish(in) || !havePattern {
			return noMatch(), nil
		}
		s := in.(string)
		switch name {
		case "$regexMatch":
			return rx.MatchString(s), nil
		case "$regexFind":
			loc := rx.FindStringSubmatchIndex(s)
			if loc == nil {
				return nil, nil
			}
			return regexResult(s, loc, utf8.RuneCountInString(s[:loc[0]])), nil
		}
		behind := cachedBehind
		if rx != cached {
			behind = looksBehind(rx)
		}
		return findAllRegex(rx, behind, s, env)
	}), nil
}

// findAllRegex is $regexFindAll as mongod runs it (regex.cpp evaluate for
// ExpressionRegexFindAll): search from a position, take the match, go on
// from its end, or one character past an empty match; never search from
// the very end of a non-empty input. An empty match right after another
// match counts (Go's FindAll would drop it). Each search can cost the rest
// of the input (a pattern like "(a*)*b|" scans to the end before settling
// on the empty alternative), so the bytes searched count against the
// command's deadline. A pattern with an assertion about the text before
// the position (behind: ^, \b, \B) cannot be searched from an offset in
// Go, and is matched in one FindAll call instead.
func findAllRegex(rx *regexp.Regexp, behind bool, s string, env *Env) (bson.A, error) {
	out := bson.A{}
	idx := runeCounter{s: s}
	// mongod stops at 64 MB of match documents (value.MemSize counts
	// them).
	size := 0
	add := func(m bson.D) error {
		if size += value.MemSize(m); size > value.MaxBufferSize {
			return mongoerr.New(mongoerr.ErrRegexFindAllTooLarge, "$regexFindAll: the size of buffer to store output exceeded the 64MB limit")
		}
		out = append(out, m)
		return nil
	}
	if behind {
		for _, loc := range rx.FindAllStringSubmatchIndex(s, -1) {
			if err := env.TickN(1); err != nil {
				return nil, err
			}
			if err := add(regexResult(s, loc, idx.at(loc[0]))); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	for pos := 0; ; {
		if err := env.TickN(len(s) - pos + 1); err != nil {
			return nil, err
		}
		loc := rx.FindStringSubmatchIndex(s[pos:])
		if loc == nil {
			break
		}
		for i := range loc {
			if loc[i] >= 0 {
				loc[i] += pos
			}
		}
		if err := add(regexResult(s, loc, idx.at(loc[0]))); err != nil {
			return nil, err
		}
		if loc[1] > loc[0] {
			pos = loc[1]
		} else {
			if loc[0] >= len(s) {
				break
			}
			_, width := utf8.DecodeRuneInString(s[loc[0]:])
			pos = loc[0] + width
		}
		if pos >= len(s) {
			break
		}
	}
	return out, nil
}

// looksBehind reports whether a pattern has an assertion about the text
// before the position it is tried at (^, \b, \B).
func looksBehind(rx *regexp.Regexp) bool {
	re, err := syntax.Parse(rx.String(), syntax.Perl)
	if err != nil {
		return true
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return true
	}
	const behind = syntax.EmptyBeginLine | syntax.EmptyBeginText | syntax.EmptyWordBoundary | syntax.EmptyNoWordBoundary
	for _, in := range prog.Inst {
		if in.Op == syntax.InstEmptyWidth && syntax.EmptyOp(in.Arg)&behind != 0 {
			return true
		}
	}
	return false
}

// runeCounter turns increasing byte offsets into code-point indexes
// without recounting from the start for every match.
type runeCounter struct {
	s          string
	byteOff, n int
}

func (c *runeCounter) at(off int) int {
	if off < c.byteOff {
		c.byteOff, c.n = 0, 0
	}
	c.n += utf8.RuneCountInString(c.s[c.byteOff:off])
	c.byteOff = off
	return c.n
}

// resolveRegex validates 'regex' and 'options' and compiles the pattern;
// ok is false when the pattern is nullish.
func resolveRegex(name string, rv, ov any) (*regexp.Regexp, bool, error) {
	var pattern, flags string
	have := false
	switch r := rv.(type) {
	case string:
		pattern, have = r, true
	case bson.Regex:
		pattern, flags, have = r.Pattern, r.Options, true
	default:
		if !nullish(rv) {
			return nil, false, mongoerr.Newf(mongoerr.ErrRegexPatternType, "%s needs 'regex' to be of type string or regex", name)
		}
	}
	if !nullish(ov) {
		os, ok := ov.(string)
		if !ok {
			return nil, false, mongoerr.Newf(mongoerr.ErrRegexOptionsNotString, "%s needs 'options' to be of type string", name)
		}
		if flags != "" {
			return nil, false, mongoerr.Newf(mongoerr.ErrRegexOptionsTwice, "%s: found regex option(s) specified in both 'regex' and 'option' fields", name)
		}
		flags = os
	}
	if strings.IndexByte(pattern, 0) >= 0 {
		return nil, false, mongoerr.Newf(mongoerr.ErrRegexPatternNullByte, "%s: regular expression cannot contain an embedded null byte", name)
	}
	if strings.IndexByte(flags, 0) >= 0 {
		return nil, false, mongoerr.Newf(mongoerr.ErrRegexOptionsNullByte, "%s: regular expression options cannot contain an embedded null byte", name)
	}
	if !have {
		return nil, false, nil
	}
	rx, err := CompileRegex(pattern, flags, name)
	return rx, err == nil, err
}

// regexResult is one match document; runeIdx is loc[0] in code points.
func regexResult(s string, loc []int, runeIdx int) bson.D {
	caps := bson.A{}
	for i := 2; i < len(loc); i += 2 {
		if loc[i] < 0 {
			caps = append(caps, nil)
		} else {
			caps = append(caps, s[loc[i]:loc[i+1]])
		}
	}
	return bson.D{
		{Key: "match", Value: s[loc[0]:loc[1]]},
		{Key: "idx", Value: int32(runeIdx)},
		{Key: "captures", Value: caps},
	}
}

// CompileRegex translates a PCRE pattern with MongoDB options (i m s x)
// into Go's regexp. A pattern PCRE2 refuses is 51111 with PCRE2's words
// where Go's parser knows the fault; constructs PCRE2 runs and RE2 lacks
// (backreferences, lookaround) are refused as not implemented, not called
// invalid.
func CompileRegex(pattern, flags, opName string) (*regexp.Regexp, error) {
	written := pattern
	prefix := ""
	for _, f := range flags {
		switch f {
		case 'i', 'm', 's':
			if !strings.ContainsRune(prefix, f) {
				prefix += string(f)
			}
		case 'x':
			pattern = stripExtended(pattern)
		case 'u':
		default:
			return nil, mongoerr.Newf(mongoerr.ErrRegexInvalidOption, "%s invalid flag in regex options: %c", opName, f)
		}
	}
	if msg := PCRE2Limit(pattern); msg != "" {
		return nil, mongoerr.Newf(mongoerr.ErrRegexInvalid, "Invalid Regex in %s: %s", opName, msg)
	}
	if prefix != "" {
		pattern = "(?" + prefix + ")" + pattern
	}
	rx, err := regexp.Compile(pattern)
	if err != nil {
		construct := PCREOnly(err)
		if construct == "" {
			return nil, mongoerr.Newf(mongoerr.ErrRegexInvalid, "Invalid Regex in %s: %s", opName, PCREMessage(err))
		}
		// PCRE2 compiles the whole pattern: one whose groups or classes
		// do not close is invalid there, whatever else it uses.
		if _, msg := PatternStructure(written); msg != "" {
			return nil, mongoerr.Newf(mongoerr.ErrRegexInvalid, "Invalid Regex in %s: %s", opName, msg)
		}
		return nil, PCRERefusal(construct)
	}
	return rx, nil
}

// PCRERefusal is the sandbox's answer for a PCRE2 construct it leaves
// out: mongod accepts the pattern, so it is not called invalid.
func PCRERefusal(construct string) error {
	return mongoerr.Newf(mongoerr.NotImplemented,
		"regular expressions with %s are not supported by the schemalab sandbox; use a real MongoDB (--uri) for them", construct)
}

// PCREOnly names the construct when err is about one PCRE runs and Go's
// RE2 engine cannot (lookaround, atomic groups, backreferences): mongod
// accepts those patterns, so the sandbox says it leaves them out rather
// than calling them invalid.
func PCREOnly(err error) string {
	var se *syntax.Error
	if !errors.As(err, &se) {
		return ""
	}
	switch se.Code {
	case syntax.ErrInvalidPerlOp:
		if strings.HasPrefix(se.Expr, "(?=") || strings.HasPrefix(se.Expr, "(?!") || strings.HasPrefix(se.Expr, "(?>") {
			return "lookaround assertions or atomic groups (`" + se.Expr + "`)"
		}
		return "inline options RE2 lacks (`" + se.Expr + "`)"
	case syntax.ErrInvalidNamedCapture:
		// RE2 reads (?<= and (?<! as a malformed group name.
		if strings.HasPrefix(se.Expr, "(?<=") || strings.HasPrefix(se.Expr, "(?<!") {
			return "lookaround assertions or atomic groups (`" + se.Expr[:4] + "`)"
		}
	case syntax.ErrInvalidEscape:
		if len(se.Expr) == 2 && (se.Expr[1] >= '1' && se.Expr[1] <= '9' || se.Expr[1] == 'k' || se.Expr[1] == 'g') {
			return "backreferences (`" + se.Expr + "`)"
		}
	}
	return ""
}

// PCREMessage renders a Go regexp error with PCRE2's wording where the two
// libraries agree that the pattern is wrong.
func PCREMessage(err error) string {
	var se *syntax.Error
	if !errors.As(err, &se) {
		return err.Error()
	}
	switch se.Code {
	case syntax.ErrMissingParen:
		return "missing closing parenthesis"
	case syntax.ErrUnexpectedParen:
		return "unmatched closing parenthesis"
	case syntax.ErrMissingBracket:
		return "missing terminating ] for character class"
	case syntax.ErrMissingRepeatArgument:
		return "quantifier does not follow a repeatable item"
	case syntax.ErrTrailingBackslash:
		return "\\ at end of pattern"
	case syntax.ErrInvalidRepeatSize:
		return "number too big in {} quantifier"
	case syntax.ErrInvalidCharRange:
		return "range out of order in character class"
	case syntax.ErrInvalidEscape:
		return "unrecognized character follows \\"
	}
	return se.Error()
}

// maxPCRE2PatternLength is the kMaxPatternLength mongod 8.0 hands
// pcre2_set_max_pattern_length (src/mongo/util/pcre.cpp): 2^14 bytes, as
// jstests/aggregation/expressions/regex_limits.js of the PCRE2 era probes
// (16384 matches, 16385 fails with 51111). PCRE1's 32764 no longer holds.
const maxPCRE2PatternLength = 16384

// maxPCRE2ParensNest is PCRE2's default parens_nest_limit, which mongod
// leaves as it is: 250 nested groups compile, 251 do not (regex_limits.js
// testMaxCaptureDepth).
const maxPCRE2ParensNest = 250

// PCRE2Limit is the compile error PCRE2 gives, in its own words
// (pcre2_error.c, errors 188 and 119), for a pattern past the limits
// mongod 8.0 compiles with, or "" for a pattern within them. The regex
// expressions report it as 51111, a query's $regex as 51091. The length
// is the pattern's as sent, before the x option strips anything: mongod
// passes PCRE2_EXTENDED instead of editing the pattern.
func PCRE2Limit(pattern string) string {
	if len(pattern) > maxPCRE2PatternLength {
		return "pattern string is longer than the limit set by the application"
	}
	if depth, _ := PatternStructure(pattern); depth > maxPCRE2ParensNest {
		return "parentheses are too deeply nested"
	}
	return ""
}

// PatternStructure pairs a pattern's groups left to right as PCRE2's
// parser does, skipping what is escaped, quoted (\Q...\E, to the end when
// unterminated), in a class or in a (?# comment): the deepest nesting it
// reached, and PCRE2's message (pcre2_error.c) for the first group,
// class or comment that does not close, "" when all do. The walk stops at
// that first error, where PCRE2 stops compiling.
func PatternStructure(pattern string) (maxDepth int, unclosed string) {
	depth := 0
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			if strings.HasPrefix(pattern[i:], `\Q`) {
				end := strings.Index(pattern[i+2:], `\E`)
				if end < 0 {
					return maxDepth, ""
				}
				i += 2 + end + 1
				continue
			}
			i++
		case '[':
			n := ClassEnd(pattern[i:])
			if n == 0 {
				return maxDepth, "missing terminating ] for character class"
			}
			i += n - 1
		case '(':
			if strings.HasPrefix(pattern[i:], "(?#") {
				end := strings.IndexByte(pattern[i:], ')')
				if end < 0 {
					return maxDepth, "missing ) after (?# comment"
				}
				i += end
				continue
			}
			depth++
			maxDepth = max(maxDepth, depth)
		case ')':
			if depth == 0 {
				return maxDepth, "unmatched closing parenthesis"
			}
			depth--
		}
	}
	if depth > 0 {
		return maxDepth, "missing closing parenthesis"
	}
	return maxDepth, ""
}

// ClassEnd is the length of the character class rest starts with, 0 when
// it is not closed. A `]` first in the class (after any `^`) is a
// literal, and a POSIX class ([:alpha:]) inside it keeps its own `]`.
func ClassEnd(rest string) int {
	i := 1
	if i < len(rest) && rest[i] == '^' {
		i++
	}
	if i < len(rest) && rest[i] == ']' {
		i++
	}
	for ; i < len(rest); i++ {
		switch {
		case rest[i] == '\\':
			i++
		case rest[i] == ']':
			return i + 1
		case strings.HasPrefix(rest[i:], "[:"):
			if end := strings.Index(rest[i:], ":]"); end >= 0 && isPOSIXClassName(rest[i+2:i+end]) {
				i += end + 1
			}
		}
	}
	return 0
}

// isPOSIXClassName reports whether name, between "[:" and ":]", has the
// shape of a POSIX class name, negated or not, which is what PCRE2's
// check_posix_syntax looks for before it reads the class as one.
func isPOSIXClassName(name string) bool {
	name = strings.TrimPrefix(name, "^")
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// stripExtended removes unescaped whitespace and #-comments outside
// character classes, as PCRE's extended mode does.
func stripExtended(p string) string {
	var sb strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			sb.WriteByte(c)
			sb.WriteByte(p[i+1])
			i++
			continue
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case !inClass && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'):
			continue
		case !inClass && c == '#':
			for i < len(p) && p[i] != '\n' {
				i++
			}
			continue
		}
		sb.WriteByte(c)
	}
	return sb.String()
}
