package expr

import (
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"time"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// This file is $dateFromString's (and $toDate's) reading of a string
// without a format: timelib_strtotime (src/third_party/timelib/dist/
// parse_date.re) as TimeZoneDatabase::fromString
// (src/mongo/db/query/datetime/date_time_support.cpp) uses it. The scanner
// takes, at each position, the longest match among timelib's token rules
// (the first rule listed wins a tie), and each token's action sets parts of
// the date as timelib's does. The relative forms ("+1 week", "next
// monday", "first day of", "ago", "@123.5", "weekday") are not ported:
// a string that uses one is refused with stUnsupported's message.

// ttUnset is TIMELIB_UNSET.
const ttUnset = -9999999

// Token kinds, one per action of parse_date.re.
const (
	ttYesterday = iota
	ttNow
	ttNoon
	ttMidnight
	ttTomorrow
	ttTimestamp
	ttUnsupported
	ttTime12
	ttMssql
	ttTime24
	ttGnuNoColon
	ttISONoColon
	ttAmerican
	ttISODate4
	ttISODate2
	ttGnuDateShorter
	ttGnuDateShort
	ttDateFull
	ttPointed4
	ttPointed2
	ttDateNoDay
	ttDateNoDayRev
	ttDateTextual
	ttDateNoYearRev
	ttDateNoColon
	ttXMLRPC
	ttPgYDotD
	ttISOWeekDay
	ttISOWeek
	ttPgTextShort
	ttPgTextReverse
	ttCLF
	ttYear4
	ttDayText
	ttMonthText
	ttZone
	ttDateShortTime12
	ttDateShortTime24
	ttSkip
)

type ttRule struct {
	re   *regexp.Regexp
	kind int
	// first holds the bytes a match can begin with, so that the scanner
	// tries at each position only the rules that can match there.
	first [256]bool
}

// ttRules are parse_date.re's rules in its order, each anchored and
// matching its longest text as re2c does.
var ttRules = func() []ttRule {
	const (
		hour24     = `(?:[01]?[0-9]|2[0-4])`
		hour24lz   = `(?:[01][0-9]|2[0-4])`
		hour12     = `(?:0?[1-9]|1[0-2])`
		minute     = `(?:[0-5]?[0-9])`
		minutelz   = `(?:[0-5][0-9])`
		second     = `(?:` + minute + `|60)`
		secondlz   = `(?:` + minutelz + `|60)`
		meridian   = `(?:[AaPp]\.?[Mm]\.?)[\x00\t ]`
		space      = `(?:[ \t]+|\x{00A0}+|\x{202F}+)`
		frac       = `\.[0-9]+`
		tz         = `(?:\(?[A-Za-z]{1,6}\)?|[A-Z][a-z]+(?:[_/-][A-Za-z]+)+)`
		tzcorr     = `(?:GMT)?[+-](?:` + hour24 + `(?::?` + minute + `)?|` + hour24lz + minutelz + secondlz + `|` + hour24lz + `:` + minutelz + `:` + secondlz + `)`
		daysuf     = `(?:st|nd|rd|th)`
		month      = `(?:0?[0-9]|1[0-2])`
		day        = `(?:(?:[0-2]?[0-9]|3[01])` + daysuf + `?)`
		year       = `[0-9]{1,4}`
		year2      = `[0-9]{2}`
		year4      = `[0-9]{4}`
		year4sign  = `[+-]?[0-9]{4}`
		yearx      = `[+-][0-9]{5,19}`
		dayofyear  = `(?:00[1-9]|0[1-9][0-9]|[12][0-9][0-9]|3[0-5][0-9]|36[0-6])`
		weekofyear = `(?:0[1-9]|[1-4][0-9]|5[0-3])`
		monthlz    = `(?:0[0-9]|1[0-2])`
		daylz      = `(?:0[0-9]|[12][0-9]|3[01])`
		dayfulls   = `(?i:sundays|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays)`
		dayfull    = `(?i:sunday|monday|tuesday|wednesday|thursday|friday|saturday)`
		dayabbr    = `(?i:sun|mon|tue|wed|thu|fri|sat)`
		dayspecial = `(?i:weekdays?)`
		daytext    = `(?:` + dayfulls + `|` + dayfull + `|` + dayabbr + `|` + dayspecial + `)`
		monthfull  = `(?i:january|february|march|april|may|june|july|august|september|october|november|december)`
		monthabbr  = `(?i:jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec)`
		monthroman = `(?:I|II|III|IV|V|VI|VII|VIII|IX|X|XI|XII)`
		monthtext  = `(?:` + monthfull + `|` + monthabbr + `|` + monthroman + `)`
		t          = `[tT]`

		timetiny12  = hour12 + space + `?` + meridian
		timeshort12 = hour12 + `[:.]` + minutelz + space + `?` + meridian
		timelong12  = hour12 + `[:.]` + minute + `[:.]` + secondlz + space + `?` + meridian
		timetiny24  = t + hour24
		timeshort24 = t + `?` + hour24 + `[:.]` + minute
		timelong24  = t + `?` + hour24 + `[:.]` + minute + `[:.]` + second
		iso8601long = t + `?` + hour24 + `[:.]` + minute + `[:.]` + second + frac
		iso8601ntz  = t + `?` + hour24 + `[:.]` + minute + `[:.]` + secondlz + space + `?(?:` + tzcorr + `|` + tz + `)`
		datenoyear  = monthtext + `[ .\t-]*` + day + `(?:[,.stndrh\t ]+|\x00)`

		reltextnumber = `(?i:first|second|third|fourth|fifth|sixth|seventh|eighth?|ninth|tenth|eleventh|twelfth)`
		reltexttext   = `(?i:next|last|previous|this)`
		reltextunit   = `(?:(?i:ms|µs|(?:msec|millisecond|µsec|microsecond|usec|sec|second|min|minute|hour|day|fortnight|forthnight|month|year)s?|weeks)|` + daytext + `)`
		relnumber     = `(?:[+-]*[ \t]*[0-9]{1,13})`
	)
	rules := []struct {
		re   string
		kind int
	}{
		{`(?i:yesterday)`, ttYesterday},
		{`(?i:now)`, ttNow},
		{`(?i:noon)`, ttNoon},
		{`(?i:midnight|today)`, ttMidnight},
		{`(?i:tomorrow)`, ttTomorrow},
		{`@-?[0-9]+`, ttTimestamp},
		{`@-?[0-9]+\.[0-9]{0,6}`, ttUnsupported},
		{`(?i:first day of|last day of)`, ttUnsupported},
		{`(?i:back of |front of )` + hour24 + `(?:` + space + `?` + meridian + `)?`, ttUnsupported},
		{`(?:` + reltextnumber + `|` + reltexttext + `)` + space + `(?:` + dayfulls + `|` + dayfull + `|` + dayabbr + `)` + space + `(?i:of)`, ttUnsupported},
		{`(?:` + timetiny12 + `|` + timeshort12 + `|` + timelong12 + `)`, ttTime12},
		{hour12 + `:` + minutelz + `:` + secondlz + `[:.][0-9]+` + meridian, ttMssql},
		{`(?:` + timetiny24 + `|` + timeshort24 + `|` + timelong24 + `|` + iso8601long + `)`, ttTime24},
		{t + `?` + hour24lz + minutelz, ttGnuNoColon},
		{t + `?` + hour24lz + minutelz + secondlz, ttISONoColon},
		{month + `/` + day + `(?:/` + year + `)?`, ttAmerican},
		{`(?:` + year4sign + `-` + monthlz + `-` + daylz + `|` + year4 + `/` + monthlz + `/` + daylz + `/?|` + year4 + `/` + month + `/` + day + `)`, ttISODate4},
		{year2 + `-` + monthlz + `-` + daylz, ttISODate2},
		{yearx + `-` + monthlz + `-` + daylz, ttUnsupported},
		{year4 + `-` + month, ttGnuDateShorter},
		{year + `-` + month + `-` + day, ttGnuDateShort},
		{day + `[ \t.-]*` + monthtext + `[ \t.-]*` + year, ttDateFull},
		{day + `[.\t-]` + month + `[.-]` + year4, ttPointed4},
		{day + `[.\t]` + month + `\.` + year2, ttPointed2},
		{monthtext + `[ .\t-]*` + year4, ttDateNoDay},
		{year4 + `[ .\t-]*` + monthtext, ttDateNoDayRev},
		{`(?:` + monthtext + `[ .\t-]*` + day + `[,.stndrh\t ]+` + year + `|` + datenoyear + `)`, ttDateTextual},
		{day + `[ .\t-]*` + monthtext, ttDateNoYearRev},
		{year4 + monthlz + daylz, ttDateNoColon},
		{`(?:` + year4 + `-` + monthlz + `-` + daylz + `T` + hour24lz + `:` + minutelz + `:` + secondlz + frac + `(?:` + tzcorr + `)?|` +
			year4 + monthlz + daylz + `T` + hour24 + `:` + minutelz + `:` + secondlz + `|` +
			year4 + monthlz + daylz + t + hour24 + minutelz + secondlz + `|` +
			year4 + `-` + month + `-` + day + `T` + hour24 + `:` + minute + `:` + second + `|` +
			year4 + `:` + monthlz + `:` + daylz + ` ` + hour24lz + `:` + minutelz + `:` + secondlz + `)`, ttXMLRPC},
		{year4 + `[.-]?` + dayofyear, ttPgYDotD},
		{year4 + `-?W` + weekofyear + `-?[0-7]`, ttISOWeekDay},
		{year4 + `-?W` + weekofyear, ttISOWeek},
		{monthabbr + `-` + daylz + `-` + year, ttPgTextShort},
		{year + `-` + monthabbr + `-` + daylz, ttPgTextReverse},
		{day + `/` + monthabbr + `/` + year4 + `:` + hour24lz + `:` + minutelz + `:` + secondlz + space + tzcorr, ttCLF},
		{year4, ttYear4},
		{`(?i:ago)`, ttUnsupported},
		{daytext, ttDayText},
		{reltexttext + space + `(?i:week)`, ttUnsupported},
		{`(?:` + reltextnumber + `|` + reltexttext + `)` + space + reltextunit, ttUnsupported},
		{`(?:` + monthfull + `|` + monthabbr + `)`, ttMonthText},
		{`(?:` + tzcorr + `|` + tz + `)`, ttZone},
		{datenoyear + `(?:` + timeshort12 + `|` + timelong12 + `)`, ttDateShortTime12},
		{datenoyear + `(?:` + timeshort24 + `|` + timelong24 + `|` + iso8601ntz + `)`, ttDateShortTime24},
		{relnumber + space + `?(?:` + reltextunit + `|(?i:week))`, ttUnsupported},
		{`(?:[.,]|` + space + `|[\x00\n])`, ttSkip},
	}
	out := make([]ttRule, len(rules))
	for i, r := range rules {
		re := regexp.MustCompile(`^(?:` + r.re + `)`)
		re.Longest()
		out[i] = ttRule{re: re, kind: r.kind, first: firstBytes(r.re)}
	}
	return out
}()

// firstBytes is the set of bytes a match of the expression can start
// with: the runes the compiled program can read first, both cases of a
// case-folded letter, and every non-ASCII lead byte for a non-ASCII rune.
func firstBytes(expr string) [256]bool {
	var set [256]bool
	re, _ := syntax.Parse(expr, syntax.Perl)
	prog, _ := syntax.Compile(re.Simplify())
	seen := map[uint32]bool{}
	var walk func(pc uint32)
	addRange := func(lo, hi rune, fold bool) {
		if hi > 0x7f {
			for b := 0x80; b < 256; b++ {
				set[b] = true
			}
			hi = 0x7f
		}
		for c := lo; c <= hi; c++ {
			set[c] = true
			if fold && isASCIILetter(byte(c)) {
				set[c^0x20] = true
			}
		}
	}
	walk = func(pc uint32) {
		if seen[pc] {
			return
		}
		seen[pc] = true
		in := prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			walk(in.Out)
			walk(in.Arg)
		case syntax.InstCapture, syntax.InstEmptyWidth, syntax.InstNop:
			walk(in.Out)
		case syntax.InstRune, syntax.InstRune1:
			fold := syntax.Flags(in.Arg)&syntax.FoldCase != 0
			for k := 0; k+1 < len(in.Rune); k += 2 {
				addRange(in.Rune[k], in.Rune[k+1], fold)
			}
			if len(in.Rune) == 1 {
				addRange(in.Rune[0], in.Rune[0], fold)
			}
		case syntax.InstRuneAny, syntax.InstRuneAnyNotNL, syntax.InstMatch:
			for b := range set {
				set[b] = true
			}
		}
	}
	walk(uint32(prog.Start))
	return set
}

// ttMsg is a timelib error or warning: where the token began and its byte.
type ttMsg struct {
	pos   int
	c     byte
	msg   string
	tzErr bool // TIMELIB_ERR_TZID_NOT_FOUND, which mongod rewords
}

// strtotime holds the parts timelib_strtotime fills in.
type strtotime struct {
	y, m, d, h, i, s, us int64
	haveTime, haveDate   int
	haveZone             int
	zone                 *stringZone
	relD, relS           int64
	weekday              int64
	haveWeekday          bool
	errors, warnings     []ttMsg
	unsupported          bool
}

// stUnsupported is the sandbox's refusal of a form it does not port.
func stUnsupported(s string) error {
	return mongoerr.Newf(mongoerr.ConversionFailure, "Error parsing date string '%s'; 0: passed in string does not match format", s)
}

// ttNumber is timelib_get_nr_ex on a token: it skips what is not a digit,
// then reads up to max digits; ttUnset at the token's end.
func ttNumber(tok string, p *int, max int) (int64, int) {
	for *p < len(tok) && !isASCIIDigit(tok[*p]) {
		*p++
	}
	if *p >= len(tok) {
		return ttUnset, 0
	}
	start := *p
	for *p < len(tok) && *p-start < max && isASCIIDigit(tok[*p]) {
		*p++
	}
	n, _ := strconv.ParseInt(tok[start:*p], 10, 64)
	return n, *p - start
}

// ttSignedNumber is timelib_get_signed_nr: signs, then up to max digits.
func ttSignedNumber(tok string, p *int, max int) int64 {
	neg := false
	for *p < len(tok) && (tok[*p] == '+' || tok[*p] == '-') {
		if tok[*p] == '-' {
			neg = !neg
		}
		*p++
	}
	n, _ := ttNumber(tok, p, max)
	if neg {
		return -n
	}
	return n
}

// ttYear is TIMELIB_PROCESS_YEAR: a year of fewer than four digits below
// 70 is in the 2000s, otherwise in the 1900s.
func ttYear(y int64, digits int) int64 {
	if y == ttUnset || digits >= 4 || y >= 100 {
		return y
	}
	if y < 70 {
		return y + 2000
	}
	return y + 1900
}

// ttFrac is timelib_get_frac_nr: the digits after the separator, as
// microseconds.
func ttFrac(tok string, p *int) int64 {
	for *p < len(tok) && tok[*p] != '.' && tok[*p] != ':' && !isASCIIDigit(tok[*p]) {
		*p++
	}
	begin := *p
	for *p < len(tok) && (tok[*p] == '.' || tok[*p] == ':' || isASCIIDigit(tok[*p])) {
		*p++
	}
	digits := tok[begin+1 : *p]
	if j := strings.IndexAny(digits, ".:"); j >= 0 {
		digits = digits[:j]
	}
	f, _ := strconv.ParseFloat("0"+digits, 64)
	return int64(f * math.Pow(10, float64(7-(*p-begin))))
}

// ttMonth is timelib_get_month: separators, then a month's name or roman
// numeral; 0 when the word is none.
func ttMonth(tok string, p *int) int64 {
	for *p < len(tok) && strings.IndexByte(" \t-./", tok[*p]) >= 0 {
		*p++
	}
	start := *p
	for *p < len(tok) && isASCIILetter(tok[*p]) {
		*p++
	}
	names := []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
	full := []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}
	roman := []string{"i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"}
	w := strings.ToLower(tok[start:*p])
	for k := range names {
		if w == names[k] || w == full[k] || w == roman[k] {
			return int64(k + 1)
		}
	}
	if w == "sept" {
		return 9
	}
	return 0
}

// ttSkipDaySuffix is timelib_skip_day_suffix.
func ttSkipDaySuffix(tok string, p *int) {
	if *p+2 > len(tok) {
		return
	}
	switch strings.ToLower(tok[*p : *p+2]) {
	case "nd", "rd", "st", "th":
		*p += 2
	}
}

// ttMeridian is timelib_meridian: the hours to add for am/pm.
func ttMeridian(tok string, p *int, h int64) int64 {
	for *p < len(tok) && strings.IndexByte("AaPp", tok[*p]) < 0 {
		*p++
	}
	if *p >= len(tok) {
		return 0
	}
	var r int64
	if tok[*p] == 'a' || tok[*p] == 'A' {
		if h == 12 {
			r = -12
		}
	} else if h != 12 {
		r = 12
	}
	return r
}

// ttParseZone is timelib_parse_zone on what follows *p in the token:
// an offset or an abbreviation; false when timelib finds no zone (the
// TIMELIB_ERR_TZID_NOT_FOUND its callers report).
func ttParseZone(tok string, p *int) (*stringZone, bool) {
	for *p < len(tok) && (tok[*p] == ' ' || tok[*p] == '\t' || tok[*p] == '(') {
		*p++
	}
	rest := tok[*p:]
	if strings.HasPrefix(rest, "GMT") && len(rest) > 3 && (rest[3] == '+' || rest[3] == '-') {
		*p += 3
	}
	if *p < len(tok) && (tok[*p] == '+' || tok[*p] == '-') {
		neg := tok[*p] == '-'
		*p++
		start := *p
		for *p < len(tok) && (isASCIIDigit(tok[*p]) || tok[*p] == ':') {
			*p++
		}
		off, ok := parseZoneOffset(tok[start:*p])
		if neg {
			off = -off
		}
		return &stringZone{offset: off}, ok
	}
	start := *p
	for *p < len(tok) && (isASCIILetter(tok[*p]) || isASCIIDigit(tok[*p]) || strings.IndexByte("/_-+", tok[*p]) >= 0) {
		*p++
	}
	word := tok[start:*p]
	for *p < len(tok) && tok[*p] == ')' {
		*p++
	}
	// MAX_ABBR_LEN is _POSIX_TZNAME_MAX, 6.
	if len(word) >= 6 {
		return nil, false
	}
	off, ok := zoneAbbreviation(word)
	if !ok {
		return nil, false
	}
	return &stringZone{offset: off, abbr: strings.ToUpper(word)}, true
}

// scanDateString runs timelib_strtotime's scanner over s (already trimmed).
func scanDateString(s string) *strtotime {
	if st, ok := scanISODateTime(s); ok {
		return st
	}
	return scanDateTokens(s)
}

// scanISODateTime reads the form dates are most often written in,
// YYYY-MM-DD with an optional THH:MM:SS, up to six digits of fraction and a
// Z, into what the token rules would read from it (timelib's datefull,
// iso8601long and zone rules), without trying every rule: ok is false for
// anything else, out-of-range fields included, which the rules then scan.
func scanISODateTime(s string) (*strtotime, bool) {
	digits := func(from, n int) (int64, bool) {
		if from+n > len(s) {
			return 0, false
		}
		var v int64
		for _, c := range []byte(s[from : from+n]) {
			if !isASCIIDigit(c) {
				return 0, false
			}
			v = v*10 + int64(c-'0')
		}
		return v, true
	}
	y, ok1 := digits(0, 4)
	m, ok2 := digits(5, 2)
	d, ok3 := digits(8, 2)
	if !ok1 || !ok2 || !ok3 || s[4] != '-' || s[7] != '-' || m < 1 || m > 12 || d < 1 || d > 31 {
		return nil, false
	}
	st := &strtotime{y: y, m: m, d: d, h: ttUnset, i: ttUnset, s: ttUnset, us: ttUnset, haveDate: 1}
	if len(s) == 10 {
		return st, true
	}
	h, ok1 := digits(11, 2)
	i, ok2 := digits(14, 2)
	sec, ok3 := digits(17, 2)
	if !ok1 || !ok2 || !ok3 || s[10] != 'T' || s[13] != ':' || s[16] != ':' || h > 23 || i > 59 || sec > 59 {
		return nil, false
	}
	st.h, st.i, st.s, st.us, st.haveTime = h, i, sec, 0, 1
	rest := s[19:]
	if len(rest) > 1 && rest[0] == '.' {
		n := 1
		for n < len(rest) && isASCIIDigit(rest[n]) {
			n++
		}
		if n == 1 || n > 7 {
			return nil, false
		}
		frac, _ := digits(20, n-1)
		for range 7 - n {
			frac *= 10
		}
		st.us, rest = frac, rest[n:]
	}
	switch rest {
	case "":
	case "Z":
		st.zone, st.haveZone = &stringZone{abbr: "Z"}, 1
	default:
		return nil, false
	}
	return st, true
}

// scanDateTokens is timelib_strtotime's scanner: at each position the
// longest-matching token rule, then its action.
func scanDateTokens(s string) *strtotime {
	st := &strtotime{y: ttUnset, m: ttUnset, d: ttUnset, h: ttUnset, i: ttUnset, s: ttUnset, us: ttUnset}
	// The scanner reads past the end into NUL padding, which the meridian
	// and a month-and-day token may take.
	buf := s + "\x00"
	for pos := 0; pos < len(s) && !st.unsupported; {
		rest := buf[pos:]
		best, kind := 0, -1
		for k := range ttRules {
			r := &ttRules[k]
			if !r.first[rest[0]] {
				continue
			}
			if loc := r.re.FindStringIndex(rest); loc != nil && loc[1] > best {
				best, kind = loc[1], r.kind
			}
		}
		if kind < 0 {
			st.errors = append(st.errors, ttMsg{pos: pos, c: s[pos], msg: "Unexpected character"})
			pos++
			continue
		}
		st.action(kind, strings.TrimRight(rest[:best], "\x00"), pos, buf[pos])
		pos += best
	}
	return st
}

func (st *strtotime) fail(pos int, c byte, msg string) {
	st.errors = append(st.errors, ttMsg{pos: pos, c: c, msg: msg})
}

// haveTime is TIMELIB_HAVE_TIME; false when the string already had one.
func (st *strtotime) haveTimeOnce(pos int, c byte) bool {
	if st.haveTime > 0 {
		st.fail(pos, c, "Double time specification")
		return false
	}
	st.haveTime = 1
	st.h, st.i, st.s, st.us = 0, 0, 0, 0
	return true
}

// haveDateOnce is TIMELIB_HAVE_DATE.
func (st *strtotime) haveDateOnce(pos int, c byte) bool {
	if st.haveDate > 0 {
		st.fail(pos, c, "Double date specification")
		return false
	}
	st.haveDate = 1
	return true
}

func (st *strtotime) unhaveTime() {
	st.haveTime = 0
	st.h, st.i, st.s, st.us = 0, 0, 0, 0
}

// zoneIn reads a zone inside a token, as the actions that call
// timelib_parse_zone themselves do.
func (st *strtotime) zoneIn(tok string, p *int, pos int, c byte) {
	z, ok := ttParseZone(tok, p)
	if !ok {
		st.errors = append(st.errors, ttMsg{pos: pos, c: c, msg: "The timezone could not be found in the database", tzErr: true})
		return
	}
	st.zone = z
}

func (st *strtotime) action(kind int, tok string, pos int, c byte) {
	p := 0
	nr := func(max int) int64 { n, _ := ttNumber(tok, &p, max); return n }
	year := func(max int) int64 { n, l := ttNumber(tok, &p, max); return ttYear(n, l) }
	timeOfDay := func(frac bool) {
		st.h = nr(2)
		if p < len(tok) && (tok[p] == ':' || tok[p] == '.') {
			st.i = nr(2)
			if p < len(tok) && (tok[p] == ':' || tok[p] == '.') {
				st.s = nr(2)
				if frac && p < len(tok) && tok[p] == '.' {
					st.us = ttFrac(tok, &p)
				}
			}
		}
	}
	switch kind {
	case ttYesterday:
		st.unhaveTime()
		st.relD = -1
	case ttNow:
	case ttNoon:
		st.unhaveTime()
		st.haveTimeOnce(pos, c)
		st.h = 12
	case ttMidnight:
		st.unhaveTime()
	case ttTomorrow:
		st.unhaveTime()
		st.relD = 1
	case ttTimestamp:
		st.haveDate, st.y, st.m, st.d = 0, 0, 0, 0
		st.unhaveTime()
		if !st.haveTZ(pos, c) {
			return
		}
		p = 1
		n := ttSignedNumber(tok, &p, 24)
		st.y, st.m, st.d = 1970, 1, 1
		st.relS += n
		st.zone = &stringZone{}
	case ttTime12:
		if !st.haveTimeOnce(pos, c) {
			return
		}
		timeOfDay(false)
		st.h += ttMeridian(tok, &p, st.h)
	case ttMssql:
		if !st.haveTimeOnce(pos, c) {
			return
		}
		st.h, st.i = nr(2), nr(2)
		if p < len(tok) && (tok[p] == ':' || tok[p] == '.') {
			st.s = nr(2)
			if p < len(tok) && (tok[p] == ':' || tok[p] == '.') {
				st.us = ttFrac(tok, &p)
			}
		}
		st.h += ttMeridian(tok, &p, st.h)
	case ttTime24:
		if !st.haveTimeOnce(pos, c) {
			return
		}
		timeOfDay(true)
	case ttGnuNoColon:
		switch st.haveTime {
		case 0:
			st.h, st.i, st.s = nr(2), nr(2), 0
		case 1:
			st.y = nr(4)
		default:
			st.fail(pos, c, "Double time specification")
			return
		}
		st.haveTime++
	case ttISONoColon:
		if !st.haveTimeOnce(pos, c) {
			return
		}
		st.h, st.i, st.s = nr(2), nr(2), nr(2)
	case ttAmerican:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.m, st.d = nr(2), nr(2)
		if p < len(tok) && tok[p] == '/' {
			st.y = year(4)
		}
	case ttISODate4:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.y = ttSignedNumber(tok, &p, 4)
		st.m, st.d = nr(2), nr(2)
	case ttISODate2, ttGnuDateShort:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.y = year(4)
		st.m, st.d = nr(2), nr(2)
	case ttGnuDateShorter:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.y = year(4)
		st.m, st.d = nr(2), 1
	case ttDateFull:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.d = nr(2)
		ttSkipDaySuffix(tok, &p)
		st.m = ttMonth(tok, &p)
		st.y = year(4)
	case ttPointed4:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.d, st.m, st.y = nr(2), nr(2), nr(4)
	case ttPointed2:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.d, st.m = nr(2), nr(2)
		st.y = year(2)
	case ttDateNoDay:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.m = ttMonth(tok, &p)
		st.y = year(4)
		st.d = 1
	case ttDateNoDayRev:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.y = year(4)
		st.m = ttMonth(tok, &p)
		st.d = 1
	case ttDateTextual, ttPgTextShort:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.m = ttMonth(tok, &p)
		st.d = nr(2)
		st.y = year(4)
	case ttDateNoYearRev:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.d = nr(2)
		ttSkipDaySuffix(tok, &p)
		st.m = ttMonth(tok, &p)
	case ttDateNoColon:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.y, st.m, st.d = nr(4), nr(2), nr(2)
	case ttXMLRPC:
		if !st.haveTimeOnce(pos, c) || !st.haveDateOnce(pos, c) {
			return
		}
		st.y, st.m, st.d = nr(4), nr(2), nr(2)
		st.h, st.i, st.s = nr(2), nr(2), nr(2)
		if p < len(tok) && tok[p] == '.' {
			st.us = ttFrac(tok, &p)
			if p < len(tok) {
				st.zoneIn(tok, &p, pos, c)
			}
		}
	case ttPgYDotD:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.y = year(4)
		st.d, st.m = nr(3), 1
	case ttISOWeekDay, ttISOWeek:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.y = nr(4)
		w, d := nr(2), int64(1)
		if kind == ttISOWeekDay {
			d = nr(1)
		}
		st.m, st.d = 1, 1
		// timelib_daynr_from_weeknr: day 1 of week 1 from January 1st's
		// day of the week.
		dow := int64(time.Date(int(st.y), 1, 1, 0, 0, 0, 0, time.UTC).Weekday())
		if dow > 4 {
			dow -= 7
		}
		st.relD = -dow + (w-1)*7 + d
	case ttPgTextReverse:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.y = year(4)
		st.m = ttMonth(tok, &p)
		st.d = nr(2)
	case ttCLF:
		if !st.haveTimeOnce(pos, c) || !st.haveDateOnce(pos, c) {
			return
		}
		st.d = nr(2)
		st.m = ttMonth(tok, &p)
		st.y = nr(4)
		st.h, st.i, st.s = nr(2), nr(2), nr(2)
		st.zoneIn(tok, &p, pos, c)
	case ttYear4:
		st.y = nr(4)
	case ttDayText:
		w, ok := map[string]int64{"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6}[strings.ToLower(tok[:3])]
		if !ok {
			// "weekday" and "weekdays" count business days.
			st.unsupported = true
			return
		}
		st.haveWeekday = true
		st.weekday = w
		st.unhaveTime()
	case ttMonthText:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.m = ttMonth(tok, &p)
	case ttZone:
		if !st.haveTZ(pos, c) {
			return
		}
		st.zoneIn(tok, &p, pos, c)
	case ttDateShortTime12, ttDateShortTime24:
		if !st.haveDateOnce(pos, c) {
			return
		}
		st.m = ttMonth(tok, &p)
		st.d = nr(2)
		if !st.haveTimeOnce(pos, c) {
			return
		}
		st.h, st.i = nr(2), nr(2)
		sep := p < len(tok) && tok[p] == ':'
		if kind == ttDateShortTime12 {
			sep = sep || p < len(tok) && tok[p] == '.'
		}
		if sep {
			st.s = nr(2)
			if p < len(tok) && tok[p] == '.' {
				st.us = ttFrac(tok, &p)
			}
		}
		if kind == ttDateShortTime12 {
			st.h += ttMeridian(tok, &p, st.h)
		} else if p < len(tok) {
			st.zoneIn(tok, &p, pos, c)
		}
	case ttSkip:
	default:
		st.unsupported = true
	}
}

// haveTZ is TIMELIB_HAVE_TZ: a second zone is a warning, a third an error,
// and neither is read.
func (st *strtotime) haveTZ(pos int, c byte) bool {
	if st.haveZone > 0 {
		m := ttMsg{pos: pos, c: c, msg: "Double timezone specification"}
		if st.haveZone > 1 {
			st.errors = append(st.errors, m)
		} else {
			st.warnings = append(st.warnings, m)
		}
		st.haveZone++
		return false
	}
	st.haveZone++
	return true
}

// ttValidTime and ttValidDate are timelib_valid_time and timelib_valid_date.
func ttValidTime(h, i, s int64) bool {
	return h >= 0 && h <= 23 && i >= 0 && i <= 59 && s >= 0 && s <= 59
}

func ttValidDate(y, m, d int64) bool {
	if m < 1 || m > 12 || d < 1 {
		return false
	}
	leap := y%4 == 0 && (y%100 != 0 || y%400 == 0)
	days := []int64{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && leap {
		days = 29
	}
	return d <= days
}

// parseFreeDateString is TimeZoneDatabase::fromString without a format:
// timelib_strtotime, its errors and warnings in one message, the parts a
// date needs, the zone against the timezone argument, then
// timelib_update_ts (the weekday, the relative days and seconds, the zone).
func parseFreeDateString(orig string, loc *time.Location) (int64, error) {
	// timelib_strtotime trims spaces, and counts positions from there.
	s := strings.TrimFunc(orig, func(r rune) bool { return r < 0x80 && isCSpace(byte(r)) })
	if s == "" && orig != "" {
		s = orig[len(orig)-1:]
	}
	st := &strtotime{}
	if orig == "" {
		st.errors = []ttMsg{{msg: "Empty string"}}
	} else {
		st = scanDateString(s)
		if st.unsupported {
			return 0, stUnsupported(orig)
		}
		end := len(s) + 1
		if st.haveTime > 0 && !ttValidTime(st.h, st.i, st.s) {
			st.warnings = append(st.warnings, ttMsg{pos: end, msg: "The parsed time was invalid"})
		}
		if st.haveDate > 0 && !ttValidDate(st.y, st.m, st.d) {
			st.warnings = append(st.warnings, ttMsg{pos: end, msg: "The parsed date was invalid"})
		}
	}
	if len(st.errors)+len(st.warnings) > 0 {
		var sb strings.Builder
		fmt.Fprintf(&sb, "Error parsing date string '%s'", orig)
		for _, e := range st.errors {
			msg := e.msg
			if e.tzErr {
				msg = "passing a time zone identifier as part of the string is not allowed"
			}
			fmt.Fprintf(&sb, "; %d: %s '%c'", e.pos, msg, e.c)
		}
		for _, w := range st.warnings {
			fmt.Fprintf(&sb, "; %d: %s '%c'", w.pos, w.msg, w.c)
		}
		return 0, mongoerr.New(mongoerr.ConversionFailure, sb.String())
	}
	if st.h == ttUnset && st.i == ttUnset && st.s == ttUnset {
		st.h, st.i, st.s, st.us = 0, 0, 0, 0
	}
	for _, v := range []int64{st.y, st.m, st.d, st.h, st.i, st.s} {
		if v == ttUnset {
			return 0, mongoerr.Newf(mongoerr.ConversionFailure, "an incomplete date/time string has been found, with elements missing: \"%s\"", orig)
		}
	}
	if st.zone != nil && loc != time.UTC {
		return 0, zoneConflict(st.zone)
	}
	// A time read without its fraction (gnunocolon) leaves the
	// microseconds unset, which mongod would add as they are.
	if st.us == ttUnset {
		return 0, stUnsupported(orig)
	}
	d := st.d
	if st.haveWeekday {
		// do_adjust_for_weekday, weekday_behavior 1: the named day on or
		// after the date.
		dow := int64(time.Date(int(st.y), time.Month(st.m), int(st.d), 0, 0, 0, 0, time.UTC).Weekday())
		diff := st.weekday - dow
		if (st.relD < 0 && diff < 0) || (st.relD >= 0 && diff <= -1) {
			diff += 7
		}
		d += diff
	}
	d += st.relD
	var sec int64
	if st.zone != nil || loc == time.UTC {
		days := daysFromCivil(int(st.y), int(st.m), 1) + d - 1
		sec = days*86400 + st.h*3600 + st.i*60 + st.s
		if st.zone != nil {
			sec -= int64(st.zone.offset)
		}
		if addOverflows(sec, st.relS) {
			return 0, stUnsupported(orig)
		}
		sec += st.relS
	} else {
		sec = wallTime(int(st.y), time.Month(st.m), int(d), int(st.h), int(st.i), int(st.s), 0, loc).Unix()
	}
	// Seconds(sse) + Microseconds(us), counted in whole milliseconds.
	micros, over := mulOverflows(sec, 1_000_000)
	if over || addOverflows(micros, st.us) {
		return 0, stUnsupported(orig)
	}
	return (micros + st.us) / 1000, nil
}
