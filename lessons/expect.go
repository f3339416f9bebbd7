package lessons

import (
	"regexp"
	"strings"
)

// MatchFragment reports whether the lines of fragment appear as consecutive
// lines of output. Trailing spaces are ignored, leading blank lines of the
// fragment too, and "..." inside a fragment line matches any text on that
// line (ObjectIds, timings).
func MatchFragment(output, fragment string) bool {
	want := trimBlank(strings.Split(fragment, "\n"))
	if len(want) == 0 {
		return true
	}
	pats := make([]*regexp.Regexp, len(want))
	for i, w := range want {
		parts := strings.Split(strings.TrimRight(w, " \t"), "...")
		for j := range parts {
			parts[j] = regexp.QuoteMeta(parts[j])
		}
		pats[i] = regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
	}
	got := strings.Split(output, "\n")
	for i := range got {
		got[i] = strings.TrimRight(got[i], " \t")
	}
	for start := 0; start+len(pats) <= len(got); start++ {
		ok := true
		for k, p := range pats {
			if !p.MatchString(got[start+k]) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func trimBlank(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
