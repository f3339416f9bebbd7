package expr

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// dateOf converts a date-like value (date, timestamp, ObjectId) to
// milliseconds since the epoch, as Value::coerceToDate.
func dateOf(v any) (int64, error) {
	switch x := v.(type) {
	case bson.DateTime:
		return int64(x), nil
	case bson.Timestamp:
		return int64(x.T) * 1000, nil
	case bson.ObjectID:
		return x.Timestamp().Unix() * 1000, nil
	}
	return 0, mongoerr.Newf(mongoerr.ErrCoerceToDateFailed, "can't convert from BSON type %s to Date", typeName(v))
}

func timeOf(ms int64, loc *time.Location) time.Time {
	return time.UnixMilli(ms).In(loc)
}

// wallTime is the instant a wall-clock time in loc names, as timelib's
// do_adjust_timezone (tm2unixtime.c) resolves it for createFromDateParts,
// dateFromString and dateAdd: with the offset in force at the wall time
// read as a UTC instant, unless the offset at the instant that gives
// differs and the wall time is not in that offset's transition. A wall time
// a forward transition skips thus takes the offset from before it (02:30 on
// the day New York skips from 02:00 to 03:00 is 07:30Z, 03:30 EDT), where
// time.Date may take the one after (06:30Z).
func wallTime(y int, mo time.Month, d, h, mi, s, ns int, loc *time.Location) time.Time {
	wall := time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	sse := wall.Unix()
	_, before := time.Unix(sse, 0).In(loc).Zone()
	afterAt := time.Unix(sse-int64(before), 0).In(loc)
	_, after := afterAt.Zone()
	offset := before
	if after != before {
		transition, _ := afterAt.ZoneBounds()
		local := sse - int64(after)
		inTransition := !transition.IsZero() && local >= transition.Unix()+int64(before-after) && local < transition.Unix()
		if !inTransition {
			offset = after
		}
	}
	return time.Unix(sse-int64(offset), int64(wall.Nanosecond())).In(loc)
}

// ParseTimezone resolves an Olson identifier or a UTC offset ("+05:30",
// "-0800", "+03"): TimeZoneDatabase::getTimeZone, whose parseUtcOffset
// takes exactly ±HH, ±HHMM and ±HH:MM.
func ParseTimezone(s string) (*time.Location, error) {
	bad := mongoerr.Newf(mongoerr.ErrUnknownTimeZone, "unrecognized time zone identifier: \"%s\"", s)
	if s == "" {
		return nil, bad
	}
	if s[0] == '+' || s[0] == '-' {
		var digits string
		switch {
		case len(s) == 3, len(s) == 5:
			digits = s[1:]
		case len(s) == 6 && s[3] == ':':
			digits = s[1:3] + s[4:]
		default:
			return nil, bad
		}
		for i := 0; i < len(digits); i++ {
			if digits[i] < '0' || digits[i] > '9' {
				return nil, bad
			}
		}
		h, _ := strconv.Atoi(digits[:2])
		m := 0
		if len(digits) == 4 {
			m, _ = strconv.Atoi(digits[2:])
		}
		off := h*3600 + m*60
		if off == 0 {
			// TimeZone(Seconds(0)) is mongod's UTC zone itself
			// (isUtcZone), unlike the identifier "GMT".
			return time.UTC, nil
		}
		if s[0] == '-' {
			off = -off
		}
		return time.FixedZone(s, off), nil
	}
	if s == "UTC" {
		return time.UTC, nil
	}
	if strings.ContainsAny(s, " .") || strings.HasPrefix(s, "/") {
		return nil, bad
	}
	loc, err := time.LoadLocation(s)
	if err != nil || s == "Local" {
		return nil, bad
	}
	return loc, nil
}

// tzExpr evaluates an optional timezone argument; ok is false when the
// timezone is null (the operator then returns null).
type tzExpr struct {
	e     Expr
	fixed *time.Location
	// last caches the most recent non-constant zone, since loading a
	// location reads the tz database and documents usually share a zone.
	last atomic.Pointer[namedLoc]
}

type namedLoc struct {
	name string
	loc  *time.Location
}

// dateTruncBinSize is convertDateTruncBinSizeValue.
func dateTruncBinSize(v any) (int64, error) {
	if !value.Integral64Bit(v) {
		return 0, mongoerr.Newf(mongoerr.ErrDateTruncBinSizeNotInt, "$dateTrunc requires 'binSize' to be a 64-bit integer, but got value '%s' of type %s", formatValue(v), typeName(v))
	}
	n, _ := value.CoerceToLong(v)
	if n <= 0 {
		return 0, mongoerr.Newf(mongoerr.ErrDateTruncBinSizeNotPositive, "$dateTrunc requires 'binSize' to be greater than 0, but got value %d", n)
	}
	return n, nil
}

// checkConstantArg is how the date operators' optimize() reads an
// argument that is a constant, once for all documents: a null one reports
// null (the operator then becomes null, except where noted), anything else
// must pass check, and its error fails the pipeline's optimization.
func checkConstantArg(scope *Scope, e Expr, check func(any) error) (null bool, err error) {
	v, ok := IsConstant(e)
	if !ok {
		return false, nil
	}
	if nullish(v) {
		return true, nil
	}
	return false, scope.optimizationError(check(v))
}

// foldsWhole reports whether an operator's optimize() turns it into its
// value because all its arguments (nil for an absent one) are constants
// (ExpressionConstant::allNullOrConstant): it then evaluates the operator
// instead of reading the arguments one by one, so its null arguments win
// over a bad one that evaluation reads later.
func foldsWhole(scope *Scope, args ...Expr) bool {
	if !scope.fold {
		return false
	}
	for _, a := range args {
		if _, ok := IsConstant(a); a != nil && !ok {
			return false
		}
	}
	return true
}

// newTZ prepares a timezone argument, as makeTimeZone reads it. Unless the
// whole operator folds, a constant one is read now, as the operators'
// optimize() does, so a bad one fails the pipeline's optimization, with
// the operator's context when it adds one; null reports null.
func newTZ(scope *Scope, e Expr, context string, whole bool) (tz *tzExpr, null bool, err error) {
	tz = &tzExpr{e: e}
	if e == nil {
		tz.fixed = time.UTC
		return tz, false, nil
	}
	c, ok := e.(constant)
	if !ok || whole {
		return tz, false, nil
	}
	if nullish(c.v) {
		return tz, true, nil
	}
	loc, err := tzOf(c.v)
	if err != nil {
		if context != "" {
			err = withContext(err, context)
		}
		return nil, false, scope.optimizationError(err)
	}
	tz.fixed = loc
	return tz, false, nil
}

// tzOf is makeTimeZone's reading of a timezone that is not null.
func tzOf(v any) (*time.Location, error) {
	s, ok := v.(string)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrTimeZoneNotString, "timezone must evaluate to a string, found %s", typeName(v))
	}
	return ParseTimezone(s)
}

// foldNow is an optimize() whose arguments are all constants: the
// operator becomes its value, and its error fails the optimization.
func foldNow(scope *Scope, x Expr) (Expr, error) {
	v, err := x.Eval(NewEnv(bson.D{}, 0))
	if err != nil {
		return nil, scope.optimizationError(err)
	}
	return constant{v}, nil
}

// folded is x, or its value when the whole operator folds.
func folded(scope *Scope, whole bool, x Expr) (Expr, error) {
	if whole {
		return foldNow(scope, x)
	}
	return x, nil
}

// nullOr is the end of an optimize() that met a null constant argument:
// the operator becomes null, unless an argument read before it failed.
func nullOr(err error) (Expr, error) {
	if err != nil {
		return nil, err
	}
	return constant{nil}, nil
}

func (t *tzExpr) eval(env *Env) (*time.Location, bool, error) {
	if t.fixed != nil {
		return t.fixed, true, nil
	}
	v, err := t.e.Eval(env)
	if err != nil {
		return nil, false, err
	}
	if nullish(v) {
		return nil, false, nil
	}
	if s, ok := v.(string); ok {
		if l := t.last.Load(); l != nil && l.name == s {
			return l.loc, true, nil
		}
	}
	loc, err := tzOf(v)
	if err != nil {
		return nil, false, err
	}
	t.last.Store(&namedLoc{v.(string), loc})
	return loc, true, nil
}

// compileDatePart builds $year, $month, ... accepting a date, [date] or
// {date, timezone}.
func compileDatePart(name string, arg any, scope *Scope) (Expr, error) {
	var dateSpec, tzSpec any
	haveTZ := false
	switch a := arg.(type) {
	case bson.D:
		if len(a) > 0 && strings.HasPrefix(a[0].Key, "$") {
			dateSpec = a
			break
		}
		haveDate := false
		for _, e := range a {
			switch e.Key {
			case "date":
				dateSpec, haveDate = e.Value, true
			case "timezone":
				tzSpec, haveTZ = e.Value, true
			default:
				return nil, mongoerr.Newf(mongoerr.ErrDateOperatorUnknownOption, "unrecognized option to %s: \"%s\"", name, e.Key)
			}
		}
		if !haveDate {
			return nil, mongoerr.Newf(mongoerr.ErrDateOperatorMissingDate, "missing 'date' argument to %s, provided: %s: %s", name, name, FormatValue(a))
		}
	case bson.A:
		if len(a) != 1 {
			return nil, mongoerr.Newf(mongoerr.ErrDateOperatorArrayLength, "%s accepts exactly one argument if given an array, but was given %d", name, len(a))
		}
		dateSpec = a[0]
	default:
		dateSpec = arg
	}
	date, err := Compile(dateSpec, scope)
	if err != nil {
		return nil, err
	}
	var tzE Expr
	if haveTZ {
		if tzE, err = Compile(tzSpec, scope); err != nil {
			return nil, err
		}
	}
	// A null constant timezone is no shortcut here: the date is read and
	// converted first (DateExpressionAcceptingTimeZone::optimize).
	whole := foldsWhole(scope, date, tzE)
	tz, _, err := newTZ(scope, tzE, "", whole)
	if err != nil {
		return nil, err
	}
	part := datePartFunc(name)
	// mongod's TimeZone::isoYear returns a long long where every other
	// part is an int, so $isoWeekYear alone answers a long.
	isLong := name == "$isoWeekYear"
	return folded(scope, whole, evalFunc(func(env *Env) (any, error) {
		v, err := date.Eval(env)
		if err != nil {
			return nil, err
		}
		if nullish(v) {
			return nil, nil
		}
		ms, err := dateOf(v)
		if err != nil {
			return nil, err
		}
		loc, ok, err := tz.eval(env)
		if err != nil || !ok {
			return nil, err
		}
		n := part(timeOf(ms, loc))
		if isLong {
			return int64(n), nil
		}
		return int32(n), nil
	}))
}

func datePartFunc(name string) func(t time.Time) int {
	switch name {
	case "$year":
		return func(t time.Time) int { return t.Year() }
	case "$month":
		return func(t time.Time) int { return int(t.Month()) }
	case "$dayOfMonth":
		return func(t time.Time) int { return t.Day() }
	case "$dayOfWeek":
		return func(t time.Time) int { return int(t.Weekday()) + 1 }
	case "$dayOfYear":
		return func(t time.Time) int { return t.YearDay() }
	case "$hour":
		return func(t time.Time) int { return t.Hour() }
	case "$minute":
		return func(t time.Time) int { return t.Minute() }
	case "$second":
		return func(t time.Time) int { return t.Second() }
	case "$millisecond":
		return func(t time.Time) int { return t.Nanosecond() / 1e6 }
	case "$week":
		return sundayWeek
	case "$isoWeek":
		return func(t time.Time) int { _, w := t.ISOWeek(); return w }
	case "$isoWeekYear":
		return func(t time.Time) int { y, _ := t.ISOWeek(); return y }
	case "$isoDayOfWeek":
		return isoDayOfWeek
	}
	return func(time.Time) int { return 0 }
}

// sundayWeek is strftime's %U: weeks start on Sunday, days before the
// year's first Sunday are week 0.
func sundayWeek(t time.Time) int { return (t.YearDay() - 1 + 7 - int(t.Weekday())) / 7 }

func isoDayOfWeek(t time.Time) int {
	if t.Weekday() == time.Sunday {
		return 7
	}
	return int(t.Weekday())
}

const defaultDateFormat = "%Y-%m-%dT%H:%M:%S.%LZ"

// validateDateFormat checks a $dateToString format string.
func validateDateFormat(f string) error {
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		if i+1 >= len(f) {
			return mongoerr.New(mongoerr.ErrDateFormatUnmatchedPercent, "Unmatched '%' at end of format string")
		}
		i++
		if !strings.ContainsRune("bBdGHjLmMSuUVwYzZ%", rune(f[i])) {
			return mongoerr.Newf(mongoerr.ErrDateFormatInvalidCharacter, "Invalid format character '%%%c' in format string", f[i])
		}
	}
	return nil
}

// FormatDate applies $dateToString's format specifiers.
func FormatDate(ms int64, format string, loc *time.Location) (string, error) {
	t := timeOf(ms, loc)
	var sb strings.Builder
	var rangeErr error
	pad := func(n, w int) {
		if n < 0 || n > 9999 {
			rangeErr = mongoerr.Newf(mongoerr.ErrDateFormatYearOutOfRange, "Could not convert date to string: date component was outside the supported range of 0-9999: %d", n)
			return
		}
		s := strconv.Itoa(n)
		for i := len(s); i < w; i++ {
			sb.WriteByte('0')
		}
		sb.WriteString(s)
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch format[i] {
		case 'Y':
			pad(t.Year(), 4)
		case 'G':
			y, _ := t.ISOWeek()
			pad(y, 4)
		case 'b':
			sb.WriteString(t.Month().String()[:3])
		case 'B':
			sb.WriteString(t.Month().String())
		case 'm':
			pad(int(t.Month()), 2)
		case 'd':
			pad(t.Day(), 2)
		case 'H':
			pad(t.Hour(), 2)
		case 'M':
			pad(t.Minute(), 2)
		case 'S':
			pad(t.Second(), 2)
		case 'L':
			pad(t.Nanosecond()/1e6, 3)
		case 'j':
			pad(t.YearDay(), 3)
		case 'w':
			pad(int(t.Weekday())+1, 1)
		case 'u':
			pad(isoDayOfWeek(t), 1)
		case 'U':
			pad(sundayWeek(t), 2)
		case 'V':
			_, w := t.ISOWeek()
			pad(w, 2)
		case 'z':
			_, off := t.Zone()
			if off < 0 {
				sb.WriteByte('-')
				off = -off
			} else {
				sb.WriteByte('+')
			}
			pad(off/3600, 2)
			pad(off%3600/60, 2)
		case 'Z':
			_, off := t.Zone()
			sb.WriteString(strconv.Itoa(off / 60))
		case '%':
			sb.WriteByte('%')
		default:
			return "", mongoerr.Newf(mongoerr.ErrDateFormatInvalidCharacter, "Invalid format character '%%%c' in format string", format[i])
		}
		if rangeErr != nil {
			return "", rangeErr
		}
	}
	// At most a few times the format's length, which the message bounds.
	if err := checkStringSize(sb.Len()); err != nil {
		return "", err
	}
	return sb.String(), nil
}

func compileDateToString(name string, arg any, scope *Scope) (Expr, error) {
	m, err := namedArgs(arg, scope, argSpec{
		names:     []string{"date", "format", "timezone", "onNull"},
		notObject: fixedError(mongoerr.ErrDateToStringArgumentNotObject, "$dateToString only supports an object as its argument"),
		unknown: func(f string) error {
			return mongoerr.Newf(mongoerr.ErrDateToStringUnknownArgument, "Unrecognized argument to $dateToString: %s", f)
		},
	})
	if err != nil {
		return nil, err
	}
	date, format, tzE, onNull := m["date"], m["format"], m["timezone"], m["onNull"]
	if date == nil {
		return nil, mongoerr.New(mongoerr.ErrDateToStringMissingDate, "Missing 'date' parameter to $dateToString")
	}
	whole := foldsWhole(scope, date, format, tzE, onNull)
	tz, _, err := newTZ(scope, tzE, "", whole)
	if err != nil {
		return nil, err
	}
	return folded(scope, whole, evalFunc(func(env *Env) (any, error) {
		v, err := date.Eval(env)
		if err != nil {
			return nil, err
		}
		var fv any = value.Missing{}
		if format != nil {
			if fv, err = format.Eval(env); err != nil {
				return nil, err
			}
			if !nullish(fv) {
				s, ok := fv.(string)
				if !ok {
					return nil, mongoerr.Newf(mongoerr.ErrDateToStringFormatNotString, "$dateToString requires that 'format' be a string, found: %s with value %s", typeName(fv), formatValue(fv))
				}
				if err := validateDateFormat(s); err != nil {
					return nil, err
				}
			}
		}
		loc, ok, err := tz.eval(env)
		if err != nil {
			return nil, err
		}
		if nullish(v) {
			if onNull != nil {
				return onNull.Eval(env)
			}
			return nil, nil
		}
		if !ok {
			return nil, nil
		}
		f := defaultDateFormat
		if format != nil {
			if nullish(fv) {
				return nil, nil
			}
			f = fv.(string)
		} else if loc != time.UTC {
			// Outside UTC the default format has no 'Z'.
			f = "%Y-%m-%dT%H:%M:%S.%L"
		}
		ms, err := dateOf(v)
		if err != nil {
			return nil, err
		}
		return FormatDate(ms, f, loc)
	}))
}

func compileDateToParts(name string, arg any, scope *Scope) (Expr, error) {
	m, err := namedArgs(arg, scope, argSpec{
		names:     []string{"date", "timezone", "iso8601"},
		notObject: fixedError(mongoerr.ErrDateToPartsArgumentNotObject, "$dateToParts only supports an object as its argument"),
		unknown: func(f string) error {
			return mongoerr.Newf(mongoerr.ErrDateToPartsUnknownArgument, "Unrecognized argument to $dateToParts: %s", f)
		},
	})
	if err != nil {
		return nil, err
	}
	date, tzE, iso := m["date"], m["timezone"], m["iso8601"]
	if date == nil {
		return nil, mongoerr.New(mongoerr.ErrDateToPartsMissingDate, "Missing 'date' parameter to $dateToParts")
	}
	whole := foldsWhole(scope, date, tzE, iso)
	tz, null, err := newTZ(scope, tzE, "", whole)
	if err != nil || null {
		return nullOr(err)
	}
	return folded(scope, whole, evalFunc(func(env *Env) (any, error) {
		v, err := date.Eval(env)
		if err != nil {
			return nil, err
		}
		loc, ok, err := tz.eval(env)
		if err != nil || !ok {
			return nil, err
		}
		useISO := false
		if iso != nil {
			iv, err := iso.Eval(env)
			if err != nil {
				return nil, err
			}
			if nullish(iv) {
				return nil, nil
			}
			b, ok := iv.(bool)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrDateToPartsIso8601NotBool, "iso8601 must evaluate to a bool, found %s", typeName(iv))
			}
			useISO = b
		}
		if nullish(v) {
			return nil, nil
		}
		ms, err := dateOf(v)
		if err != nil {
			return nil, err
		}
		t := timeOf(ms, loc)
		tail := bson.D{
			{Key: "hour", Value: int32(t.Hour())},
			{Key: "minute", Value: int32(t.Minute())},
			{Key: "second", Value: int32(t.Second())},
			{Key: "millisecond", Value: int32(t.Nanosecond() / 1e6)},
		}
		if useISO {
			y, w := t.ISOWeek()
			return append(bson.D{
				{Key: "isoWeekYear", Value: int32(y)},
				{Key: "isoWeek", Value: int32(w)},
				{Key: "isoDayOfWeek", Value: int32(isoDayOfWeek(t))},
			}, tail...), nil
		}
		return append(bson.D{
			{Key: "year", Value: int32(t.Year())},
			{Key: "month", Value: int32(t.Month())},
			{Key: "day", Value: int32(t.Day())},
		}, tail...), nil
	}))
}

func compileDateFromParts(name string, arg any, scope *Scope) (Expr, error) {
	fields := []string{"year", "month", "day", "hour", "minute", "second", "millisecond", "isoWeekYear", "isoWeek", "isoDayOfWeek", "timezone"}
	exprs, err := namedArgs(arg, scope, argSpec{
		names:     fields,
		notObject: fixedError(mongoerr.ErrDateFromPartsArgumentNotObject, "$dateFromParts only supports an object as its argument"),
		unknown: func(f string) error {
			return mongoerr.Newf(mongoerr.ErrDateFromPartsUnknownArgument, "Unrecognized argument to $dateFromParts: %s", f)
		},
	})
	if err != nil {
		return nil, err
	}
	_, hasYear := exprs["year"]
	_, hasISOYear := exprs["isoWeekYear"]
	if !hasYear && !hasISOYear {
		return nil, mongoerr.New(mongoerr.ErrDateFromPartsNoYear, "$dateFromParts requires either 'year' or 'isoWeekYear' to be present")
	}
	if hasYear && (exprs["isoWeekYear"] != nil || exprs["isoWeek"] != nil || exprs["isoDayOfWeek"] != nil) {
		return nil, mongoerr.New(mongoerr.ErrDateFromPartsNaturalWithIso, "$dateFromParts does not allow mixing natural dates with ISO dates")
	}
	if hasISOYear && (exprs["year"] != nil || exprs["month"] != nil || exprs["day"] != nil) {
		return nil, mongoerr.New(mongoerr.ErrDateFromPartsIsoWithNatural, "$dateFromParts does not allow mixing ISO dates with natural dates")
	}
	all := make([]Expr, 0, len(exprs))
	for _, e := range exprs {
		all = append(all, e)
	}
	whole := foldsWhole(scope, all...)
	tz, null, err := newTZ(scope, exprs["timezone"], "", whole)
	if err != nil || null {
		return nullOr(err)
	}
	// Each part is read as evaluateNumberWithDefault(AndBounds) reads it,
	// in ExpressionDateFromParts::evaluate's order: the time of day, then
	// the timezone, then the date's parts, and only then the year's range.
	// A null part or timezone makes the result null.
	part := func(env *Env, f string, def int64, bounded bool) (n int64, null bool, err error) {
		e := exprs[f]
		if e == nil {
			return def, false, nil
		}
		v, err := e.Eval(env)
		if err != nil || nullish(v) {
			return 0, err == nil, err
		}
		if !value.Integral64Bit(v) {
			return 0, false, mongoerr.Newf(mongoerr.ErrDateFromPartsPartNotInt, "'%s' must evaluate to an integer, found %s with value %s", f, typeName(v), formatValue(v))
		}
		n, _ = value.CoerceToLong(v)
		if bounded && (n < -32768 || n > 32767) {
			return 0, false, mongoerr.Newf(mongoerr.ErrDateFromPartsPartOutOfRange, "'%s' must evaluate to a value in the range [-32768, 32767]; value %d is not in range", f, n)
		}
		return n, false, nil
	}
	parts := func(env *Env, vals map[string]int, fs ...string) (null bool, err error) {
		for _, f := range fs {
			def, bounded := int64(0), true
			switch f {
			case "month", "day", "isoWeek", "isoDayOfWeek":
				def = 1
			case "year", "isoWeekYear":
				def, bounded = 1970, false
			case "second", "millisecond":
				bounded = false
			}
			n, null, err := part(env, f, def, bounded)
			if err != nil || null {
				return null, err
			}
			vals[f] = int(n)
		}
		return false, nil
	}
	return folded(scope, whole, evalFunc(func(env *Env) (any, error) {
		vals := map[string]int{}
		if null, err := parts(env, vals, "hour", "minute", "second", "millisecond"); err != nil || null {
			return nil, err
		}
		loc, ok, err := tz.eval(env)
		if err != nil || !ok {
			return nil, err
		}
		if hasISOYear {
			if null, err := parts(env, vals, "isoWeekYear", "isoWeek", "isoDayOfWeek"); err != nil || null {
				return nil, err
			}
			if n := vals["isoWeekYear"]; n < 1 || n > 9999 {
				return nil, mongoerr.Newf(mongoerr.ErrDateFromPartsIsoWeekYearOutOfRange, "'isoWeekYear' must evaluate to an integer in the range 1 to 9999, found %d", n)
			}
		} else {
			if null, err := parts(env, vals, "year", "month", "day"); err != nil || null {
				return nil, err
			}
			if n := vals["year"]; n < 1 || n > 9999 {
				return nil, mongoerr.Newf(mongoerr.ErrDateFromPartsYearOutOfRange, "'year' must evaluate to an integer in the range 1 to 9999, found %d", n)
			}
		}
		var days int64
		if hasISOYear {
			// ISO week 1 contains January 4th.
			jan4 := time.Date(vals["isoWeekYear"], 1, 4, 0, 0, 0, 0, time.UTC)
			days = daysFromCivil(vals["isoWeekYear"], 1, 4) - int64(isoDayOfWeek(jan4)-1) + int64((vals["isoWeek"]-1)*7+vals["isoDayOfWeek"]-1)
		} else {
			months := int64(vals["year"])*12 + int64(vals["month"]) - 1
			y := floorDiv(months, 12)
			days = daysFromCivil(int(y), int(months-y*12)+1, 1) + int64(vals["day"]) - 1
		}
		ms, err := datePartsMillis(days, int64(vals["hour"]), int64(vals["minute"]), int64(vals["second"]), int64(vals["millisecond"]), loc)
		if err != nil {
			return nil, err
		}
		return bson.DateTime(ms), nil
	}))
}

// datePartsMillis is the end of TimeZone::createFromDateParts
// (date_time_support.cpp): the milliseconds become microseconds, timelib
// normalizes every part as local time (seconds and microseconds as much
// as days) and applies the zone there, and the result is
// Seconds(sse) + Microseconds(us) in milliseconds. Each widening that
// overflows a long is mongo's Duration cast error, 159.
func datePartsMillis(days, h, mi, sec, ms int64, loc *time.Location) (int64, error) {
	overflow := mongoerr.New(mongoerr.DurationOverflow, "Overflow casting from a lower-precision duration to a higher-precision duration")
	us, over := mulOverflows(ms, 1000)
	if over {
		return 0, overflow
	}
	sec, us = sec+floorDiv(us, 1_000_000), us-floorDiv(us, 1_000_000)*1_000_000
	local := days*86400 + h*3600 + mi*60
	if addOverflows(local, sec) {
		return 0, overflow
	}
	local += sec
	// Past 2^63 microseconds, less than a day's offset cannot save it;
	// the bound keeps the civil date within what time.Date can hold.
	const limit = math.MaxInt64/1_000_000 + 2*86400
	if local > limit || local < -limit {
		return 0, overflow
	}
	d := floorDiv(local, 86400)
	rem := int(local - d*86400)
	y, m, dd := civilFromDays(d)
	sse := wallTime(y, time.Month(m), dd, rem/3600, rem%3600/60, rem%60, 0, loc).Unix()
	micros, over := mulOverflows(sse, 1_000_000)
	if over || addOverflows(micros, us) {
		return 0, overflow
	}
	return (micros + us) / 1000, nil
}

// parseDateString parses like $dateFromString; loc is the timezone
// argument (nil for UTC).
func parseDateString(s, format string, loc *time.Location) (bson.DateTime, error) {
	if loc == nil {
		loc = time.UTC
	}
	if format != "" {
		return parseDateWithFormat(s, format, loc)
	}
	ms, err := parseFreeDateString(s, loc)
	return bson.DateTime(ms), err
}

func zoneConflict(zone *stringZone) error {
	if zone.abbr == "" {
		return mongoerr.New(mongoerr.ConversionFailure, "you cannot pass in a date/time string with GMT offset together with a timezone argument")
	}
	return mongoerr.Newf(mongoerr.ConversionFailure, "you cannot pass in a date/time string with time zone information ('%s') together with a timezone argument", zone.abbr)
}

// readZone is timelib_parse_zone for a format's %z: spaces, then an
// offset, "GMT" and an offset, or an abbreviation. It returns the zone
// and how many bytes it read, or what timelib reports when it finds no zone.
func readZone(s string) (*stringZone, int, string) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '(') {
		i++
	}
	if strings.HasPrefix(s[i:], "GMT") && i+3 < len(s) && (s[i+3] == '+' || s[i+3] == '-') {
		i += 3
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		j := i + 1
		for j < len(s) && (isASCIIDigit(s[j]) || s[j] == ':') {
			j++
		}
		off, ok := parseZoneOffset(s[i+1 : j])
		if !ok {
			return nil, 0, tzNotFound
		}
		if s[i] == '-' {
			off = -off
		}
		return &stringZone{offset: off}, j, ""
	}
	j := i
	for j < len(s) && (isASCIILetter(s[j]) || s[j] == '/' || s[j] == '_') {
		j++
	}
	word := s[i:j]
	off, ok := zoneAbbreviation(word)
	if !ok {
		return nil, 0, tzNotFound
	}
	return &stringZone{offset: off, abbr: strings.ToUpper(word)}, j, ""
}

// tzNotFound is how TimeZoneDatabase::fromString words timelib's
// TIMELIB_ERR_TZID_NOT_FOUND ("The timezone could not be found in the
// database"), which timelib reports for an unknown abbreviation and a bad
// offset as well as for an identifier, which mongod never lets it look up.
const tzNotFound = "passing a time zone identifier as part of the string is not allowed"

// stringZone is the zone a date string ends with, as timelib_parse_zone
// reads it: an offset (zone_type 1: "+03:30", "GMT+02") or an
// abbreviation (zone_type 2: "CEST", "Z", a military letter).
type stringZone struct {
	offset int    // seconds east of UTC
	abbr   string // upper case; "" for an offset
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isASCIIDigit(c byte) bool { return c >= '0' && c <= '9' }

// parseZoneOffset is timelib_parse_tz_cor: H, HH, H:MM, HH:M, HHMM or
// HH:MM, in seconds.
func parseZoneOffset(d string) (int, bool) {
	hm := func(h, m string) (int, bool) {
		hh, err1 := strconv.Atoi(h)
		mm, err2 := strconv.Atoi(m)
		return hh*3600 + mm*60, err1 == nil && err2 == nil
	}
	switch {
	case len(d) <= 2:
		return hm(d, "0")
	case len(d) <= 4 && d[1] == ':':
		return hm(d[:1], d[2:])
	case len(d) == 4 && d[2] == ':':
		return hm(d[:2], d[3:])
	case len(d) == 4:
		return hm(d[:2], d[2:])
	case len(d) == 5 && d[2] == ':':
		return hm(d[:2], d[3:])
	}
	return 0, false
}

// zoneAbbreviation is the offset, daylight saving included, timelib
// gives a zone abbreviation: the first entry of its abbreviation tables
// for the common ones, and the military letters (A to I are +1 to +9
// hours, K to M +10 to +12, N to Y -1 to -12, Z is UTC). An abbreviation
// missing here is an error rather than a silently wrong date.
func zoneAbbreviation(a string) (int, bool) {
	const h = 3600
	switch strings.ToLower(a) {
	case "utc", "gmt", "z", "wet":
		return 0, true
	case "bst", "cet", "west":
		return 1 * h, true
	case "cest", "eet":
		return 2 * h, true
	case "eest":
		return 3 * h, true
	case "est", "cdt":
		return -5 * h, true
	case "edt":
		return -4 * h, true
	case "cst", "mdt":
		return -6 * h, true
	case "mst", "pdt":
		return -7 * h, true
	case "pst":
		return -8 * h, true
	}
	if len(a) == 1 {
		c := a[0] | 0x20
		switch {
		case c >= 'a' && c <= 'i':
			return int(c-'a'+1) * h, true
		case c >= 'k' && c <= 'm':
			return int(c-'k'+10) * h, true
		case c >= 'n' && c <= 'y':
			return -int(c-'n'+1) * h, true
		}
	}
	return 0, false
}

// validateFromStringFormat is TimeZone::validateFromStringFormat: the
// specifiers kDateFromStringFormatMap knows (%b and %B since 6.1,
// SERVER-32863), and %%.
func validateFromStringFormat(f string) error {
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		if i+1 >= len(f) {
			return mongoerr.New(mongoerr.ErrDateFormatUnmatchedPercent, "Unmatched '%' at end of format string")
		}
		i++
		if !strings.ContainsRune("bBdGHLmMSuVYzZ%", rune(f[i])) {
			return mongoerr.Newf(mongoerr.ErrDateFormatInvalidCharacter, "Invalid format character '%%%c' in format string", f[i])
		}
	}
	return nil
}

// formatParse is timelib_parse_from_format_with_map under mongod's
// kDateFromStringFormatMap: it keeps going after an error and reports
// each with its position and the character there, as mongod prints them.
type formatParse struct {
	s        string
	problems []string
}

func (p *formatParse) fail(pos int, msg string) {
	c := byte(0)
	if pos < len(p.s) {
		c = p.s[pos]
	}
	p.problems = append(p.problems, fmt.Sprintf("; %d: %s '%c'", pos, msg, c))
}

// getNr is timelib_get_nr: it skips what is not a digit, then reads up to
// max digits; -1 when the string ends first.
func getNr(s string, pos *int, max int) (int, int) {
	for *pos < len(s) && !isASCIIDigit(s[*pos]) {
		*pos++
	}
	if *pos >= len(s) {
		return -1, 0
	}
	start := *pos
	for *pos < len(s) && *pos-start < max && isASCIIDigit(s[*pos]) {
		*pos++
	}
	n, _ := strconv.Atoi(s[start:*pos])
	return n, *pos - start
}

func parseDateWithFormat(s, format string, loc *time.Location) (bson.DateTime, error) {
	const unset = -1
	y, m, d, h, mi, sec, ms := unset, unset, unset, unset, unset, unset, unset
	isoYear, isoWeek, isoDay := unset, unset, unset
	var zone *stringZone
	p := &formatParse{s: s}
	pos, fpos := 0, 0
	for fpos < len(format) && pos < len(s) {
		begin := pos
		if format[fpos] != '%' || fpos+1 >= len(format) {
			// A literal is passed over whether or not it matches.
			if s[pos] != format[fpos] {
				p.fail(begin, "Format literal not found")
			}
			pos++
			fpos++
			continue
		}
		spec := format[fpos+1]
		fpos += 2
		number := func(max int, exact bool, msg string) int {
			if !isASCIIDigit(s[pos]) {
				p.fail(begin, "Unexpected data found.")
			}
			n, digits := getNr(s, &pos, max)
			if n == unset || exact && digits != max {
				p.fail(begin, msg)
				return unset
			}
			return n
		}
		inRange := func(n, lo, hi int, msg string) int {
			if n != unset && (n < lo || n > hi) {
				p.fail(begin, msg)
				return unset
			}
			return n
		}
		switch spec {
		case 'd':
			d = number(2, false, "A two digit day could not be found")
		case 'm':
			m = number(2, false, "A two digit month could not be found")
		case 'b', 'B':
			// TIMELIB_FORMAT_TEXTUAL_MONTH_3_LETTER and _FULL both read
			// timelib_lookup_month's word: any name, abbreviation or roman
			// numeral of a month.
			if n := ttMonth(s[pos:], new(int)); n != 0 {
				m = int(n)
				for pos < len(s) && isASCIILetter(s[pos]) {
					pos++
				}
			} else {
				for pos < len(s) && isASCIILetter(s[pos]) {
					pos++
				}
				p.fail(begin, "A textual month could not be found")
			}
		case 'Y':
			y = number(4, false, "A four digit year could not be found")
		case 'H':
			h = number(2, false, "A two digit hour could not be found")
		case 'M':
			mi = number(2, true, "A two digit minute could not be found")
		case 'S':
			sec = number(2, true, "A two digit second could not be found")
		case 'L':
			if !isASCIIDigit(s[pos]) {
				p.fail(begin, "Unexpected data found.")
			}
			n, digits := getNr(s, &pos, 3)
			if n == unset || digits < 1 {
				p.fail(begin, "A three digit millisecond could not be found")
				break
			}
			// "8" is 800ms and "81" 810ms: the digits are a fraction.
			for ; digits < 3; digits++ {
				n *= 10
			}
			ms = n
		case 'G':
			isoYear, _ = getNr(s, &pos, 4)
			if isoYear == unset {
				p.fail(begin, "A four digit ISO year could not be found")
			}
		case 'V':
			isoWeek, _ = getNr(s, &pos, 2)
			if isoWeek == unset {
				p.fail(begin, "A two digit ISO week could not be found")
			}
			isoWeek = inRange(isoWeek, 1, 53, "ISO Week must be between 1 and 53")
		case 'u':
			isoDay, _ = getNr(s, &pos, 1)
			if isoDay == unset {
				p.fail(begin, "A single digit day of week could not be found")
			}
			isoDay = inRange(isoDay, 1, 7, "Day of week must be between 1 and 7")
		case 'z':
			z, n, problem := readZone(s[pos:])
			if problem != "" {
				p.fail(begin, problem)
				pos = len(s)
				break
			}
			zone, pos = z, pos+n
		case 'Z':
			if s[pos] != '+' && s[pos] != '-' {
				p.fail(begin, "Invalid timezone offset in minutes")
				break
			}
			sign := 1
			if s[pos] == '-' {
				sign = -1
			}
			pos++
			start := pos
			for pos < len(s) && isASCIIDigit(s[pos]) {
				pos++
			}
			n, _ := strconv.Atoi(s[start:pos])
			zone = &stringZone{offset: sign * n * 60}
		case '%':
			if s[pos] == '%' {
				pos++
			} else {
				p.fail(begin, "Format literal not found")
			}
		}
	}
	if pos < len(s) {
		p.fail(pos, "Trailing data")
	}
	if fpos < len(format) {
		p.fail(pos, "Not enough data available to satisfy format")
	}
	if h != unset || mi != unset || sec != unset || ms != unset {
		h, mi, sec, ms = max(h, 0), max(mi, 0), max(sec, 0), max(ms, 0)
	}
	anyISO := isoYear != unset || isoWeek != unset || isoDay != unset
	if y != unset && anyISO {
		p.fail(pos, "Mixing of ISO dates with natural dates is not allowed")
	}
	if isoYear != unset && (y != unset || m != unset || d != unset) {
		p.fail(pos, "Mixing of ISO dates with natural dates is not allowed")
	}
	var warnings []string
	if isoYear != unset {
		week, day := max(isoWeek, 1), max(isoDay, 1)
		jan4 := time.Date(isoYear, 1, 4, 0, 0, 0, 0, time.UTC)
		t := jan4.AddDate(0, 0, -(isoDayOfWeek(jan4)-1)+(week-1)*7+day-1)
		y, m, d = t.Year(), int(t.Month()), t.Day()
	} else if anyISO {
		warnings = append(warnings, "The parsed date was invalid")
	}
	if h != unset && (h > 23 || mi > 59 || sec > 59) {
		warnings = append(warnings, "The parsed time was invalid")
	}
	if y != unset && m != unset && d != unset && (m < 1 || m > 12 || d < 1 || d > daysIn(y, m)) {
		warnings = append(warnings, "The parsed date was invalid")
	}
	for _, w := range warnings {
		p.fail(pos, w)
	}
	if len(p.problems) > 0 {
		return 0, mongoerr.Newf(mongoerr.ConversionFailure, "Error parsing date string '%s'%s", s, strings.Join(p.problems, ""))
	}
	if h == unset {
		h, mi, sec, ms = 0, 0, 0, 0
	}
	if y == unset || m == unset || d == unset {
		return 0, mongoerr.Newf(mongoerr.ConversionFailure, "an incomplete date/time string has been found, with elements missing: \"%s\"", s)
	}
	if zone != nil {
		if loc != time.UTC {
			return 0, zoneConflict(zone)
		}
		loc = time.FixedZone(zone.abbr, zone.offset)
	}
	return bson.DateTime(wallTime(y, time.Month(m), d, h, mi, sec, ms*int(time.Millisecond), loc).UnixMilli()), nil
}

func compileDateFromString(name string, arg any, scope *Scope) (Expr, error) {
	m, err := namedArgs(arg, scope, argSpec{
		names: []string{"dateString", "format", "timezone", "onNull", "onError"},
		notObject: func(arg any) error {
			return mongoerr.Newf(mongoerr.ErrDateFromStringArgumentNotObject, "$dateFromString only supports an object as an argument, found: %s", typeName(arg))
		},
		unknown: func(f string) error {
			return mongoerr.Newf(mongoerr.ErrDateFromStringUnknownArgument, "Unrecognized argument to $dateFromString: %s", f)
		},
	})
	if err != nil {
		return nil, err
	}
	ds, format, tzE, onNull, onError := m["dateString"], m["format"], m["timezone"], m["onNull"], m["onError"]
	if ds == nil {
		return nil, mongoerr.New(mongoerr.ErrDateFromStringMissingDateString, "Missing 'dateString' parameter to $dateFromString")
	}
	whole := foldsWhole(scope, ds, format, tzE, onNull, onError)
	tz, _, err := newTZ(scope, tzE, "", whole)
	if err != nil {
		return nil, err
	}
	// The order is ExpressionDateFromString's: the format is checked
	// first, then the timezone, then a null dateString gives onNull; only
	// what follows (the dateString's type, the parse) falls to onError.
	return folded(scope, whole, evalFunc(func(env *Env) (any, error) {
		f, formatNull := "", false
		if format != nil {
			fv, err := format.Eval(env)
			if err != nil {
				return nil, err
			}
			if nullish(fv) {
				formatNull = true
			} else {
				s, ok := fv.(string)
				if !ok {
					return nil, mongoerr.Newf(mongoerr.ErrDateFromStringFormatNotString, "$dateFromString requires that 'format' be a string, found: %s with value %s", typeName(fv), formatValue(fv))
				}
				if err := validateFromStringFormat(s); err != nil {
					return nil, err
				}
				f = s
			}
		}
		loc, tzOK, err := tz.eval(env)
		if err != nil {
			return nil, err
		}
		v, err := ds.Eval(env)
		if err != nil {
			return nil, err
		}
		if nullish(v) {
			if onNull != nil {
				return onNull.Eval(env)
			}
			return nil, nil
		}
		s, ok := v.(string)
		if !ok {
			if onError != nil {
				return onError.Eval(env)
			}
			return nil, mongoerr.Newf(mongoerr.ConversionFailure, "$dateFromString requires that 'dateString' be a string, found: %s with value %s", typeName(v), formatValue(v))
		}
		if !tzOK || formatNull {
			return nil, nil
		}
		var r bson.DateTime
		if format != nil {
			r, err = parseDateWithFormat(s, f, loc)
		} else {
			r, err = parseDateString(s, "", loc)
		}
		if err != nil {
			if onError != nil {
				return onError.Eval(env)
			}
			return nil, err
		}
		return r, nil
	}))
}

// timeUnit validates a unit name for $dateTrunc/$dateAdd/$dateDiff.
func timeUnit(op string, v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", mongoerr.Newf(mongoerr.ErrDateUnitNotString, "%s requires 'unit' to be a string, but got %s", op, typeName(v))
	}
	switch s {
	case "year", "quarter", "month", "week", "day", "hour", "minute", "second", "millisecond":
		return s, nil
	}
	return "", mongoerr.Newf(mongoerr.FailedToParse, "%s parameter 'unit' value parsing failed :: caused by :: unknown time unit value: %s", op, s)
}

func dayOfWeekArg(op string, v any) (time.Weekday, error) {
	s, ok := v.(string)
	if !ok {
		return 0, mongoerr.Newf(mongoerr.ErrStartOfWeekNotString, "%s requires 'startOfWeek' to be a string, but got %s", op, typeName(v))
	}
	names := map[string]time.Weekday{"sunday": 0, "sun": 0, "monday": 1, "mon": 1, "tuesday": 2, "tue": 2, "wednesday": 3, "wed": 3,
		"thursday": 4, "thu": 4, "friday": 5, "fri": 5, "saturday": 6, "sat": 6}
	w, ok := names[strings.ToLower(s)]
	if !ok {
		return 0, mongoerr.Newf(mongoerr.ErrStartOfWeekUnknown, "%s parameter 'startOfWeek' value cannot be recognized as a day of a week: %s", op, s)
	}
	return w, nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

var unitDurations = map[string]int64{"hour": 3600000, "minute": 60000, "second": 1000, "millisecond": 1}

// TruncateDate is $dateTrunc's binning (date_time_support.cpp's
// truncateDate), anchored at 2000-01-01T00:00 in the timezone, with its
// overflow checks.
func TruncateDate(ms int64, unit string, binSize int64, loc *time.Location, startOfWeek time.Weekday) (int64, error) {
	overflowed := func(code int32) error { return mongoerr.New(code, "dateTrunc overflowed") }
	ref := time.Date(2000, 1, 1, 0, 0, 0, 0, loc)
	if d, ok := unitDurations[unit]; ok {
		step, over := mulOverflows(d, binSize)
		if over {
			return 0, overflowed(mongoerr.ErrDateTruncBinSizeOverflow)
		}
		refMs := ref.UnixMilli()
		if (refMs < 0 && ms > math.MaxInt64+refMs) || (refMs > 0 && ms < math.MinInt64+refMs) {
			return 0, overflowed(mongoerr.ErrDateTruncShiftOverflow)
		}
		shifted := ms - refMs
		rem := shifted % step
		if rem < 0 {
			rem += step
		}
		return ms - rem, nil
	}
	if binSize > 100_000_000_000 {
		return 0, mongoerr.New(mongoerr.ErrDateTruncBinSizeUnsupported, "dateTrunc unsupported binSize value")
	}
	t := timeOf(ms, loc)
	switch unit {
	case "day", "week":
		days := daysFromCivil(t.Year(), int(t.Month()), t.Day()) - daysFromCivil(2000, 1, 1)
		refShift := int64(0)
		step := binSize
		if unit == "week" {
			step *= 7
			// The reference moves forward to the first startOfWeek day.
			refShift = int64((int(startOfWeek) - int(time.Saturday) + 7) % 7)
		}
		bin := floorDiv(days-refShift, step)*step + refShift
		y, m, dd := civilFromDays(bin + daysFromCivil(2000, 1, 1))
		return wallTime(y, time.Month(m), dd, 0, 0, 0, 0, loc).UnixMilli(), nil
	case "month", "quarter", "year":
		months := int64((t.Year()-2000)*12 + int(t.Month()) - 1)
		step := binSize
		switch unit {
		case "quarter":
			step *= 3
		case "year":
			step *= 12
		}
		bin := floorDiv(months, step) * step
		y := 2000 + int(floorDiv(bin, 12))
		m := int(bin - floorDiv(bin, 12)*12)
		return wallTime(y, time.Month(m+1), 1, 0, 0, 0, 0, loc).UnixMilli(), nil
	}
	return ms, nil
}

// daysFromCivil counts days since 1970-01-01 (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era*146097 + doe - 719468)
}

func civilFromDays(z int64) (int, int, int) {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era = (z - 146096) / 146097
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return int(y), int(m), int(d)
}

func compileDateTrunc(name string, arg any, scope *Scope) (Expr, error) {
	m, err := namedArgs(arg, scope, argSpec{
		names:     []string{"date", "unit", "binSize", "timezone", "startOfWeek"},
		notObject: fixedError(mongoerr.ErrDateTruncArgumentNotObject, "$dateTrunc only supports an object as its argument"),
		unknown: func(f string) error {
			return mongoerr.Newf(mongoerr.ErrDateTruncUnknownArgument, "Unrecognized argument to $dateTrunc: %s. Expected arguments are date, unit, and optionally, binSize, timezone, startOfWeek", f)
		},
	})
	if err != nil {
		return nil, err
	}
	if m["date"] == nil {
		return nil, mongoerr.New(mongoerr.ErrDateTruncMissingDate, "Missing 'date' parameter to $dateTrunc")
	}
	if m["unit"] == nil {
		return nil, mongoerr.New(mongoerr.ErrDateTruncMissingUnit, "Missing 'unit' parameter to $dateTrunc")
	}
	// ExpressionDateTrunc::optimize reads a constant unit, startOfWeek
	// (whatever the unit), timezone and binSize in this order; a null one
	// makes the operator null.
	whole := foldsWhole(scope, m["date"], m["unit"], m["binSize"], m["timezone"], m["startOfWeek"])
	if !whole {
		if null, err := checkUnitAndStartOfWeek(scope, name, m["unit"], m["startOfWeek"]); err != nil || null {
			return nullOr(err)
		}
	}
	tz, null, err := newTZ(scope, m["timezone"], "$dateTrunc parameter 'timezone' value parsing failed", whole)
	if err != nil || null {
		return nullOr(err)
	}
	if !whole {
		if null, err := checkConstantArg(scope, m["binSize"], func(v any) error { _, err := dateTruncBinSize(v); return err }); err != nil || null {
			return nullOr(err)
		}
	}
	return folded(scope, whole, evalFunc(func(env *Env) (any, error) {
		dv, err := m["date"].Eval(env)
		if err != nil || nullish(dv) {
			return nil, err
		}
		bin := int64(1)
		if m["binSize"] != nil {
			bv, err := m["binSize"].Eval(env)
			if err != nil || nullish(bv) {
				return nil, err
			}
			if bin, err = dateTruncBinSize(bv); err != nil {
				return nil, err
			}
		}
		uv, err := m["unit"].Eval(env)
		if err != nil || nullish(uv) {
			return nil, err
		}
		unit, err := timeUnit(name, uv)
		if err != nil {
			return nil, err
		}
		sow := time.Sunday
		if unit == "week" && m["startOfWeek"] != nil {
			sv, err := m["startOfWeek"].Eval(env)
			if err != nil || nullish(sv) {
				return nil, err
			}
			if sow, err = dayOfWeekArg(name, sv); err != nil {
				return nil, err
			}
		}
		loc, ok, err := tz.eval(env)
		if err != nil || !ok {
			return nil, withContext(err, "$dateTrunc parameter 'timezone' value parsing failed")
		}
		ms, err := dateOf(dv)
		if err != nil {
			return nil, mongoerr.Newf(mongoerr.ErrDateArgumentNotDate, "$dateTrunc requires 'date' to be a date, but got %s", typeName(dv))
		}
		r, err := TruncateDate(ms, unit, bin, loc, sow)
		if err != nil {
			return nil, err
		}
		return bson.DateTime(r), nil
	}))
}

// withContext prefixes an error's message as mongod's
// addContextToAssertionException does, keeping its code.
func withContext(err error, context string) error {
	if me, ok := err.(*mongoerr.Error); ok {
		return mongoerr.New(me.Code, context+" :: caused by :: "+me.Msg)
	}
	return err
}

// dateAddLimit is isDateAddAmountValid's bound on |amount| for a unit, an
// amount that roughly keeps the result in Date_t's range
// (src/mongo/db/query/datetime/date_time_support.cpp).
func dateAddLimit(unit string) int64 {
	const maxDays = int64(math.MaxUint64/86400000) + 1
	const maxYears = maxDays/365 + 1
	switch unit {
	case "year":
		return maxYears
	case "quarter":
		return maxYears * 4
	case "month":
		return maxYears * 12
	case "week":
		return maxDays / 7
	case "day":
		return maxDays
	case "hour":
		return maxDays * 24
	case "minute":
		return maxDays * 24 * 60
	}
	return maxDays * 24 * 60 * 60
}

// AddToDate is date_time_support.cpp's dateAdd: a millisecond amount adds
// as a duration (DurationOverflow past the long range); others must be
// within dateAddLimit (5976500) and add in the timezone's local time for
// a day or more, in UTC for shorter units, with the day of the month
// clamped to the end of the resulting month; a result whose seconds times
// 1000 overflows a long is 5166406.
func AddToDate(ms int64, unit string, amount int64, loc *time.Location) (int64, error) {
	if unit == "millisecond" {
		if addOverflows(ms, amount) {
			return 0, mongoerr.Newf(mongoerr.DurationOverflow, "Overflow while adding %dms to %dms", amount, ms)
		}
		return ms + amount, nil
	}
	if limit := dateAddLimit(unit); !(-limit < amount && amount < limit) {
		return 0, mongoerr.Newf(mongoerr.ErrDateAddAmountOutOfRange, "invalid dateAdd 'amount' parameter value: %d %s", amount, unit)
	}
	sec, milli := floorDiv(ms, 1000), ms-floorDiv(ms, 1000)*1000
	var resultSec int64
	if d, ok := unitDurations[unit]; ok {
		resultSec = sec + amount*(d/1000)
	} else {
		t := time.Unix(sec, 0).In(loc)
		switch unit {
		case "day", "week":
			days := amount
			if unit == "week" {
				days *= 7
			}
			resultSec = wallTime(t.Year(), t.Month(), t.Day()+int(days), t.Hour(), t.Minute(), t.Second(), 0, loc).Unix()
		default:
			months := amount
			switch unit {
			case "quarter":
				months *= 3
			case "year":
				months *= 12
			}
			total := int64(t.Year())*12 + int64(t.Month()) - 1 + months
			y, mo := int(floorDiv(total, 12)), int(total-floorDiv(total, 12)*12)+1
			day := t.Day()
			if last := daysIn(y, mo); day > last {
				day = last
			}
			resultSec = wallTime(y, time.Month(mo), day, t.Hour(), t.Minute(), t.Second(), 0, loc).Unix()
		}
	}
	r, over := mulOverflows(resultSec, 1000)
	if over || addOverflows(r, milli) {
		return 0, mongoerr.New(mongoerr.ErrDateAddOverflow, "dateAdd overflowed")
	}
	return r + milli, nil
}

func daysIn(y, m int) int {
	return time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

func compileDateAdd(name string, arg any, scope *Scope) (Expr, error) {
	m, err := namedArgs(arg, scope, argSpec{
		names:     []string{"startDate", "unit", "amount", "timezone"},
		notObject: fixedError(mongoerr.ErrDateAddArgumentNotObject, name+" expects an object as its argument"),
		unknown: func(f string) error {
			return mongoerr.Newf(mongoerr.ErrDateAddUnknownArgument, "Unrecognized argument to %s: %s. Expected arguments are startDate, unit, amount, and optionally timezone.", name, f)
		},
	})
	if err != nil {
		return nil, err
	}
	for _, k := range []struct {
		key  string
		code int32
	}{{"startDate", mongoerr.ErrDateAddMissingArgument}, {"unit", mongoerr.ErrDateAddMissingArgument}, {"amount", mongoerr.ErrDateAddMissingArgument}} {
		if m[k.key] == nil {
			return nil, mongoerr.Newf(k.code, "%s requires startDate, unit, and amount to be present", name)
		}
	}
	// ExpressionDateArithmetics::optimize reads a constant unit, then a
	// constant timezone; a null one makes the operator null.
	whole := foldsWhole(scope, m["startDate"], m["unit"], m["amount"], m["timezone"])
	if !whole {
		if null, err := checkConstantArg(scope, m["unit"], func(v any) error { _, err := timeUnit(name, v); return err }); err != nil || null {
			return nullOr(err)
		}
	}
	tz, null, err := newTZ(scope, m["timezone"], "", whole)
	if err != nil || null {
		return nullOr(err)
	}
	return folded(scope, whole, evalFunc(func(env *Env) (any, error) {
		sv, err := m["startDate"].Eval(env)
		if err != nil || nullish(sv) {
			return nil, err
		}
		uv, err := m["unit"].Eval(env)
		if err != nil || nullish(uv) {
			return nil, err
		}
		unit, err := timeUnit(name, uv)
		if err != nil {
			return nil, err
		}
		av, err := m["amount"].Eval(env)
		if err != nil || nullish(av) {
			return nil, err
		}
		loc, ok, err := tz.eval(env)
		if err != nil || !ok {
			return nil, err
		}
		ms, err := dateOf(sv)
		if err != nil {
			return nil, mongoerr.Newf(mongoerr.ErrDateAddStartNotDate, "%s requires startDate to be convertible to a date", name)
		}
		if !value.Integral64Bit(av) {
			return nil, mongoerr.Newf(mongoerr.ErrDateAddAmountNotInt, "%s expects integer amount of time units", name)
		}
		amount, _ := value.CoerceToLong(av)
		if name == "$dateSubtract" {
			if amount == math.MinInt64 {
				return nil, mongoerr.Newf(mongoerr.ErrDateSubtractAmountLongMin, "invalid $dateSubtract 'amount' parameter value: %d", amount)
			}
			amount = -amount
		}
		r, err := AddToDate(ms, unit, amount, loc)
		if err != nil {
			return nil, err
		}
		return bson.DateTime(r), nil
	}))
}

// DateDiff counts unit boundaries crossed between two instants in the
// timezone, as $dateDiff does.
func DateDiff(start, end int64, unit string, loc *time.Location, startOfWeek time.Weekday) (int64, error) {
	s, e := timeOf(start, loc), timeOf(end, loc)
	switch unit {
	case "year":
		return int64(e.Year() - s.Year()), nil
	case "quarter":
		return int64((e.Year()*4 + (int(e.Month())-1)/3) - (s.Year()*4 + (int(s.Month())-1)/3)), nil
	case "month":
		return int64((e.Year()*12 + int(e.Month())) - (s.Year()*12 + int(s.Month()))), nil
	case "week":
		sd := daysFromCivil(s.Year(), int(s.Month()), s.Day())
		ed := daysFromCivil(e.Year(), int(e.Month()), e.Day())
		// Shift so that weeks start on startOfWeek (1970-01-01 is a Thursday).
		shift := int64((int(time.Thursday) - int(startOfWeek) + 7) % 7)
		return floorDiv(ed+shift, 7) - floorDiv(sd+shift, 7), nil
	case "day":
		return daysFromCivil(e.Year(), int(e.Month()), e.Day()) - daysFromCivil(s.Year(), int(s.Month()), s.Day()), nil
	case "millisecond":
		if subOverflows(end, start) {
			return 0, mongoerr.New(mongoerr.ErrDateDiffOverflow, "dateDiff overflowed")
		}
		return end - start, nil
	}
	// Hours, minutes and seconds are counted on the local clocks, then
	// corrected by the change of UTC offset between the two instants in
	// whole units (utcOffsetCorrectionForHours and its siblings, C++'s
	// truncating division as Go's): across New York's spring-forward gap,
	// 01:59 EST to 03:01 EDT is one hour.
	d := unitDurations[unit]
	_, so := s.Zone()
	_, eo := e.Zone()
	local := floorDiv(end+int64(eo)*1000, d) - floorDiv(start+int64(so)*1000, d)
	return local + int64(so-eo)*1000/d, nil
}

func compileDateDiff(name string, arg any, scope *Scope) (Expr, error) {
	m, err := namedArgs(arg, scope, argSpec{
		names:     []string{"startDate", "endDate", "unit", "timezone", "startOfWeek"},
		notObject: fixedError(mongoerr.ErrDateDiffArgumentNotObject, "$dateDiff only supports an object as its argument"),
		unknown: func(f string) error {
			return mongoerr.Newf(mongoerr.ErrDateDiffUnknownArgument, "Unrecognized argument to $dateDiff: %s", f)
		},
	})
	if err != nil {
		return nil, err
	}
	if m["startDate"] == nil {
		return nil, mongoerr.New(mongoerr.ErrDateDiffMissingStartDate, "Missing 'startDate' parameter to $dateDiff")
	}
	if m["endDate"] == nil {
		return nil, mongoerr.New(mongoerr.ErrDateDiffMissingEndDate, "Missing 'endDate' parameter to $dateDiff")
	}
	if m["unit"] == nil {
		return nil, mongoerr.New(mongoerr.ErrDateDiffMissingUnit, "Missing 'unit' parameter to $dateDiff")
	}
	// ExpressionDateDiff::optimize reads a constant unit, startOfWeek
	// (whatever the unit) and timezone in this order; a null one makes the
	// operator null.
	whole := foldsWhole(scope, m["startDate"], m["endDate"], m["unit"], m["timezone"], m["startOfWeek"])
	if !whole {
		if null, err := checkUnitAndStartOfWeek(scope, name, m["unit"], m["startOfWeek"]); err != nil || null {
			return nullOr(err)
		}
	}
	tz, null, err := newTZ(scope, m["timezone"], "$dateDiff parameter 'timezone' value parsing failed", whole)
	if err != nil || null {
		return nullOr(err)
	}
	return folded(scope, whole, evalFunc(func(env *Env) (any, error) {
		sv, err := m["startDate"].Eval(env)
		if err != nil || nullish(sv) {
			return nil, err
		}
		ev, err := m["endDate"].Eval(env)
		if err != nil || nullish(ev) {
			return nil, err
		}
		uv, err := m["unit"].Eval(env)
		if err != nil || nullish(uv) {
			return nil, err
		}
		unit, err := timeUnit(name, uv)
		if err != nil {
			return nil, err
		}
		sow := time.Sunday
		if unit == "week" && m["startOfWeek"] != nil {
			wv, err := m["startOfWeek"].Eval(env)
			if err != nil || nullish(wv) {
				return nil, err
			}
			if sow, err = dayOfWeekArg(name, wv); err != nil {
				return nil, err
			}
		}
		loc, ok, err := tz.eval(env)
		if err != nil || !ok {
			return nil, withContext(err, "$dateDiff parameter 'timezone' value parsing failed")
		}
		start, err := dateOf(sv)
		if err != nil {
			return nil, mongoerr.Newf(mongoerr.ErrDateArgumentNotDate, "$dateDiff requires 'startDate' to be a date, but got %s", typeName(sv))
		}
		end, err := dateOf(ev)
		if err != nil {
			return nil, mongoerr.Newf(mongoerr.ErrDateArgumentNotDate, "$dateDiff requires 'endDate' to be a date, but got %s", typeName(ev))
		}
		return DateDiff(start, end, unit, loc, sow)
	}))
}

// checkUnitAndStartOfWeek is the first part of $dateTrunc's and
// $dateDiff's optimize(): a constant unit, then a constant startOfWeek
// (whatever the unit), each refused when invalid; null reports a null one,
// which makes the operator null.
func checkUnitAndStartOfWeek(scope *Scope, name string, unit, startOfWeek Expr) (null bool, err error) {
	if null, err := checkConstantArg(scope, unit, func(v any) error { _, err := timeUnit(name, v); return err }); err != nil || null {
		return null, err
	}
	return checkConstantArg(scope, startOfWeek, func(v any) error { _, err := dayOfWeekArg(name, v); return err })
}
