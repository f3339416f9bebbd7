package shell

import (
	"encoding/base64"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// This file is a port of Node's util.inspect (lib/internal/util/inspect.js,
// Node 20) restricted to the values a mongosh session can print, plus the
// custom inspectors mongosh installs for BSON types. mongosh prints every
// result through util.inspect, so matching its line-breaking decisions
// character for character means porting them, not approximating them.

// FormatOptions mirror the util.inspect options mongosh passes.
type FormatOptions struct {
	// Depth is how many levels of nesting are expanded; -1 means no limit.
	Depth int
	// MaxArrayLength is how many array elements are shown; -1 means all.
	MaxArrayLength int
	// Compact is util.inspect's numeric compact mode; 0 means compact: false
	// (every entry on its own line, as printjson prints).
	Compact int
	// BreakLength is the line width that decides when entries are joined.
	BreakLength int
}

// The option sets mongosh uses (read-only).
var (
	// resultFormat prints a statement's result (inspectDepth 6,
	// inspectCompact 3, Node's default maxArrayLength 100).
	resultFormat = FormatOptions{Depth: 6, MaxArrayLength: 100, Compact: 3, BreakLength: 80}
	// fullFormat prints cursors and explain output: nothing is cut off.
	fullFormat = FormatOptions{Depth: -1, MaxArrayLength: -1, Compact: 3, BreakLength: 80}
	// printJSONFormat is printjson's (compact: false, no limits).
	printJSONFormat = FormatOptions{Depth: -1, MaxArrayLength: -1, Compact: 0, BreakLength: 80}
)

// Display-only value kinds: JavaScript values that have no BSON equivalent
// but that a statement can evaluate to.
type (
	// Int32Value is an explicit Int32()/NumberInt() wrapper, which mongosh
	// prints as Int32(n) (values read from the server print as plain numbers).
	Int32Value int32
	// DoubleValue is an explicit Double() wrapper, printed as Double(n).
	DoubleValue float64
	// Function is a JavaScript function value.
	Function struct {
		Name  string
		Class bool
	}
	// Instance is an object built by a class or constructor other than
	// Object; Node prefixes it with the constructor name.
	Instance struct {
		Name string
		Doc  bson.D
	}
	// Promise is a Promise as Node prints one: Promise { value },
	// Promise { <pending> }, Promise { <rejected> reason }.
	Promise struct {
		State string // "pending", "fulfilled" or "rejected"
		Value any
	}
	// Circular marks a reference back to an enclosing object, the one
	// its Referenced wrapper carries the same Index.
	Circular struct{ Index int }
	// Referenced is an object that a Circular inside it points back to;
	// Node prints it with a <ref *Index> label.
	Referenced struct {
		Index int
		Value any
	}
	// DBRef is a {$ref, $id, $db} document, which the JS driver promotes to
	// a DBRef object.
	DBRef struct {
		Collection string
		ID         any
		DB         string
		Fields     bson.D
	}
	// JSError is an Error object.
	JSError struct {
		Name    string
		Message string
	}
	// JSMap is a Map.
	JSMap struct{ Entries [][2]any }
	// JSSet is a Set.
	JSSet struct{ Items []any }
	// EmptyItems stands, in an array, for a run of that many holes of a
	// sparse array ([1, , 3]); Node prints it as <n empty items>.
	EmptyItems int64
)

// moreValues ends a value the display conversion stopped converting: past
// the output cap, nothing more of it could be shown.
type moreValues struct{}

// Format renders v as util.inspect does with the given options.
func Format(v any, opts FormatOptions) string {
	if opts.BreakLength == 0 {
		opts.BreakLength = 80
	}
	c := &inspectCtx{opts: opts}
	return c.formatValue(v, 0)
}

// formatResult renders a statement result the way mongosh's formatOutput
// does for plain values: strings print raw, undefined prints nothing.
func formatResult(v any, opts FormatOptions) string {
	switch x := v.(type) {
	case string:
		if !hasControlChars(x) {
			return x
		}
	case bson.Undefined:
		return ""
	}
	return Format(v, opts)
}

// formatPrintArg renders one argument of print()/console.log().
func formatPrintArg(v any, opts FormatOptions) string {
	switch x := v.(type) {
	case string:
		return x
	case bson.Undefined:
		return ""
	}
	return Format(v, opts)
}

// hasControlChars matches mongosh's CONTROL_CHAR_REGEXP_ALLOW_SIMPLE: tab and
// newline are allowed raw, other control characters force quoting.
func hasControlChars(s string) bool {
	for _, r := range s {
		if (r <= 0x08) || (r >= 0x0b && r <= 0x1f) || (r >= 0x7f && r <= 0x9f) {
			return true
		}
	}
	return false
}

type inspectCtx struct {
	opts           FormatOptions
	indentationLvl int
	currentDepth   int
	circular       bool
	ref            string // the <ref *n> label of the object about to be formatted
}

const (
	kObjectType = iota
	kArrayExtrasType
)

func (c *inspectCtx) depthExceeded(recurseTimes int) bool {
	return c.opts.Depth >= 0 && recurseTimes > c.opts.Depth
}

func (c *inspectCtx) formatValue(v any, recurseTimes int) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bson.Null:
		return "null"
	case bson.Undefined:
		return "undefined"
	case bool:
		if x {
			return "true"
		}
		return "false"
	case string:
		return c.formatString(x)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return jsNumberString(x, true)
	case int64:
		return "Long('" + strconv.FormatInt(x, 10) + "')"
	case Int32Value:
		return "Int32(" + strconv.FormatInt(int64(x), 10) + ")"
	case DoubleValue:
		return "Double(" + jsNumberString(float64(x), true) + ")"
	case bson.ObjectID:
		return "ObjectId('" + x.Hex() + "')"
	case bson.DateTime:
		return formatISODate(int64(x))
	case bson.Decimal128:
		return "Decimal128('" + x.String() + "')"
	case bson.Timestamp:
		return "Timestamp({ t: " + strconv.FormatUint(uint64(x.T), 10) + ", i: " + strconv.FormatUint(uint64(x.I), 10) + " })"
	case bson.Binary:
		return formatBinary(x)
	case bson.MinKey:
		return "MinKey()"
	case bson.MaxKey:
		return "MaxKey()"
	case bson.Regex:
		if jsRegexFlags(x.Options) {
			return "/" + regexSource(x.Pattern) + "/" + x.Options
		}
		return "BSONRegExp(" + strEscape(x.Pattern) + ", " + strEscape(x.Options) + ")"
	case bson.JavaScript:
		return "Code(" + strEscape(string(x)) + ")"
	case bson.CodeWithScope:
		scope := c.formatValue(x.Scope, recurseTimes)
		return "Code(" + strEscape(string(x.Code)) + ", " + scope + ")"
	case bson.Symbol:
		return "BSONSymbol(" + strEscape(string(x)) + ")"
	case bson.DBPointer:
		return "DBPointer(" + strEscape(x.DB) + ", ObjectId('" + x.Pointer.Hex() + "'))"
	case DBRef:
		s := "DBRef(" + strEscape(x.Collection) + ", " + c.formatValue(x.ID, recurseTimes)
		if x.DB != "" {
			s += ", " + strEscape(x.DB)
		}
		return s + ")"
	case Function:
		switch {
		case x.Class && x.Name != "":
			return "[class " + x.Name + "]"
		case x.Class:
			return "[class (anonymous)]"
		case x.Name != "":
			return "[Function: " + x.Name + "]"
		}
		return "[Function (anonymous)]"
	case EmptyItems:
		return emptyItemsText(int64(x))
	case moreValues:
		return "..."
	case Referenced:
		c.ref = "<ref *" + strconv.Itoa(x.Index) + ">"
		out := c.formatValue(x.Value, recurseTimes)
		c.ref = ""
		return out
	case Circular:
		c.circular = true
		return "[Circular *" + strconv.Itoa(max(x.Index, 1)) + "]"
	case JSError:
		if x.Message == "" {
			return "[" + x.Name + "]"
		}
		return "[" + x.Name + ": " + x.Message + "]"
	case bson.D:
		if ref, ok := asDBRef(x); ok {
			return c.formatValue(ref, recurseTimes)
		}
		return c.formatObject(x, "", recurseTimes)
	case Instance:
		return c.formatObject(x.Doc, x.Name, recurseTimes)
	case Promise:
		return c.formatPromise(x, recurseTimes)
	case bson.A:
		return c.formatArray(x, recurseTimes)
	case []any:
		return c.formatArray(bson.A(x), recurseTimes)
	case JSMap:
		return c.formatMapSet(x.Entries, nil, true, recurseTimes)
	case JSSet:
		return c.formatMapSet(nil, x.Items, false, recurseTimes)
	case bson.Raw:
		d, err := bsonRawToD(x)
		if err != nil {
			return "<invalid BSON>"
		}
		return c.formatValue(d, recurseTimes)
	}
	return "<unknown>"
}

// formatObject implements formatRaw for plain objects (and class instances
// when name is set).
func (c *inspectCtx) formatObject(d bson.D, name string, recurseTimes int) string {
	base := c.takeRef()
	open := "{"
	if name != "" && name != "Object" {
		open = name + " {"
	}
	if len(d) == 0 {
		return open + "}"
	}
	if c.depthExceeded(recurseTimes) {
		if name == "" {
			name = "Object"
		}
		return "[" + name + "]"
	}
	recurseTimes++
	c.currentDepth = recurseTimes
	d = jsKeyOrder(d)
	output := make([]string, 0, len(d))
	for _, e := range d {
		c.indentationLvl += 2
		str := c.formatValue(e.Value, recurseTimes)
		c.indentationLvl -= 2
		output = append(output, formatKey(e.Key)+": "+str)
	}
	return c.reduceToSingleString(output, base, open, "}", kObjectType, recurseTimes, nil)
}

// formatPromise is Node's formatPromise within formatRaw.
func (c *inspectCtx) formatPromise(p Promise, recurseTimes int) string {
	base := c.takeRef()
	if c.depthExceeded(recurseTimes) {
		return "[Promise]"
	}
	recurseTimes++
	c.currentDepth = recurseTimes
	entry := "<pending>"
	if p.State != "pending" {
		c.indentationLvl += 2
		entry = c.formatValue(p.Value, recurseTimes)
		c.indentationLvl -= 2
		if p.State == "rejected" {
			entry = "<rejected> " + entry
		}
	}
	return c.reduceToSingleString([]string{entry}, base, "Promise {", "}", kObjectType, recurseTimes, nil)
}

func (c *inspectCtx) formatArray(a bson.A, recurseTimes int) string {
	base := c.takeRef()
	length := arrayLength(a)
	if length == 0 {
		return "[]"
	}
	if c.depthExceeded(recurseTimes) {
		return "[Array]"
	}
	recurseTimes++
	c.currentDepth = recurseTimes
	// formatArray and formatSpecialArray of Node's inspect: at most
	// maxArrayLength entries, a run of holes counting as one.
	maxEntries := length
	if c.opts.MaxArrayLength >= 0 {
		maxEntries = min(maxEntries, int64(c.opts.MaxArrayLength))
	}
	output := make([]string, 0, min(int64(len(a)), maxEntries)+1)
	index := int64(0)
	for _, e := range a {
		if int64(len(output)) >= maxEntries {
			break
		}
		if run, ok := e.(EmptyItems); ok {
			output = append(output, emptyItemsText(int64(run)))
			index += int64(run)
			continue
		}
		c.indentationLvl += 2
		output = append(output, c.formatValue(e, recurseTimes))
		c.indentationLvl -= 2
		index++
	}
	if remaining := length - index; remaining > 0 {
		output = append(output, remainingText(remaining))
	}
	return c.reduceToSingleString(output, base, "[", "]", kArrayExtrasType, recurseTimes, a)
}

// arrayLength is the JavaScript length of a displayed array.
func arrayLength(a bson.A) int64 {
	n := int64(len(a))
	for _, e := range a {
		if run, ok := e.(EmptyItems); ok {
			n += int64(run) - 1
		}
	}
	return n
}

// leadingNumbers reports whether the first n elements of a displayed
// array are all numbers (a hole is not one): Node pads a grid of numbers
// at the start.
func leadingNumbers(a bson.A, n int) bool {
	seen := 0
	for _, e := range a {
		if seen >= n {
			return true
		}
		if _, hole := e.(EmptyItems); hole || !isJSNumber(e) {
			return false
		}
		seen++
	}
	return seen >= n
}

func emptyItemsText(n int64) string {
	if n == 1 {
		return "<1 empty item>"
	}
	return "<" + strconv.FormatInt(n, 10) + " empty items>"
}

func (c *inspectCtx) formatMapSet(entries [][2]any, items []any, isMap bool, recurseTimes int) string {
	base := c.takeRef()
	size := len(entries) + len(items)
	prefix := "Set(" + strconv.Itoa(size) + ") "
	if isMap {
		prefix = "Map(" + strconv.Itoa(size) + ") "
	}
	if size == 0 {
		return prefix + "{}"
	}
	if c.depthExceeded(recurseTimes) {
		return "[" + prefix[:3] + "]"
	}
	recurseTimes++
	c.currentDepth = recurseTimes
	var output []string
	c.indentationLvl += 2
	for _, e := range entries {
		output = append(output, c.formatValue(e[0], recurseTimes)+" => "+c.formatValue(e[1], recurseTimes))
	}
	for _, v := range items {
		output = append(output, c.formatValue(v, recurseTimes))
	}
	c.indentationLvl -= 2
	return c.reduceToSingleString(output, base, prefix+"{", "}", kObjectType, recurseTimes, nil)
}

// takeRef is the <ref *n> label for the object being formatted, once.
func (c *inspectCtx) takeRef() string {
	ref := c.ref
	c.ref = ""
	return ref
}

func remainingText(n int64) string {
	if n > 1 {
		return "... " + strconv.FormatInt(n, 10) + " more items"
	}
	return "... 1 more item"
}

func (c *inspectCtx) reduceToSingleString(output []string, base, open, close string, extrasType, recurseTimes int, value bson.A) string {
	if c.opts.Compact >= 1 {
		entries := len(output)
		if extrasType == kArrayExtrasType && entries > 6 {
			output = c.groupArrayElements(output, value)
		}
		if c.currentDepth-recurseTimes < c.opts.Compact && entries == len(output) {
			start := len(output) + c.indentationLvl + jsLen(open) + jsLen(base) + 10
			if c.isBelowBreakLength(output, start, base) {
				joined := strings.Join(output, ", ")
				if !strings.Contains(joined, "\n") {
					b := ""
					if base != "" {
						b = base + " "
					}
					return b + open + " " + joined + " " + close
				}
			}
		}
	}
	indentation := "\n" + strings.Repeat(" ", c.indentationLvl)
	b := ""
	if base != "" {
		b = base + " "
	}
	return b + open + indentation + "  " + strings.Join(output, ","+indentation+"  ") + indentation + close
}

func (c *inspectCtx) isBelowBreakLength(output []string, start int, base string) bool {
	total := len(output) + start
	if total+len(output) > c.opts.BreakLength {
		return false
	}
	for _, s := range output {
		total += jsLen(s)
		if total > c.opts.BreakLength {
			return false
		}
	}
	return base == "" || !strings.Contains(base, "\n")
}

func (c *inspectCtx) groupArrayElements(output []string, value bson.A) []string {
	totalLength := 0
	maxLength := 0
	outputLength := len(output)
	if c.opts.MaxArrayLength >= 0 && c.opts.MaxArrayLength < len(output) {
		// The "... n more items" entry is not part of the grid.
		outputLength--
	}
	const separatorSpace = 2
	dataLen := make([]int, outputLength)
	for i := range outputLength {
		l := stringWidth(output[i])
		dataLen[i] = l
		totalLength += l + separatorSpace
		if maxLength < l {
			maxLength = l
		}
	}
	actualMax := maxLength + separatorSpace
	if actualMax*3+c.indentationLvl < c.opts.BreakLength &&
		(float64(totalLength)/float64(actualMax) > 5 || maxLength <= 6) {
		const approxCharHeights = 2.5
		averageBias := math.Sqrt(float64(actualMax) - float64(totalLength)/float64(len(output)))
		biasedMax := math.Max(float64(actualMax)-3-averageBias, 1)
		columns := min(
			int(jsRound(math.Sqrt(approxCharHeights*biasedMax*float64(outputLength))/biasedMax)),
			(c.opts.BreakLength-c.indentationLvl)/actualMax,
			c.opts.Compact*4,
			15,
		)
		if columns <= 1 {
			return output
		}
		var tmp []string
		maxLineLength := make([]int, 0, columns)
		for i := range columns {
			lineMaxLength := 0
			for j := i; j < len(output); j += columns {
				if j < outputLength && dataLen[j] > lineMaxLength {
					lineMaxLength = dataLen[j]
				}
			}
			maxLineLength = append(maxLineLength, lineMaxLength+separatorSpace)
		}
		padStart := leadingNumbers(value, len(output))
		for i := 0; i < outputLength; i += columns {
			maxIdx := min(i+columns, outputLength)
			var sb strings.Builder
			j := i
			for ; j < maxIdx-1; j++ {
				padding := maxLineLength[j-i] + jsLen(output[j]) - dataLen[j]
				sb.WriteString(pad(output[j]+", ", padding, padStart))
			}
			if padStart {
				padding := maxLineLength[j-i] + jsLen(output[j]) - dataLen[j] - separatorSpace
				sb.WriteString(pad(output[j], padding, true))
			} else {
				sb.WriteString(output[j])
			}
			tmp = append(tmp, sb.String())
		}
		if outputLength < len(output) {
			tmp = append(tmp, output[outputLength])
		}
		output = tmp
	}
	return output
}

func isJSNumber(v any) bool {
	switch v.(type) {
	case int32, float64, int:
		return true
	}
	return false
}

func pad(s string, width int, start bool) string {
	n := width - jsLen(s)
	if n <= 0 {
		return s
	}
	if start {
		return strings.Repeat(" ", n) + s
	}
	return s + strings.Repeat(" ", n)
}

// jsRound is Math.round: halves round towards +Infinity.
func jsRound(f float64) float64 { return math.Floor(f + 0.5) }

// jsLen is a string's JavaScript length (UTF-16 code units), which is what
// util.inspect measures in isBelowBreakLength.
func jsLen(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n += utf16.RuneLen(r)
	}
	return n
}

// stringWidth is Node's getStringWidth: full-width characters count two
// columns, zero-width ones none.
func stringWidth(s string) int {
	w := 0
	for _, r := range s {
		switch {
		case isFullWidth(r):
			w += 2
		case isZeroWidth(r):
		default:
			w++
		}
	}
	return w
}

func isZeroWidth(r rune) bool {
	return r <= 0x1F || (r >= 0x7F && r <= 0x9F) || (r >= 0x300 && r <= 0x36F) ||
		(r >= 0x200B && r <= 0x200F) || (r >= 0x20D0 && r <= 0x20FF) ||
		(r >= 0xFE00 && r <= 0xFE0F) || (r >= 0xFE20 && r <= 0xFE2F) ||
		(r >= 0xE0100 && r <= 0xE01EF)
}

func isFullWidth(c rune) bool {
	return c >= 0x1100 && (c <= 0x115f || c == 0x2329 || c == 0x232a ||
		(c >= 0x2e80 && c <= 0x3247 && c != 0x303f) ||
		(c >= 0x3250 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0xa4c6) ||
		(c >= 0xa960 && c <= 0xa97c) || (c >= 0xac00 && c <= 0xd7a3) ||
		(c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe10 && c <= 0xfe19) ||
		(c >= 0xfe30 && c <= 0xfe6b) || (c >= 0xff01 && c <= 0xff60) ||
		(c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1b000 && c <= 0x1b001) ||
		(c >= 0x1f200 && c <= 0x1f251) || (c >= 0x1f300 && c <= 0x1f64f) ||
		(c >= 0x20000 && c <= 0x3fffd))
}

const kMinLineLength = 16

// formatString is formatPrimitive for strings: long strings containing
// newlines are split into concatenated pieces.
func (c *inspectCtx) formatString(s string) string {
	l := jsLen(s)
	if c.opts.Compact != -1 && l > kMinLineLength && l > c.opts.BreakLength-c.indentationLvl-4 && strings.Contains(s, "\n") {
		var pieces []string
		rest := s
		for rest != "" {
			i := strings.IndexByte(rest, '\n')
			if i < 0 || i == len(rest)-1 {
				pieces = append(pieces, strEscape(rest))
				break
			}
			pieces = append(pieces, strEscape(rest[:i+1]))
			rest = rest[i+1:]
		}
		return strings.Join(pieces, " +\n"+strings.Repeat(" ", c.indentationLvl+2))
	}
	return strEscape(s)
}

// strEscape quotes a string as util.inspect does: single quotes unless the
// string contains one, then double quotes, then backticks.
func strEscape(s string) string {
	quote := byte('\'')
	if strings.Contains(s, "'") {
		switch {
		case !strings.Contains(s, `"`):
			quote = '"'
		case !strings.Contains(s, "`") && !strings.Contains(s, "${"):
			quote = '`'
		}
	}
	var sb strings.Builder
	sb.Grow(len(s) + 2)
	sb.WriteByte(quote)
	for _, r := range s {
		switch {
		case r == '\'' && quote == '\'':
			sb.WriteString(`\'`)
		case r == '\\':
			sb.WriteString(`\\`)
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			sb.WriteString(metaEscape(r))
		case r == utf8.RuneError:
			sb.WriteString(`\uFFFD`)
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte(quote)
	return sb.String()
}

func metaEscape(r rune) string {
	switch r {
	case '\b':
		return `\b`
	case '\t':
		return `\t`
	case '\n':
		return `\n`
	case '\f':
		return `\f`
	case '\r':
		return `\r`
	}
	return `\x` + strings.ToUpper(hex.EncodeToString([]byte{byte(r)}))
}

// formatKey renders an object key: identifiers bare, anything else quoted.
func formatKey(k string) string {
	if isIdentKey(k) {
		return k
	}
	if k == "__proto__" {
		return "['__proto__']"
	}
	return strEscape(k)
}

func isIdentKey(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		ch := k[i]
		switch {
		case ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'):
		case ch >= '0' && ch <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// jsKeyOrder returns d with its keys in JavaScript property order: keys
// that are array indices come first in ascending order. mongosh prints
// documents as JS objects, so a document {b: 1, "1": 2} prints { '1': 2, b: 1 }.
func jsKeyOrder(d bson.D) bson.D {
	hasIndex := false
	for _, e := range d {
		if _, ok := arrayIndexKey(e.Key); ok {
			hasIndex = true
			break
		}
	}
	if !hasIndex {
		return d
	}
	type idxElem struct {
		n uint64
		e bson.E
	}
	var idx []idxElem
	var rest bson.D
	for _, e := range d {
		if n, ok := arrayIndexKey(e.Key); ok {
			idx = append(idx, idxElem{n, e})
		} else {
			rest = append(rest, e)
		}
	}
	// insertion sort: index keys are few and usually already ordered
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && idx[j].n < idx[j-1].n; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	out := make(bson.D, 0, len(d))
	for _, x := range idx {
		out = append(out, x.e)
	}
	return append(out, rest...)
}

func arrayIndexKey(k string) (uint64, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return 0, false
		}
		n = n*10 + uint64(k[i]-'0')
	}
	return n, n < math.MaxUint32
}

// jsNumberString is JavaScript's Number.prototype.toString; inspect prints
// negative zero as -0.
func jsNumberString(f float64, inspectZero bool) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if inspectZero && math.Signbit(f) {
			return "-0"
		}
		return "0"
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	// Shortest round-trip digits, laid out by ECMAScript's Number::toString.
	e := strconv.FormatFloat(math.Abs(f), 'e', -1, 64)
	mant, expStr, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expStr)
	k := len(digits)
	n := exp + 1
	var s string
	switch {
	case k <= n && n <= 21:
		s = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		s = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		s = "0." + strings.Repeat("0", -n) + digits
	default:
		sign := "+"
		if n-1 < 0 {
			sign = "-"
		}
		ex := n - 1
		if ex < 0 {
			ex = -ex
		}
		if k == 1 {
			s = digits + "e" + sign + strconv.Itoa(ex)
		} else {
			s = digits[:1] + "." + digits[1:] + "e" + sign + strconv.Itoa(ex)
		}
	}
	if f < 0 {
		s = "-" + s
	}
	return s
}

// formatISODate renders a BSON date as mongosh's ISODate('…'), using
// Date.prototype.toISOString's extended years outside 0000–9999.
func formatISODate(ms int64) string {
	const maxTime = 8.64e15
	if float64(ms) > maxTime || float64(ms) < -maxTime {
		return "Invalid Date"
	}
	return "ISODate('" + isoString(ms) + "')"
}

func isoString(ms int64) string {
	t := bson.DateTime(ms).Time().UTC()
	y := t.Year()
	var year string
	switch {
	case y >= 0 && y <= 9999:
		year = padInt(y, 4)
	case y < 0:
		year = "-" + padInt(-y, 6)
	default:
		year = "+" + padInt(y, 6)
	}
	return year + "-" + padInt(int(t.Month()), 2) + "-" + padInt(t.Day(), 2) + "T" +
		padInt(t.Hour(), 2) + ":" + padInt(t.Minute(), 2) + ":" + padInt(t.Second(), 2) + "." +
		padInt(t.Nanosecond()/1e6, 3) + "Z"
}

func padInt(n, width int) string {
	s := strconv.Itoa(n)
	if len(s) < width {
		s = strings.Repeat("0", width-len(s)) + s
	}
	return s
}

func formatBinary(b bson.Binary) string {
	if b.Subtype == 4 && len(b.Data) == 16 {
		return "UUID('" + uuidString(b.Data) + "')"
	}
	if b.Subtype == 5 {
		return "MD5('" + hex.EncodeToString(b.Data) + "')"
	}
	return "Binary.createFromBase64(" + strEscape(base64.StdEncoding.EncodeToString(b.Data)) + ", " + strconv.Itoa(int(b.Subtype)) + ")"
}

func uuidString(b []byte) string {
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// jsRegexFlags reports whether BSON regex options are all JavaScript flags,
// in which case the JS driver returns a RegExp rather than a BSONRegExp.
func jsRegexFlags(opts string) bool {
	for _, r := range opts {
		if !strings.ContainsRune("imsgudy", r) {
			return false
		}
	}
	return true
}

// regexSource is RegExp.prototype.source: "/" is escaped and an empty
// pattern is "(?:)".
func regexSource(p string) string {
	if p == "" {
		return "(?:)"
	}
	if !strings.Contains(p, "/") && !strings.Contains(p, "\n") {
		return p
	}
	var sb strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		ch := p[i]
		switch {
		case ch == '\\' && i+1 < len(p):
			sb.WriteByte(ch)
			i++
			sb.WriteByte(p[i])
			continue
		case ch == '[':
			inClass = true
		case ch == ']':
			inClass = false
		case ch == '/' && !inClass:
			sb.WriteString(`\/`)
			continue
		case ch == '\n':
			sb.WriteString(`\n`)
			continue
		}
		sb.WriteByte(ch)
	}
	return sb.String()
}

// asDBRef recognises the {$ref, $id[, $db]} shape that js-bson promotes to
// a DBRef.
func asDBRef(d bson.D) (DBRef, bool) {
	if len(d) < 2 || d[0].Key != "$ref" || d[1].Key != "$id" {
		return DBRef{}, false
	}
	coll, ok := d[0].Value.(string)
	if !ok {
		return DBRef{}, false
	}
	ref := DBRef{Collection: coll, ID: d[1].Value}
	rest := d[2:]
	if len(rest) > 0 && rest[0].Key == "$db" {
		db, ok := rest[0].Value.(string)
		if !ok {
			return DBRef{}, false
		}
		ref.DB = db
		rest = rest[1:]
	}
	if len(rest) > 0 {
		return DBRef{}, false
	}
	return ref, true
}

func bsonRawToD(r bson.Raw) (bson.D, error) {
	var d bson.D
	err := bson.Unmarshal(r, &d)
	return d, err
}
