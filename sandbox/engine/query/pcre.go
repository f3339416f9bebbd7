package query

import (
	"strings"
	"unicode/utf8"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// A query's $regex only asks whether a string matches (it reports no
// match position, text or captures), which lets translatePCRE rewrite
// some PCRE2 constructs into RE2 ones that differ only in what they
// consume: `$` becomes `(?:\n?\z)`, \K is dropped. The translation is
// for that use only.
//
// mongod 8.0 compiles a query regex with PCRE2 and the options
// pcre_util::flagsToOptions gives (UTF always on; no UCP, so \d \w \b are
// ASCII), newline LF and Unicode \R by default. Go's RE2 differs from it
// in ways the translation covers:
//   - \s: PCRE2 includes VT (\x0b), RE2 does not; \v, \V, \h, \H, \R, \N,
//     \e, \o{..}, \G, \K, \p{L&}, (?#...), (?'name'...) have no RE2
//     spelling and are rewritten;
//   - `$` without the m option also matches before a final newline in
//     PCRE2, at the very end only in RE2;
//   - start-of-pattern items (*UTF), (*UCP), (*CR), (*LIMIT_MATCH=n)...
//     and the backtracking verbs (*FAIL), (*ACCEPT), (*COMMIT), (*PRUNE),
//     (*SKIP), (*THEN), (*MARK) are rewritten where the rewrite matches
//     exactly the same strings, and refused where it would not.
//
// What RE2 cannot do (lookaround, atomic groups, possessive quantifiers,
// backreferences, recursion, conditionals, callouts, branch reset) is
// refused as not implemented, never matched differently.

// pcreInvalid is RegexMatchExpression's 51091 with PCRE2's message.
func pcreInvalid(msg string) error {
	return mongoerr.New(codeRegexInvalid, "Regular expression is invalid: "+msg)
}

// Character sets PCRE2 defines and RE2 spells differently, as class
// bodies (pcre2_compile.c, pcre2pattern "Generic character types").
const (
	pcreSpace     = `\t\n\x0b\f\r `
	pcreNotSpace  = `\x00-\x08\x0e-\x1f\x21-\x{10FFFF}`
	pcreVSpace    = `\n\x0b\f\r\x{85}\x{2028}\x{2029}`
	pcreNotVSpace = `\x00-\x09\x0e-\x{84}\x{86}-\x{2027}\x{202a}-\x{10FFFF}`
	pcreHSpace    = `\t \x{a0}\x{1680}\x{180e}\x{2000}-\x{200a}\x{202f}\x{205f}\x{3000}`
	pcreNotHSpace = `\x00-\x08\x0a-\x1f\x21-\x{9f}\x{a1}-\x{167f}\x{1681}-\x{180d}\x{180f}-\x{1fff}\x{200b}-\x{202e}\x{2030}-\x{205e}\x{2060}-\x{2fff}\x{3001}-\x{10FFFF}`
	// Under (*UCP), \w \s and some POSIX classes take in Unicode
	// properties (pcre2pattern, "PCRE2_UCP").
	ucpWord  = `\p{L}\p{N}_`
	ucpSpace = `\p{Z}` + pcreHSpace + pcreVSpace
	// pcreNever is an empty class: (*FAIL) as RE2 writes it.
	pcreNever = `[^\x00-\x{10FFFF}]`
)

// newlineConv is a (*CR)-style newline convention: the characters `.`
// does not match and the sequences `$` and \Z may stand before.
type newlineConv struct {
	dotExcludes string // class body
	final       string // RE2 alternation matching one newline
}

var newlineConvs = map[string]newlineConv{
	"LF":      {dotExcludes: `\n`, final: `\n`},
	"CR":      {dotExcludes: `\r`, final: `\r`},
	"ANYCRLF": {dotExcludes: `\r\n`, final: `\r\n|\r|\n`},
	"ANY":     {dotExcludes: pcreVSpace, final: `\r\n|[` + pcreVSpace + `]`},
	"NUL":     {dotExcludes: `\x00`, final: `\x00`},
	// CRLF is absent: its `.` matches a CR unless an LF follows, which
	// RE2 cannot say; it is accepted only when no `.` or `$` depends on it.
}

// startVerbs are PCRE2's start-of-pattern items that change nothing the
// sandbox's matching depends on: UTF is always on, the others tune
// optimizations and resource limits.
var startVerbs = map[string]bool{
	"UTF": true, "UTF8": true, "NO_AUTO_POSSESS": true, "NO_DOTSTAR_ANCHOR": true, "NO_JIT": true,
	"NO_START_OPT": true, "BSR_UNICODE": true,
}

type pcreGroup struct {
	multiline bool // the m flag in force inside the group
	dotall    bool
}

type pcreTranslator struct {
	p       string
	i       int
	out     strings.Builder
	newline newlineConv
	crlf    bool
	bsrAny  bool
	ucp     bool
	groups  []pcreGroup
	cur     pcreGroup
	// start: nothing but start-of-pattern items has been read.
	start bool
}

// translatePCRE rewrites a PCRE2 pattern, with the m and s options as
// given, into an RE2 pattern that matches the same strings.
func translatePCRE(p string, multiline, dotall bool) (string, error) {
	t := &pcreTranslator{p: p, newline: newlineConvs["LF"], start: true, cur: pcreGroup{multiline: multiline, dotall: dotall}}
	if err := t.run(); err != nil {
		return "", err
	}
	return t.out.String(), nil
}

func (t *pcreTranslator) run() error {
	for t.i < len(t.p) {
		c := t.p[t.i]
		if t.start && strings.HasPrefix(t.p[t.i:], "(*") {
			if ok, err := t.startItem(); err != nil {
				return err
			} else if ok {
				continue
			}
		}
		wasStart := t.start
		t.start = false
		switch c {
		case '\\':
			if err := t.escape(false); err != nil {
				return err
			}
		case '[':
			if err := t.class(); err != nil {
				return err
			}
		case '(':
			if err := t.open(wasStart); err != nil {
				return err
			}
			continue // open checks its own quantifier rules
		case ')':
			t.out.WriteByte(')')
			t.i++
			if n := len(t.groups); n > 0 {
				t.cur, t.groups = t.groups[n-1], t.groups[:n-1]
			}
		case '$':
			t.i++
			if err := t.dollar(); err != nil {
				return err
			}
		case '.':
			t.i++
			if err := t.dot(); err != nil {
				return err
			}
		case '*', '+', '?', '{':
			if err := t.quantifier(); err != nil {
				return err
			}
			continue
		default:
			t.out.WriteByte(c)
			t.i++
		}
	}
	return nil
}

// quantifier copies a quantifier, with its lazy `?`, and refuses a
// possessive one (`a*+`, `a{2}+`).
func (t *pcreTranslator) quantifier() error {
	c := t.p[t.i]
	end := t.i + 1
	if c == '{' {
		j := strings.IndexByte(t.p[t.i:], '}')
		if j < 0 || !isRepeatCount(t.p[t.i+1:t.i+j]) {
			// Not a quantifier: PCRE2 and RE2 both read a literal brace.
			t.out.WriteString(`\{`)
			t.i++
			return nil
		}
		end = t.i + j + 1
	}
	if end < len(t.p) && t.p[end] == '?' {
		end++
	} else if end < len(t.p) && t.p[end] == '+' {
		return expr.PCRERefusal("possessive quantifiers (`" + t.p[t.i:end+1] + "`)")
	}
	t.out.WriteString(t.p[t.i:end])
	t.i = end
	return nil
}

func isRepeatCount(s string) bool {
	lo, hi, comma := s, "", false
	if k := strings.IndexByte(s, ','); k >= 0 {
		lo, hi, comma = s[:k], s[k+1:], true
	}
	digits := func(d string) bool {
		for _, r := range d {
			if r < '0' || r > '9' {
				return false
			}
		}
		return true
	}
	return lo != "" && digits(lo) && (!comma || digits(hi))
}

// startItem reads one start-of-pattern (*...) item; ok is false when the
// item is a backtracking verb, left for open.
func (t *pcreTranslator) startItem() (bool, error) {
	j := strings.IndexByte(t.p[t.i:], ')')
	if j < 0 {
		return false, nil
	}
	name := t.p[t.i+2 : t.i+j]
	key, arg, hasArg := strings.Cut(name, "=")
	switch {
	case hasArg && (key == "LIMIT_MATCH" || key == "LIMIT_DEPTH" || key == "LIMIT_HEAP" || key == "LIMIT_RECURSION"):
		if arg == "" || !isRepeatCount(arg) {
			return false, pcreInvalid("(*VERB) not recognized or malformed")
		}
	case hasArg:
		return false, nil
	case startVerbs[name]:
	case name == "UCP":
		t.ucp = true
	case name == "BSR_ANYCRLF":
		t.bsrAny = true
	case name == "CRLF":
		t.crlf = true
	case name == "LF" || name == "CR" || name == "ANYCRLF" || name == "ANY" || name == "NUL":
		t.newline, t.crlf = newlineConvs[name], false
	case name == "NOTEMPTY" || name == "NOTEMPTY_ATSTART":
		// An empty match does not count: RE2 has no such mode.
		return false, expr.PCRERefusal("(*" + name + ")")
	default:
		return false, nil
	}
	t.i += j + 1
	return true, nil
}

// dollar writes `$`: in multiline mode RE2's (?m)$ is PCRE2's for LF
// newlines; otherwise PCRE2's `$` also matches before a final newline.
func (t *pcreTranslator) dollar() error {
	if t.crlf || t.cur.multiline && t.newline.final != `\n` {
		return expr.PCRERefusal("`$` under a newline convention other than LF")
	}
	if t.cur.multiline {
		t.out.WriteByte('$')
		return nil
	}
	if t.i < len(t.p) && !strings.ContainsRune(")|", rune(t.p[t.i])) {
		// What follows `$` would have to match the final newline PCRE2
		// leaves unconsumed; the rewrite consumes it.
		return expr.PCRERefusal("`$` followed by more of the pattern")
	}
	t.out.WriteString(`(?:(?:` + t.newline.final + `)?\z)`)
	return nil
}

func (t *pcreTranslator) dot() error {
	switch {
	case t.cur.dotall:
		t.out.WriteString(`(?s:.)`)
	case t.crlf:
		return expr.PCRERefusal("`.` under the (*CRLF) newline convention")
	default:
		t.out.WriteString(`[^` + t.newline.dotExcludes + `]`)
	}
	return nil
}

// escape translates the escape at t.i; inClass writes a class body item.
func (t *pcreTranslator) escape(inClass bool) error {
	if t.i+1 >= len(t.p) {
		return pcreInvalid(`\ at end of pattern`)
	}
	c := t.p[t.i+1]
	if c >= utf8.RuneSelf {
		// An escaped non-ASCII character is itself (UTF mode).
		_, n := utf8.DecodeRuneInString(t.p[t.i+1:])
		t.out.WriteString(t.p[t.i+1 : t.i+1+n])
		t.i += 1 + n
		return nil
	}
	seq := t.p[t.i : t.i+2]
	t.i += 2
	set := func(body string) {
		if inClass {
			t.out.WriteString(body)
		} else {
			t.out.WriteString("[" + body + "]")
		}
	}
	if t.ucp {
		switch c {
		case 'd':
			t.out.WriteString(`\p{Nd}`)
			return nil
		case 'D':
			t.out.WriteString(`\P{Nd}`)
			return nil
		case 'w', 'W', 's', 'S':
			body := ucpWord
			if c == 's' || c == 'S' {
				body = ucpSpace
			}
			return t.unionSet(body, c == 'W' || c == 'S', inClass, seq)
		case 'b', 'B':
			if !inClass {
				return expr.PCRERefusal("\\" + string(c) + " under (*UCP)")
			}
		}
	}
	switch c {
	case 's':
		set(pcreSpace)
	case 'S':
		set(pcreNotSpace)
	case 'h':
		set(pcreHSpace)
	case 'H':
		set(pcreNotHSpace)
	case 'v':
		set(pcreVSpace)
	case 'V':
		set(pcreNotVSpace)
	case 'e':
		t.out.WriteString(`\x1b`)
	case 'o':
		if t.i < len(t.p) && t.p[t.i] == '{' {
			j := strings.IndexByte(t.p[t.i:], '}')
			if j < 0 {
				return pcreInvalid(`non-octal character in \o{} (closing brace missing?)`)
			}
			t.out.WriteString(`\x{` + octalToHex(t.p[t.i+1:t.i+j]) + `}`)
			t.i += j + 1
			return nil
		}
		return pcreInvalid("missing opening brace after \\o")
	case 'c':
		if t.i >= len(t.p) {
			return pcreInvalid(`\c at end of pattern`)
		}
		ch := t.p[t.i]
		if ch >= 'a' && ch <= 'z' {
			ch -= 'a' - 'A'
		}
		t.out.WriteString(`\x{` + hexByte(ch^0x40) + `}`)
		t.i++
	case 'b':
		if inClass {
			t.out.WriteString(`\x08`) // backspace, as in PCRE2 classes
		} else {
			t.out.WriteString(seq)
		}
	case 'x':
		t.out.WriteString(seq)
		t.copyBraced()
	case 'p', 'P':
		if strings.HasPrefix(t.p[t.i:], "{") {
			j := strings.IndexByte(t.p[t.i:], '}')
			name := ""
			if j > 0 {
				name = t.p[t.i+1 : t.i+j]
			}
			neg := c == 'P'
			if strings.HasPrefix(name, "^") {
				name, neg = name[1:], !neg
			}
			if body, ok := pcreSpecialProperties[name]; ok {
				t.i += j + 1
				if body == "" {
					return expr.PCRERefusal("\\p{" + name + "}")
				}
				return t.unionSet(body, neg, inClass, `\p{`+name+`}`)
			}
		}
		t.out.WriteString(seq)
		t.copyBraced()
	case 'N':
		if inClass {
			return pcreInvalid(`\N is not supported in a class`)
		}
		if t.crlf {
			return expr.PCRERefusal("\\N under the (*CRLF) newline convention")
		}
		t.out.WriteString(`[^` + t.newline.dotExcludes + `]`)
	case 'R':
		if inClass {
			return pcreInvalid("escape sequence is invalid in character class")
		}
		return t.anyNewline()
	case 'X', 'C':
		return expr.PCRERefusal("\\" + string(c))
	case 'K':
		if inClass {
			return pcreInvalid("escape sequence is invalid in character class")
		}
		// \K only moves the reported start of the match.
	case 'G':
		if inClass {
			return pcreInvalid("escape sequence is invalid in character class")
		}
		// A query matches from the start of the string: \G is \A there.
		t.out.WriteString(`\A`)
	case 'Z':
		if inClass {
			return pcreInvalid("escape sequence is invalid in character class")
		}
		if t.crlf {
			return expr.PCRERefusal("\\Z under the (*CRLF) newline convention")
		}
		if t.i < len(t.p) && !strings.ContainsRune(")|", rune(t.p[t.i])) {
			return expr.PCRERefusal("\\Z followed by more of the pattern")
		}
		t.out.WriteString(`(?:(?:` + t.newline.final + `)?\z)`)
	case 'g', 'k':
		return expr.PCRERefusal("backreferences (`" + seq + "`)")
	case 'Q':
		end := strings.Index(t.p[t.i:], `\E`)
		lit := t.p[t.i:]
		if end >= 0 {
			lit = t.p[t.i : t.i+end]
			t.i += end + 2
		} else {
			t.i = len(t.p)
		}
		for _, r := range lit {
			if strings.ContainsRune(`\.+*?()|[]{}^$-`, r) {
				t.out.WriteByte('\\')
			}
			t.out.WriteRune(r)
		}
	case 'E':
		// An \E with no \Q before it is ignored.
	default:
		if c >= '1' && c <= '9' && !inClass {
			return expr.PCRERefusal("backreferences (`" + seq + "`)")
		}
		t.out.WriteString(seq)
	}
	return nil
}

// pcreSpecialProperties are PCRE2's properties RE2 does not know, as
// class bodies; an empty body is one the sandbox does not translate.
var pcreSpecialProperties = map[string]string{
	"L&":  `\p{Lu}\p{Ll}\p{Lt}`,
	"Lc":  `\p{Lu}\p{Ll}\p{Lt}`,
	"Xan": `\p{L}\p{N}`,
	"Xwd": ucpWord,
	"Xsp": ucpSpace,
	"Xps": ucpSpace,
	"Xuc": "",
}

// unionSet writes a set given as a class body, negated or not, standing
// alone or inside a class; a negated union inside a class has no RE2
// spelling.
func (t *pcreTranslator) unionSet(body string, neg, inClass bool, what string) error {
	switch {
	case neg && inClass:
		return expr.PCRERefusal(what + " negated inside a character class")
	case neg:
		t.out.WriteString("[^" + body + "]")
	case inClass:
		t.out.WriteString(body)
	default:
		t.out.WriteString("[" + body + "]")
	}
	return nil
}

// ucpPosix is what a POSIX class becomes under (*UCP); an empty body is
// one the sandbox does not translate (graph, print, punct match by
// special rules).
var ucpPosix = map[string]string{
	"alpha": `\p{L}`, "lower": `\p{Ll}`, "upper": `\p{Lu}`, "alnum": `\p{L}\p{N}`,
	"digit": `\p{Nd}`, "space": ucpSpace, "word": ucpWord, "blank": pcreHSpace,
	"cntrl": `\p{Cc}`, "graph": "", "print": "", "punct": "",
}

// copyBraced copies the {...} argument of \x or \p that follows.
func (t *pcreTranslator) copyBraced() {
	if t.i < len(t.p) && t.p[t.i] == '{' {
		if j := strings.IndexByte(t.p[t.i:], '}'); j >= 0 {
			t.out.WriteString(t.p[t.i : t.i+j+1])
			t.i += j + 1
		}
	}
}

// anyNewline writes \R, which PCRE2 matches atomically: \r\n is never
// split to let the rest match, so the rewrite is kept to places where
// splitting could not help (the end of an alternative, or before a
// character that is no newline).
func (t *pcreTranslator) anyNewline() error {
	j := t.i
	if j < len(t.p) && strings.ContainsRune("*+?", rune(t.p[j])) {
		j++
	}
	if j < len(t.p) && !strings.ContainsRune(")|$", rune(t.p[j])) && !isWordByte(t.p[j]) {
		return expr.PCRERefusal("\\R followed by more than a word character")
	}
	if t.bsrAny {
		t.out.WriteString(`(?:\r\n|[\n\r])`)
	} else {
		t.out.WriteString(`(?:\r\n|[` + pcreVSpace + `])`)
	}
	return nil
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == ' '
}

func octalToHex(s string) string {
	n := 0
	for _, r := range s {
		if r < '0' || r > '7' {
			return "110000" // out of range: RE2 refuses it as PCRE2 does
		}
		n = n*8 + int(r-'0')
		if n > 0x10FFFF {
			return "110000"
		}
	}
	const digits = "0123456789abcdef"
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 16 {
		b = append([]byte{digits[n%16]}, b...)
	}
	return string(b)
}

func hexByte(b byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[b>>4], digits[b&15]})
}

// class copies a character class, translating the escapes inside it.
func (t *pcreTranslator) class() error {
	t.out.WriteByte('[')
	t.i++
	if t.i < len(t.p) && t.p[t.i] == '^' {
		t.out.WriteByte('^')
		t.i++
	}
	first := true
	for t.i < len(t.p) {
		c := t.p[t.i]
		switch {
		case c == ']' && !first:
			t.out.WriteByte(']')
			t.i++
			return nil
		case c == ']':
			t.out.WriteString(`\]`)
			t.i++
		case c == '\\':
			if err := t.escape(true); err != nil {
				return err
			}
		case c == '[' && strings.HasPrefix(t.p[t.i:], "[:"):
			j := strings.Index(t.p[t.i:], ":]")
			if j < 0 {
				t.out.WriteString(`\[`)
				t.i++
				break
			}
			posix := t.p[t.i : t.i+j+2]
			t.i += j + 2
			name := strings.TrimSuffix(strings.TrimPrefix(posix, "[:"), ":]")
			neg := strings.HasPrefix(name, "^")
			name = strings.TrimPrefix(name, "^")
			if body, ok := ucpPosix[name]; ok && t.ucp {
				switch {
				case body == "":
					return expr.PCRERefusal("[:" + name + ":] under (*UCP)")
				case neg && strings.Count(body, `\p{`) == 1 && strings.HasPrefix(body, `\p{`) && strings.HasSuffix(body, "}"):
					t.out.WriteString(`\P` + body[2:])
				case neg:
					return expr.PCRERefusal("[:^" + name + ":] under (*UCP)")
				default:
					t.out.WriteString(body)
				}
				break
			}
			t.out.WriteString(posix)
		case c == '[':
			t.out.WriteString(`\[`)
			t.i++
		default:
			t.out.WriteByte(c)
			t.i++
		}
		first = false
	}
	return pcreInvalid("missing terminating ] for character class")
}

// open translates a group opening or an in-pattern (*VERB).
func (t *pcreTranslator) open(atStart bool) error {
	rest := t.p[t.i:]
	if strings.HasPrefix(rest, "(*") {
		return t.verb(atStart)
	}
	if !strings.HasPrefix(rest, "(?") {
		t.push(t.cur)
		t.out.WriteByte('(')
		t.i++
		return nil
	}
	body := rest[2:]
	switch {
	case strings.HasPrefix(body, "#"):
		j := strings.IndexByte(rest, ')')
		if j < 0 {
			return pcreInvalid("missing ) after (?# comment")
		}
		t.i += j + 1
		t.start = atStart
		return nil
	case strings.HasPrefix(body, ":"):
		t.push(t.cur)
		t.out.WriteString("(?:")
		t.i += 3
		return nil
	case strings.HasPrefix(body, "<") && len(body) > 1 && body[1] != '=' && body[1] != '!':
		t.push(t.cur)
		t.out.WriteString("(?<")
		t.i += 3
		return nil
	case strings.HasPrefix(body, "P<"):
		t.push(t.cur)
		t.out.WriteString("(?P<")
		t.i += 4
		return nil
	case strings.HasPrefix(body, "'"):
		j := strings.IndexByte(body[1:], '\'')
		if j < 0 {
			return pcreInvalid("syntax error in subpattern name (missing terminator?)")
		}
		t.push(t.cur)
		t.out.WriteString("(?P<" + body[1:1+j] + ">")
		t.i += 2 + 1 + j + 1
		return nil
	case strings.HasPrefix(body, "=") || strings.HasPrefix(body, "!") || strings.HasPrefix(body, "<=") || strings.HasPrefix(body, "<!"):
		opener := rest[:3]
		if body[0] == '<' {
			opener = rest[:4]
		}
		return expr.PCRERefusal("lookaround assertions (`" + opener + "`)")
	case strings.HasPrefix(body, ">"):
		return expr.PCRERefusal("atomic groups (`(?>`)")
	case strings.HasPrefix(body, "|"):
		return expr.PCRERefusal("branch reset groups (`(?|`)")
	case strings.HasPrefix(body, "("):
		return expr.PCRERefusal("conditional groups (`(?(`)")
	case strings.HasPrefix(body, "C"):
		return expr.PCRERefusal("callouts (`(?C`)")
	case strings.HasPrefix(body, "P="), strings.HasPrefix(body, "P>"), strings.HasPrefix(body, "&"),
		strings.HasPrefix(body, "R"), len(body) > 0 && (body[0] >= '0' && body[0] <= '9' || body[0] == '+' || body[0] == '-' && len(body) > 1 && body[1] >= '0' && body[1] <= '9'):
		return expr.PCRERefusal("backreferences, recursion or subroutine calls (`" + rest[:min(len(rest), 4)] + "`)")
	}
	return t.inlineFlags(atStart)
}

// inlineFlags reads (?flags) or (?flags: and keeps track of m and s,
// which the translation of `$` and `.` depends on.
func (t *pcreTranslator) inlineFlags(atStart bool) error {
	j := t.i + 2
	on := true
	g := t.cur
	var flags strings.Builder
	for ; j < len(t.p) && t.p[j] != ')' && t.p[j] != ':'; j++ {
		switch f := t.p[j]; f {
		case '-':
			on = false
			flags.WriteByte('-')
		case 'i', 'U':
			flags.WriteByte(f)
		case 'm':
			g.multiline = on
			flags.WriteByte(f)
		case 's':
			g.dotall = on
			flags.WriteByte(f)
		case 'x':
			if !atStart || !on || j+1 >= len(t.p) || t.p[j+1] != ')' || flags.Len() > 0 {
				return expr.PCRERefusal("the inline x flag other than a leading (?x)")
			}
			t.i = j + 2
			t.p = t.p[:t.i] + stripExtended(t.p[t.i:])
			t.start = true
			return nil
		case 'n', 'J', '^':
			return expr.PCRERefusal("the inline `" + string(f) + "` flag")
		default:
			return pcreInvalid("unrecognized character after (? or (?-")
		}
	}
	if j >= len(t.p) {
		return pcreInvalid("missing closing parenthesis")
	}
	if t.p[j] == ':' {
		t.push(t.cur)
		t.cur = g
	} else {
		// (?m) lasts to the end of the enclosing group.
		t.cur = g
	}
	if flags.Len() > 0 && flags.String() != "-" {
		t.out.WriteString("(?" + flags.String() + string(t.p[j]))
	} else if t.p[j] == ':' {
		t.out.WriteString("(?:")
	}
	t.i = j + 1
	t.start = atStart && t.p[j] == ')'
	return nil
}

func (t *pcreTranslator) push(g pcreGroup) {
	t.groups = append(t.groups, g)
}

// verb translates a backtracking control verb. Where it stands decides
// whether dropping it changes what matches (pcre2pattern, "Backtracking
// control"): at the end of a top-level alternative nothing can fail after
// it, so no backtrack ever reaches it; (*PRUNE), (*SKIP) and (*THEN) at
// the very start of a pattern with one alternative only end the attempt
// at the current position, as a plain failure does.
func (t *pcreTranslator) verb(atStart bool) error {
	j := strings.IndexByte(t.p[t.i:], ')')
	if j < 0 {
		return pcreInvalid("(*VERB) not recognized or malformed")
	}
	name := t.p[t.i+2 : t.i+j]
	t.i += j + 1
	verb, arg, hasArg := strings.Cut(name, ":")
	if verb == "" && hasArg {
		verb = "MARK"
	}
	topLevel := len(t.groups) == 0
	atEnd := topLevel && (t.i == len(t.p) || t.p[t.i] == '|')
	switch verb {
	case "FAIL", "F":
		if hasArg && verb == "F" {
			return pcreInvalid("(*VERB) not recognized or malformed")
		}
		t.out.WriteString(pcreNever)
	case "ACCEPT":
		if !topLevel {
			return expr.PCRERefusal("(*ACCEPT) inside a group")
		}
		// The match succeeds here: the rest of this alternative is
		// never tried.
		t.skipAlternative()
	case "MARK":
		if !hasArg || arg == "" {
			return pcreInvalid("(*MARK) must have an argument")
		}
		if strings.Contains(t.p, "(*SKIP:") {
			return expr.PCRERefusal("(*SKIP:NAME) with a (*MARK)")
		}
	case "COMMIT":
		if hasArg {
			return pcreInvalid("(*VERB) not recognized or malformed")
		}
		if !atEnd && !(atStart && t.commitHarmless()) {
			return expr.PCRERefusal("(*COMMIT) before more of the pattern")
		}
	case "PRUNE", "SKIP", "THEN":
		if hasArg && arg == "" {
			return pcreInvalid("(*MARK) must have an argument")
		}
		if verb == "SKIP" && hasArg && !strings.Contains(t.p, "(*MARK:") && !strings.Contains(t.p, "(*:") && !strings.Contains(t.p, "(*PRUNE:") && !strings.Contains(t.p, "(*THEN:") {
			// A (*SKIP:NAME) with no mark of that name is ignored.
			break
		}
		if !atEnd && !(atStart && !t.hasTopLevelAlternation()) {
			return expr.PCRERefusal("(*" + verb + ") before more of the pattern")
		}
	default:
		return pcreInvalid("(*VERB) not recognized or malformed")
	}
	t.start = atStart && verb != "FAIL" && verb != "F"
	return nil
}

// commitHarmless: after a leading (*COMMIT), a failure ends the whole
// match instead of moving on to the next start position. That changes
// nothing when the pattern is anchored at the start, or when what
// follows is one character or class: PCRE2's start-of-match optimization
// then begins only where that item matches.
func (t *pcreTranslator) commitHarmless() bool {
	rest := t.p[t.i:]
	if strings.HasPrefix(rest, "^") && !t.cur.multiline || strings.HasPrefix(rest, `\A`) {
		return true
	}
	switch {
	case rest == "":
		return true
	case rest[0] == '[':
		end := expr.ClassEnd(rest)
		return end > 0 && end == len(rest)
	case rest[0] == '\\':
		return len(rest) == 2 && isWordByte(rest[1]) && rest[1] != ' '
	}
	return len(rest) == 1 && isWordByte(rest[0]) && rest[0] != ' '
}

// hasTopLevelAlternation reports a `|` outside every group and class.
func (t *pcreTranslator) hasTopLevelAlternation() bool {
	depth := 0
	for i := 0; i < len(t.p); i++ {
		switch t.p[i] {
		case '\\':
			i++
		case '[':
			i += expr.ClassEnd(t.p[i:]) - 1
			if i < 0 {
				return false
			}
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// skipAlternative moves past the rest of the current top-level
// alternative, to its `|` or the end of the pattern.
func (t *pcreTranslator) skipAlternative() {
	depth := 0
	for ; t.i < len(t.p); t.i++ {
		switch t.p[t.i] {
		case '\\':
			t.i++
		case '[':
			if n := expr.ClassEnd(t.p[t.i:]); n > 0 {
				t.i += n - 1
			}
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				return
			}
		}
	}
}
