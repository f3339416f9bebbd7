package lessons

import (
	"fmt"
	"regexp"
	"strings"
)

// TextProblem is something a lesson's text would show a learner that it
// must not; `run --check` reports each one with its file line and fails.
type TextProblem struct {
	// Step is the index of the step the text belongs to, -1 for the
	// front matter and the introduction.
	Step int
	Line int
	Msg  string
}

// provenanceWords are the words that claim a source (a publication, a
// measurement on a real server), in English and in the languages of the
// lessons' translations. A paragraph that uses one must link its source.
var provenanceWords = map[string][]*regexp.Regexp{
	"en": {wordPattern(`published`), wordPattern(`reported`), wordPattern(`a run on a real`)},
	"id": {wordPattern(`dipublikasikan`), wordPattern(`diterbitkan`), wordPattern(`dilaporkan`),
		wordPattern(`run(?: yang \pL+)? (?:pada|di) \pL+ sungguhan`)},
	"ru": {wordPattern(`опубликован\pL*`), wordPattern(`сообщил[аио]?`), wordPattern(`сообщалось`),
		wordPattern(`прогон\pL* на (?:настоящ|реальн)\pL*`)},
}

// wordPattern matches phrase case-insensitively as whole words, in any
// script (regexp's \b knows ASCII words only).
func wordPattern(phrase string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^\pL\pN])(` + phrase + `)(?:[^\pL\pN]|$)`)
}

// CheckText lists the problems of l's text as a learner sees it, after
// the parser has hidden the author's comments: an HTML comment still
// shown (a `<!--` that nothing closes), and a claim of provenance (the
// words of provenanceWords) in a paragraph that links no source.
func CheckText(l *Lesson) []TextProblem {
	var out []TextProblem
	words := provenanceWords["en"]
	if l.Lang != "en" {
		words = append(words[:len(words):len(words)], provenanceWords[l.Lang]...)
	}
	check := func(step, first int, text string) {
		for _, p := range textProblems(text, words) {
			out = append(out, TextProblem{Step: step, Line: first + p.Line, Msg: p.Msg})
		}
	}
	check(-1, 1, l.Title)
	check(-1, 1, l.Summary)
	check(-1, l.IntroLine, l.Intro)
	for i, st := range l.Steps {
		check(i, st.Line, st.Title)
		for _, b := range st.Blocks {
			switch b.Kind {
			case Prose:
				check(i, b.Line, b.Text)
			case ExerciseHint:
				check(i, b.Line+1, b.Text)
			}
		}
	}
	return out
}

// textProblems checks one piece of Markdown; a problem's Line counts from
// 0, the piece's first line. Code (fences, inline code spans) is not
// checked: a comment there is code, and a word there is not a claim.
func textProblems(text string, words []*regexp.Regexp) []TextProblem {
	var out []TextProblem
	lines := strings.Split(text, "\n")
	var para []int // the lines of the paragraph being read
	flush := func() {
		linked := false
		for _, i := range para {
			linked = linked || strings.Contains(lines[i], "http://") || strings.Contains(lines[i], "https://")
		}
		if !linked {
			for _, i := range para {
				for _, w := range words {
					if m := w.FindStringSubmatch(withoutCode(lines[i])); m != nil {
						out = append(out, TextProblem{Line: i, Msg: fmt.Sprintf("%q claims a source, and its paragraph links none: cite the source with its URL, or remove the claim", m[1])})
					}
				}
			}
		}
		para = para[:0]
	}
	for i := 0; i < len(lines); i++ {
		if fence, ok := openingFence(lines[i]); ok {
			flush()
			if end := closingFence(lines, i+1, fence); end >= 0 {
				i = end
			}
			continue
		}
		if strings.Contains(withoutCode(lines[i]), "<!--") {
			out = append(out, TextProblem{Line: i, Msg: "an HTML comment is shown to the learner here: close it with -->, and it is hidden, or remove it"})
		}
		if strings.TrimSpace(lines[i]) == "" {
			flush()
			continue
		}
		para = append(para, i)
	}
	flush()
	return out
}

// withoutCode is line with its inline code spans removed.
func withoutCode(line string) string {
	var b strings.Builder
	for pos := 0; pos < len(line); {
		if line[pos] != '`' {
			b.WriteByte(line[pos])
			pos++
			continue
		}
		end, closed := codeSpan(line, pos)
		if !closed {
			b.WriteString(line[pos:end])
		}
		pos = end
	}
	return b.String()
}
