package termsafe

import "testing"

func TestLineDisarmsEscapes(t *testing.T) {
	for in, want := range map[string]string{
		"alice":                "alice",
		"żółw 🐢":               "żółw 🐢",
		"\x1b]0;owned\x07name": "�]0;owned�name",
		"\x1b[41mred\x1b[0m":   "�[41mred�[0m",
		"a\tb":                 "a b",
		"two\nlines\r\n":       "two�lines��",
		"\x9b31m":              "�31m", // C1 CSI as a rune
		"bad\xffbyte":          "bad�byte",
		"abc\u202edcba":        "abcdcba",
		"del\x7f":              "del�",
		"\u2066isolate\u2069":  "isolate",
	} {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTextKeepsLines(t *testing.T) {
	if got := Text("one\r\ntwo\n\x1b[2Jthree"); got != "one\ntwo\n�[2Jthree" {
		t.Errorf("Text = %q", got)
	}
}
