package lessons

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/language"
)

// ParseError names the file, the line and the problem of a malformed lesson.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// orderSyntax is a lesson's order: digits, with an optional decimal part.
var orderSyntax = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// executableLangs are the fence languages whose second info word is read as
// a block kind; any other language is shown as prose.
var executableLangs = map[string]bool{"js": true, "javascript": true, "text": true, "md": true, "markdown": true}

// Parse reads one lesson file. file is used in error messages only.
func Parse(file string, src []byte) (*Lesson, error) {
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	p := &parser{file: file, lines: hideComments(lines)}
	return p.parse()
}

type parser struct {
	file           string
	lines          []string
	l              *Lesson
	prose          []string // pending prose lines
	proseLine      int
	group          int // current compare group number within the step
	lastWasCompare bool
}

func (p *parser) errf(line int, format string, args ...any) error {
	return &ParseError{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) parse() (*Lesson, error) {
	p.l = &Lesson{File: p.file}
	i, err := p.frontMatter()
	if err != nil {
		return nil, err
	}
	var intro []string
	introLine := 0
	inStep := false
	for ; i < len(p.lines); i++ {
		line := p.lines[i]
		lineNo := i + 1
		if fence, ok := openingFence(line); ok {
			end := closingFence(p.lines, i+1, fence)
			if end < 0 {
				return nil, p.errf(lineNo, "code fence %q is never closed", strings.TrimSpace(line))
			}
			body := strings.Join(p.lines[i+1:end], "\n")
			info := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), string(fence[0])))
			blk, err := p.block(info, body, lineNo)
			if err != nil {
				return nil, err
			}
			raw := p.lines[i : end+1]
			i = end
			if blk == nil { // a fence that is only shown
				if !inStep {
					if introLine == 0 {
						introLine = lineNo
					}
					intro = append(intro, raw...)
				} else {
					p.addProse(lineNo, raw...)
				}
				continue
			}
			if !inStep {
				return nil, p.errf(lineNo, "%s block before the first step heading (## …)", blk.Kind)
			}
			if err := p.addBlock(*blk); err != nil {
				return nil, err
			}
			continue
		}
		if title, ok := stepHeading(line); ok {
			if err := p.finishStep(); err != nil {
				return nil, err
			}
			if title == "" {
				return nil, p.errf(lineNo, "step heading has no title")
			}
			p.l.Steps = append(p.l.Steps, Step{Title: title, Line: lineNo})
			p.group, p.lastWasCompare = 0, false
			inStep = true
			continue
		}
		if !inStep {
			// A level-1 heading repeating the title is not part of the intro.
			if strings.HasPrefix(line, "# ") && strings.TrimSpace(strings.Join(intro, "")) == "" {
				continue
			}
			if introLine == 0 && strings.TrimSpace(line) != "" {
				introLine = lineNo
			}
			intro = append(intro, line)
			continue
		}
		p.addProse(lineNo, line)
	}
	if err := p.finishStep(); err != nil {
		return nil, err
	}
	p.l.Intro, p.l.IntroLine = strings.TrimSpace(strings.Join(intro, "\n")), introLine
	if len(p.l.Steps) == 0 {
		return nil, p.errf(0, "lesson has no steps (a step starts with a `## ` heading)")
	}
	if err := p.assignIDs(); err != nil {
		return nil, err
	}
	return p.l, nil
}

// frontMatter parses the leading `---` block and returns the index of the
// first line after it.
func (p *parser) frontMatter() (int, error) {
	if len(p.lines) == 0 || strings.TrimSpace(p.lines[0]) != "---" {
		return 0, p.errf(1, "missing front matter: the file must start with a `---` line")
	}
	seen := map[string]bool{}
	for i := 1; i < len(p.lines); i++ {
		line := strings.TrimSpace(p.lines[i])
		lineNo := i + 1
		if line == "---" {
			for _, k := range []string{"id", "title"} {
				if !seen[k] {
					return 0, p.errf(lineNo, "front matter has no %q", k)
				}
			}
			return i + 1, nil
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return 0, p.errf(lineNo, "front matter line is not `key: value`")
		}
		key, val = strings.TrimSpace(key), unquote(strings.TrimSpace(val))
		if seen[key] {
			return 0, p.errf(lineNo, "front matter repeats %q", key)
		}
		seen[key] = true
		switch key {
		case "id":
			if !idPattern.MatchString(val) {
				return 0, p.errf(lineNo, "id %q must be lower-case letters, digits, '-' or '_'", val)
			}
			p.l.ID = val
		case "title":
			p.l.Title = val
		case "summary":
			p.l.Summary = val
		case "lang":
			tag, err := language.Parse(val)
			if err != nil {
				return 0, p.errf(lineNo, "lang %q is not a language tag (id, ru, pt-BR…)", val)
			}
			base, _ := tag.Base()
			p.l.Lang = base.String()
		case "order":
			n, err := strconv.ParseFloat(val, 64)
			if err != nil || !orderSyntax.MatchString(val) {
				return 0, p.errf(lineNo, "order must be a number such as 3 or 2.5, not %q", val)
			}
			p.l.Order = n
		case "minutes":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 {
				return 0, p.errf(lineNo, "minutes must be a whole number, not %q", val)
			}
			p.l.Minutes = n
		default:
			return 0, p.errf(lineNo, "unknown front matter key %q (known: id, title, summary, order, minutes, lang)", key)
		}
	}
	return 0, p.errf(1, "front matter is never closed with a `---` line")
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}

// HTML comments are the author's. hideComments blanks them out of a
// lesson's lines before it is parsed, as a Markdown renderer hides them,
// so that no renderer (the TUI, the transcript, the handout, the
// classroom) shows one: a comment is cut out of its line, and a line it
// covers becomes blank, which keeps every line number and ends a paragraph
// where CommonMark's HTML block would. A comment inside code (a fence that is
// not a hint, an inline code span) is code and stays, and so does a
// `<!--` that nothing closes: CheckText reports it with its line.
func hideComments(lines []string) []string {
	open := false
	for i := 0; i < len(lines); i++ {
		if !open {
			if fence, ok := openingFence(lines[i]); ok {
				end := closingFence(lines, i+1, fence)
				if end < 0 {
					return lines // the parser reports the fence
				}
				if words, _ := splitInfo(strings.TrimLeft(strings.TrimSpace(lines[i]), string(fence[0]))); len(words) == 3 &&
					(words[0] == "md" || words[0] == "markdown") && words[1] == "exercise" && words[2] == "hint" {
					hideComments(lines[i+1 : end]) // in place: a hint is Markdown
				}
				i = end
				continue
			}
		}
		lines[i], open = hideCommentsInLine(lines[i], open, lines[i+1:])
	}
	return lines
}

// hideCommentsInLine blanks the comments of one line; open says that the
// line starts inside one, and the result whether it ends inside one. rest
// are the lines after it, where an opened comment may close.
func hideCommentsInLine(line string, open bool, rest []string) (string, bool) {
	if !open && !strings.Contains(line, "<!--") {
		return line, false
	}
	var b strings.Builder
	for pos := 0; pos < len(line); {
		switch {
		case open:
			end := strings.Index(line[pos:], "-->")
			if end < 0 {
				return b.String(), true
			}
			pos += end + len("-->")
			open = false
		case line[pos] == '`':
			end, _ := codeSpan(line, pos)
			b.WriteString(line[pos:end])
			pos = end
		case strings.HasPrefix(line[pos:], "<!--"):
			closes := strings.Contains(line[pos+len("<!--"):], "-->")
			for _, l := range rest {
				closes = closes || strings.Contains(l, "-->")
			}
			if !closes {
				b.WriteString(line[pos:])
				return b.String(), false
			}
			pos += len("<!--")
			open = true
		default:
			b.WriteByte(line[pos])
			pos++
		}
	}
	return b.String(), open
}

// codeSpan reads the inline code span that starts with the backtick run
// at line[pos]: end is where it ends, and closed whether a run of as many
// backticks closes it (else end is the end of the opening run, which is
// then text).
func codeSpan(line string, pos int) (end int, closed bool) {
	n := len(line[pos:]) - len(strings.TrimLeft(line[pos:], "`"))
	if i := strings.Index(line[pos+n:], line[pos:pos+n]); i >= 0 {
		return pos + n + i + n, true
	}
	return pos + n, false
}

// openingFence recognizes ``` or ~~~ (three or more, up to three spaces of
// indentation) and returns the fence characters.
func openingFence(line string) (string, bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 {
		return "", false
	}
	c := t[0]
	if c != '`' && c != '~' {
		return "", false
	}
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	if n < 3 || (c == '`' && strings.ContainsRune(t[n:], '`')) {
		return "", false
	}
	return t[:n], true
}

func closingFence(lines []string, from int, fence string) int {
	for j := from; j < len(lines); j++ {
		t := strings.TrimSpace(lines[j])
		if len(t) >= len(fence) && strings.Trim(t, string(fence[0])) == "" && t[0] == fence[0] {
			return j
		}
	}
	return -1
}

func stepHeading(line string) (string, bool) {
	if !strings.HasPrefix(line, "## ") && line != "##" {
		return "", false
	}
	title := strings.TrimSpace(strings.TrimPrefix(line, "##"))
	title = strings.TrimSpace(strings.TrimRight(title, "#"))
	return title, true
}

// block interprets a fence's info string; nil means a fence only shown.
func (p *parser) block(info, body string, line int) (*Block, error) {
	words, err := splitInfo(info)
	if err != nil {
		return nil, p.errf(line, "info string %q: %v", info, err)
	}
	if len(words) < 2 || !executableLangs[words[0]] {
		return nil, nil
	}
	lang, kind := words[0], words[1]
	attrs, flags := map[string]string{}, map[string]bool{}
	for _, w := range words[2:] {
		if k, v, ok := strings.Cut(w, "="); ok {
			attrs[k] = v
		} else {
			flags[w] = true
		}
	}
	b := &Block{Lang: lang, Text: strings.TrimRight(body, "\n "), Line: line}
	allow := func(allowedAttrs []string, allowedFlags []string) error {
		for k := range attrs {
			if !contains(allowedAttrs, k) {
				return p.errf(line, "%s block does not take attribute %q", kind, k)
			}
		}
		for f := range flags {
			if !contains(allowedFlags, f) {
				return p.errf(line, "%s block does not take %q", kind, f)
			}
		}
		return nil
	}
	isJS := lang == "js" || lang == "javascript"
	needJS := func() error {
		if !isJS {
			return p.errf(line, "%s block must be JavaScript (```js %s)", kind, kind)
		}
		return nil
	}
	switch kind {
	case "run":
		b.Kind = Run
		b.Throws = flags["throws"]
		if err := needJS(); err != nil {
			return nil, err
		}
		if err := allow(nil, []string{"throws"}); err != nil {
			return nil, err
		}
	case "setup":
		b.Kind = Setup
		if err := needJS(); err != nil {
			return nil, err
		}
		if err := allow(nil, nil); err != nil {
			return nil, err
		}
	case "compare":
		b.Kind = Compare
		if err := needJS(); err != nil {
			return nil, err
		}
		if err := allow([]string{"label", "collection", "figures", "writes"}, nil); err != nil {
			return nil, err
		}
		if attrs["label"] == "" {
			return nil, p.errf(line, `compare block needs a label, e.g. `+"```js compare label=\"flat\""+``)
		}
		b.Variant = &Variant{Label: attrs["label"], Collection: attrs["collection"], Figures: attrs["figures"], Writes: attrs["writes"]}
	case "expect":
		if isJS {
			b.Kind = ExpectJS
		} else {
			b.Kind = ExpectOutput
		}
		if err := allow(nil, nil); err != nil {
			return nil, err
		}
	case "exercise":
		role := ""
		for f := range flags {
			role = f
		}
		if len(flags) != 1 || len(attrs) != 0 {
			return nil, p.errf(line, "exercise block needs exactly one role: starter, check, hint or solution")
		}
		switch role {
		case "starter":
			b.Kind = ExerciseStarter
		case "check":
			b.Kind = ExerciseCheck
		case "solution":
			b.Kind = ExerciseSolution
		case "hint":
			b.Kind = ExerciseHint
		default:
			return nil, p.errf(line, "unknown exercise role %q (starter, check, hint or solution)", role)
		}
		if b.Kind != ExerciseHint {
			if err := needJS(); err != nil {
				return nil, err
			}
		}
	default:
		if isJS || len(words) > 2 || kindLike(kind) {
			return nil, p.errf(line, "unknown block kind %q (run, setup, compare, expect or exercise)", kind)
		}
		return nil, nil
	}
	if b.Text == "" && b.Kind != ExerciseStarter {
		return nil, p.errf(line, "%s block is empty", b.Kind)
	}
	return b, nil
}

// kindLike reports whether a second info word looks like a misspelt kind
// rather than, say, a highlighting hint.
func kindLike(w string) bool {
	for _, k := range []string{"run", "setup", "compare", "expect", "exercise"} {
		if levenshtein(w, k) <= 2 {
			return true
		}
	}
	return false
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// splitInfo splits an info string into words; key="quoted value" keeps its
// spaces, and \" escapes a quote inside one.
func splitInfo(info string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inQuote, has := false, false
	for i := 0; i < len(info); i++ {
		c := info[i]
		switch {
		case inQuote && c == '\\' && i+1 < len(info) && info[i+1] == '"':
			cur.WriteByte('"')
			i++
		case c == '"':
			inQuote = !inQuote
			has = true
		case !inQuote && unicode.IsSpace(rune(c)):
			if has {
				words = append(words, cur.String())
				cur.Reset()
				has = false
			}
		default:
			cur.WriteByte(c)
			has = true
		}
	}
	if inQuote {
		return nil, fmt.Errorf("unterminated quote")
	}
	if has {
		words = append(words, cur.String())
	}
	return words, nil
}

func (p *parser) addProse(line int, lines ...string) {
	if len(p.prose) == 0 {
		p.proseLine = line
	}
	p.prose = append(p.prose, lines...)
}

func (p *parser) flushProse() {
	text := strings.TrimSpace(strings.Join(p.prose, "\n"))
	// The block starts at its first line with text, not at the blank
	// lines trimmed before it.
	line := p.proseLine
	for _, l := range p.prose {
		if strings.TrimSpace(l) != "" {
			break
		}
		line++
	}
	p.prose = p.prose[:0]
	if text == "" {
		return
	}
	st := &p.l.Steps[len(p.l.Steps)-1]
	st.Blocks = append(st.Blocks, Block{Kind: Prose, Text: text, Line: line})
	p.lastWasCompare = false
}

func (p *parser) addBlock(b Block) error {
	p.flushProse()
	st := &p.l.Steps[len(p.l.Steps)-1]
	if b.Kind == Compare {
		if !p.lastWasCompare {
			p.group++
		}
		b.Group = p.group
		p.lastWasCompare = true
	} else {
		p.lastWasCompare = false
	}
	st.Blocks = append(st.Blocks, b)
	return nil
}

// finishStep validates the current step and assembles its exercise.
func (p *parser) finishStep() error {
	if len(p.l.Steps) == 0 {
		return nil
	}
	p.flushProse()
	st := &p.l.Steps[len(p.l.Steps)-1]
	groups := map[int][]Block{}
	var ex *Exercise
	hasRunnable := false
	for _, b := range st.Blocks {
		switch b.Kind {
		case Compare:
			groups[b.Group] = append(groups[b.Group], b)
			hasRunnable = true
		case Run:
			hasRunnable = true
		case ExpectOutput:
			if !hasRunnable {
				return p.errf(b.Line, "output expect block has no run or compare block before it in the step")
			}
		case ExerciseStarter, ExerciseCheck, ExerciseHint, ExerciseSolution:
			if ex == nil {
				ex = &Exercise{Line: b.Line}
			}
			switch b.Kind {
			case ExerciseStarter:
				if ex.Starter != "" {
					return p.errf(b.Line, "exercise has two starter blocks")
				}
				ex.Starter = b.Text
			case ExerciseCheck:
				if ex.Check != "" {
					return p.errf(b.Line, "exercise has two check blocks")
				}
				ex.Check = b.Text
			case ExerciseSolution:
				if ex.Solution != "" {
					return p.errf(b.Line, "exercise has two solution blocks")
				}
				ex.Solution = b.Text
			case ExerciseHint:
				ex.Hints = append(ex.Hints, b.Text)
			}
		}
	}
	for g, vs := range groups {
		if len(vs) < 2 {
			return p.errf(vs[0].Line, "comparison %d has only one variant; put two or more compare blocks next to each other", g)
		}
		seen := map[string]bool{}
		for _, v := range vs {
			if seen[v.Variant.Label] {
				return p.errf(v.Line, "comparison repeats the label %q", v.Variant.Label)
			}
			seen[v.Variant.Label] = true
		}
	}
	if ex != nil {
		if ex.Check == "" {
			return p.errf(ex.Line, "exercise in step %q has no check block (```js exercise check)", st.Title)
		}
		if ex.Solution == "" {
			return p.errf(ex.Line, "exercise in step %q has no solution block (```js exercise solution)", st.Title)
		}
		ex.Task = st.Prose()
		st.Exercise = ex
	}
	return nil
}

func (p *parser) assignIDs() error {
	used := map[string]bool{}
	for i := range p.l.Steps {
		base := slug(p.l.Steps[i].Title)
		if base == "" {
			// A heading of only symbols or emoji.
			base = "step"
		}
		// A repeated heading gets -2, -3…, skipping any a heading spells
		// out itself ("Step", "Step 2", "Step").
		id := base
		for n := 2; used[id]; n++ {
			id = fmt.Sprintf("%s-%d", base, n)
		}
		used[id] = true
		p.l.Steps[i].ID = id
	}
	return nil
}

func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		// Marks too: a heading typed with a decomposed й or ё keeps its
		// letters together.
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimRight(b.String(), "-")
}
