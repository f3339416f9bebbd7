// Package termsafe makes text that schemalab did not write safe to draw on
// a terminal: a user name, a lesson's title or a document may hold escape
// sequences that would retitle the terminal, recolour it or move its
// cursor. Each place where such text enters a terminal (a log writer, a
// dashboard cell, a page of a lesson) passes it through here once.
package termsafe

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line is s on one line: every control character (C0, DEL and C1, ESC
// among them, and line breaks too) and every invalid byte becomes U+FFFD
// shown as "�", except a tab, which becomes a space. Format characters
// that reorder text (bidirectional overrides and isolates) are dropped.
func Line(s string) string {
	return clean(s, false)
}

// Text is s with its line breaks kept: as Line, but "\n" stays, and
// "\r\n" becomes "\n".
func Text(s string) string {
	return clean(strings.ReplaceAll(s, "\r\n", "\n"), true)
}

// Clean reports whether s needs no change by Line.
func Clean(s string) bool {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return false
			}
		}
		if unsafeRune(r) || r == '\t' {
			return false
		}
	}
	return true
}

func clean(s string, keepNewlines bool) string {
	if Clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				b.WriteRune(utf8.RuneError)
				continue
			}
			b.WriteRune(r)
		case r == '\n' && keepNewlines:
			b.WriteByte('\n')
		case r == '\t':
			b.WriteByte(' ')
		case bidi(r):
		case unsafeRune(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || bidi(r)
}

// bidi are the characters that reorder the text around them (Trojan
// Source): embeddings, overrides and isolates.
func bidi(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069
}
