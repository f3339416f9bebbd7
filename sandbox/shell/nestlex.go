package shell

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// nestLexer splits JavaScript source into tokens as goja's lexer does, for
// the nesting guard (nesting.go). It never recurses and never allocates
// per token: a token is a kind and a span of the source.
type nestLexer struct {
	src string
	pos int
}

type nestTok uint8

const (
	tokEOF     nestTok = iota
	tokName            // identifier or keyword
	tokPrivate         // #name
	tokNumber
	tokString
	tokRegex
	tokTemplate    // a template literal without substitutions, or the rest of one after its last substitution
	tokTemplateSub // the part of a template literal up to a ${
	tokPunct
	tokIllegal // a character goja cannot read, or a literal left open
)

type nestToken struct {
	kind       nestTok
	start, end int
	nl         bool // a line break comes before the token
}

func (t nestToken) text(src string) string { return src[t.start:t.end] }

// isIdentStart and isIdentPart are goja's identifier characters; any
// letter-like character beyond ASCII counts, as in goja.
func isIdentStart(r rune) bool {
	return r == '$' || r == '_' || r == '\\' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' ||
		r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.Is(unicode.Other_ID_Start, r))
}

func isIdentPart(r rune) bool {
	return isIdentStart(r) || '0' <= r && r <= '9' || r == '\u200c' || r == '\u200d' ||
		r >= utf8.RuneSelf && unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)
}

func (l *nestLexer) rune() (rune, int) {
	if l.pos >= len(l.src) {
		return -1, 0
	}
	if c := l.src[l.pos]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(l.src[l.pos:])
}

// skipSpace skips white space and comments and reports whether a line
// break was among them. A comment left open ends the source.
func (l *nestLexer) skipSpace() (nl bool) {
	for l.pos < len(l.src) {
		r, size := l.rune()
		switch {
		case r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			nl = true
			l.pos += size
		case r == ' ' || r == '\t' || r == '\f' || r == '\v' || r == '\ufeff' || r >= utf8.RuneSelf && unicode.IsSpace(r):
			l.pos += size
		case r == '/' && strings.HasPrefix(l.src[l.pos:], "//"), r == '#' && l.pos == 0 && strings.HasPrefix(l.src, "#!"):
			end := strings.IndexAny(l.src[l.pos:], "\n\r\u2028\u2029")
			if end < 0 {
				l.pos = len(l.src)
			} else {
				l.pos += end
			}
		case r == '/' && strings.HasPrefix(l.src[l.pos:], "/*"):
			end := strings.Index(l.src[l.pos+2:], "*/")
			if end < 0 {
				l.pos = len(l.src)
				return nl
			}
			if strings.ContainsAny(l.src[l.pos:l.pos+2+end], "\n\r\u2028\u2029") {
				nl = true
			}
			l.pos += end + 4
		default:
			return nl
		}
	}
	return nl
}

// punctuators, longest first.
var nestPuncts = []string{
	">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=",
	"&=", "|=", "^=", "<<", ">>", "**",
	"{", "}", "(", ")", "[", "]", ";", ",", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^", "!", "~", "?", ":", "=", ".",
}

// next reads the next token; regex says whether a / there starts a
// regular expression (an operand may start there) or divides.
func (l *nestLexer) next(regex bool) nestToken {
	nl := l.skipSpace()
	t := nestToken{start: l.pos, nl: nl}
	r, size := l.rune()
	switch {
	case r < 0:
		t.kind = tokEOF
	case isIdentStart(r):
		l.pos += size
		l.identRest()
		t.kind = tokName
	case r == '#':
		l.pos++
		if r, _ := l.rune(); !isIdentStart(r) {
			t.kind = tokIllegal
			break
		}
		l.identRest()
		t.kind = tokPrivate
	case '0' <= r && r <= '9' || r == '.' && l.pos+1 < len(l.src) && '0' <= l.src[l.pos+1] && l.src[l.pos+1] <= '9':
		l.number()
		t.kind = tokNumber
	case r == '"' || r == '\'':
		t.kind = l.quoted(byte(r))
	case r == '`':
		l.pos++
		t.kind = l.templateRest()
	case r == '/' && regex:
		t.kind = l.regex()
	default:
		t.kind = tokIllegal
		for _, p := range nestPuncts {
			if strings.HasPrefix(l.src[l.pos:], p) {
				if p == "?." && l.pos+2 < len(l.src) && '0' <= l.src[l.pos+2] && l.src[l.pos+2] <= '9' {
					continue // a ? followed by a number such as .5
				}
				l.pos += len(p)
				t.kind = tokPunct
				break
			}
		}
		if t.kind == tokIllegal {
			l.pos += max(size, 1)
		}
	}
	t.end = l.pos
	return t
}

func (l *nestLexer) identRest() {
	for l.pos < len(l.src) {
		r, size := l.rune()
		if r == '\\' {
			// \uXXXX or \u{...}: the escape is part of the name
			l.pos++
			if l.pos < len(l.src) && l.src[l.pos] == 'u' {
				l.pos++
				if l.pos < len(l.src) && l.src[l.pos] == '{' {
					if end := strings.IndexByte(l.src[l.pos:], '}'); end >= 0 {
						l.pos += end + 1
					}
				} else {
					l.pos = min(l.pos+4, len(l.src))
				}
			}
			continue
		}
		if !isIdentPart(r) {
			return
		}
		l.pos += size
	}
}

func (l *nestLexer) number() {
	start := l.pos
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case '0' <= c && c <= '9', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '_', c == '.':
			l.pos++
		case (c == '+' || c == '-') && (l.src[l.pos-1] == 'e' || l.src[l.pos-1] == 'E') &&
			!strings.HasPrefix(strings.ToLower(l.src[start:]), "0x"):
			l.pos++
		default:
			return
		}
	}
}

// quoted reads a string literal; one left open at the end of its line is
// illegal, as in goja.
func (l *nestLexer) quoted(q byte) nestTok {
	l.pos++
	for l.pos < len(l.src) {
		switch c := l.src[l.pos]; c {
		case q:
			l.pos++
			return tokString
		case '\\':
			l.pos += 2
			if l.pos <= len(l.src) && l.src[l.pos-1] == '\r' && l.pos < len(l.src) && l.src[l.pos] == '\n' {
				l.pos++
			}
		case '\n', '\r':
			return tokIllegal
		default:
			l.pos++
		}
	}
	l.pos = len(l.src)
	return tokIllegal
}

// templateRest reads a template literal's characters after a ` or a
// substitution's }, up to its end or its next ${.
func (l *nestLexer) templateRest() nestTok {
	for l.pos < len(l.src) {
		switch l.src[l.pos] {
		case '`':
			l.pos++
			return tokTemplate
		case '\\':
			l.pos += 2
		case '$':
			if l.pos+1 < len(l.src) && l.src[l.pos+1] == '{' {
				l.pos += 2
				return tokTemplateSub
			}
			l.pos++
		default:
			l.pos++
		}
	}
	l.pos = len(l.src)
	return tokIllegal
}

// regex reads a regular expression literal and its flags; one left open
// at the end of its line is illegal.
func (l *nestLexer) regex() nestTok {
	l.pos++
	class := false
	for l.pos < len(l.src) {
		switch c := l.src[l.pos]; c {
		case '\\':
			l.pos++
			if l.pos < len(l.src) && (l.src[l.pos] == '\n' || l.src[l.pos] == '\r') {
				return tokIllegal
			}
			l.pos++
		case '[':
			class = true
			l.pos++
		case ']':
			class = false
			l.pos++
		case '/':
			l.pos++
			if !class {
				l.identRest()
				return tokRegex
			}
		case '\n', '\r':
			return tokIllegal
		default:
			l.pos++
		}
	}
	l.pos = min(l.pos, len(l.src))
	return tokIllegal
}
