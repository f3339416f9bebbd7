package validation

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// This file is doc_validation_error.cpp: a walk over the validator's
// match expression tree with a stack of frames that builds errInfo's
// "details" for a document that failed the validator. The pre, in and
// post visits below follow ValidationErrorPreVisitor, InVisitor and
// PostVisitor node kind by node kind.

// maxConsideredValues is internalQueryMaxDocValidationErrorConsideredValues.
const maxConsideredValues = 10

type runtimeState int

const (
	stateError runtimeState = iota
	stateNoError
	stateNeedChildrenInfo
	stateIgnoreChildren
)

type frameParams struct {
	doc      bson.D
	inverted bool
}

type frame struct {
	obj        bson.D
	arr        bson.A
	childIndex int
	state      runtimeState
	params     frameParams
	truncated  bool // consideredValues was cut at maxConsideredValues
}

// errValue is latestCompleteError: nothing, a path, an object or an array.
type errValue struct {
	kind int // 0 none, 1 string, 2 object, 3 array
	s    string
	obj  bson.D
	arr  bson.A
}

type generator struct {
	now        bson.DateTime
	root       bson.D
	frames     []*frame
	latest     errValue
	childInput *frameParams
}

// generateDetails returns the "details" of errInfo for doc, which failed
// the validator root.
func generateDetails(root *node, doc bson.D, now bson.DateTime) bson.D {
	g := &generator{root: doc, now: now}
	g.walk(root)
	if g.latest.kind == 2 {
		return g.latest.obj
	}
	return bson.D{}
}

func (g *generator) walk(n *node) {
	g.pre(n)
	for i, c := range n.children {
		g.walk(c)
		if i+1 < len(n.children) {
			g.in(n)
		}
	}
	g.post(n)
}

func (g *generator) top() *frame { return g.frames[len(g.frames)-1] }

func (g *generator) pushFrame(n *node) {
	g.latest = errValue{}
	if len(g.frames) == 0 {
		g.frames = append(g.frames, &frame{state: stateError, params: frameParams{doc: g.root}})
		return
	}
	parent := g.top()
	params := parent.params
	if g.childInput != nil {
		params = *g.childInput
		g.childInput = nil
	}
	state := stateError
	switch {
	case parent.state == stateNoError || parent.state == stateIgnoreChildren || n.ann.mode == modeIgnore:
		state = stateNoError
	case parent.state == stateNeedChildrenInfo:
		matched, failed := n.evaluate(params.doc)
		generate := failed || matched == params.inverted
		if !generate {
			state = stateNoError
		}
	}
	g.frames = append(g.frames, &frame{state: state, params: params})
}

// evaluate is matchesBSON, reporting also whether evaluation threw (a
// $expr error), which counts as a failure to explain.
func (n *node) evaluate(doc bson.D) (matched, failed bool) {
	if n.kind == kLeaf {
		ok, _, err := n.filter.Eval(doc)
		return ok, err != nil
	}
	return n.matches(doc), false
}

func (g *generator) popFrame() { g.frames = g.frames[:len(g.frames)-1] }

func (g *generator) setState(s runtimeState) {
	if f := g.top(); f.state != stateNoError {
		f.state = s
	}
}

func (g *generator) shouldGenerate(n *node) bool {
	return n.ann.mode == modeGenerate && g.top().state != stateNoError
}

func (g *generator) inverted() bool { return g.top().params.inverted }

func (g *generator) flipInversion() { g.top().params.inverted = !g.top().params.inverted }

func (g *generator) currentDoc() bson.D { return g.top().params.doc }

func (g *generator) setChildInput(doc bson.D) {
	g.childInput = &frameParams{doc: doc, inverted: g.inverted()}
}

func producesArray(n *node) bool {
	return n.ann.tag == "_subschema" || n.ann.tag == "_propertiesExistList"
}

func (g *generator) finish(n *node) {
	if g.shouldGenerate(n) {
		if producesArray(n) {
			g.latest = errValue{kind: 3, arr: nonNilArray(g.top().arr)}
		} else {
			g.latest = errValue{kind: 2, obj: nonNilDoc(g.top().obj)}
		}
	}
	g.popFrame()
}

func nonNilArray(a bson.A) bson.A {
	if a == nil {
		return bson.A{}
	}
	return a
}

func nonNilDoc(d bson.D) bson.D {
	if d == nil {
		return bson.D{}
	}
	return d
}

func (g *generator) appendObj(key string, v any) {
	f := g.top()
	f.obj = append(f.obj, bson.E{Key: key, Value: v})
}

func (g *generator) hasReason() bool {
	return !value.IsMissing(value.Get(g.top().obj, "reason"))
}

// appendLatestTo appends the latest error to an object as "details".
func (g *generator) appendLatestToObj(d *bson.D) {
	switch g.latest.kind {
	case 2:
		*d = append(*d, bson.E{Key: "details", Value: g.latest.obj})
	case 3:
		*d = append(*d, bson.E{Key: "details", Value: g.latest.arr})
	}
}

// appendLatestToArray absorbs the latest error into an array.
func (g *generator) appendLatestToArray(a *bson.A) {
	switch g.latest.kind {
	case 1:
		*a = append(*a, g.latest.s)
	case 2:
		*a = append(*a, g.latest.obj)
	case 3:
		*a = append(*a, g.latest.arr...)
	}
}

func appendSchemaAnnotations(n *node, d *bson.D) {
	if n.ann.hasTitle {
		*d = append(*d, bson.E{Key: "title", Value: n.ann.title})
	}
	if n.ann.hasDesc {
		*d = append(*d, bson.E{Key: "description", Value: n.ann.description})
	}
}

var orderedClauseTags = map[string]bool{"$and": true, "$or": true, "$nor": true, "allOf": true, "anyOf": true, "oneOf": true}

// finishChild is finishLogicalOperatorChildError.
func (g *generator) finishChild(n *node) {
	f := g.top()
	if g.shouldGenerate(n) && f.state != stateIgnoreChildren && g.latest.kind != 0 {
		if orderedClauseTags[n.ann.tag] {
			sub := bson.D{{Key: "index", Value: int32(f.childIndex)}}
			appendSchemaAnnotations(n.children[f.childIndex], &sub)
			g.appendLatestToObj(&sub)
			f.arr = append(f.arr, sub)
		} else {
			g.appendLatestToArray(&f.arr)
		}
	}
	f.childIndex++
}

// ---- pre-visit ----

func (g *generator) pre(n *node) {
	switch n.kind {
	case kAlwaysFalse, kAlwaysTrue:
		g.pushFrame(n)
		if g.shouldGenerate(n) {
			g.appendDetails(n)
			g.appendReason("expression always evaluates to false", "expression always evaluates to true")
		}
	case kAnd:
		if n.ann.tag == "items" {
			g.preItemsArray(n)
			return
		}
		g.preTree(n)
		if !g.inverted() {
			g.setState(stateNeedChildrenInfo)
		}
		if n.ann.tag == "$jsonSchema" && g.inverted() {
			g.setState(stateIgnoreChildren)
			g.appendReason("", "schema matched")
		}
	case kOr:
		if n.ann.tag == "enum" {
			g.preEnum(n)
			return
		}
		g.preTree(n)
		if g.inverted() {
			g.setState(stateNeedChildrenInfo)
		}
	case kNor:
		g.preTree(n)
		if !g.inverted() {
			g.setState(stateNeedChildrenInfo)
		}
		g.flipInversion()
	case kNot:
		g.preTree(n)
		g.flipInversion()
		if g.shouldGenerate(n) && n.ann.tag == "not" {
			g.appendReason("", "child expression matched")
			g.setState(stateIgnoreChildren)
		}
	case kXor:
		g.preTree(n)
		g.setState(stateNeedChildrenInfo)
		if g.shouldGenerate(n) {
			var matching bson.A
			for i, c := range n.children {
				if c.matches(g.currentDoc()) {
					matching = append(matching, int32(i))
				}
			}
			if len(matching) > 0 {
				g.flipInversion()
				g.setState(stateIgnoreChildren)
				g.appendReason("", "more than one subschema matched")
				g.appendObj("matchingSchemaIndexes", matching)
			}
		}
	case kLeaf:
		g.preLeaf(n)
	case kExists:
		g.pushFrame(n)
	case kSchemaType:
		g.typeError(n, noTraversal, true)
	case kEncrypted:
		g.pushFrame(n)
		if g.shouldGenerate(n) {
			g.appendOperatorName(n)
			g.appendReason("value was not encrypted", "value was encrypted")
		}
	case kEncryptedType:
		// Only an encrypted value of the wrong type is this node's to
		// explain, and only when not inverted: otherwise its sibling
		// kEncrypted node explains the failure.
		g.pushFrame(n)
		if g.shouldGenerate(n) {
			b, ok := valueAt(g.currentDoc(), n.path).(bson.Binary)
			if ok && b.Subtype == bson.TypeBinaryEncrypted && !g.inverted() {
				g.appendOperatorName(n)
				g.appendReason("encrypted value has wrong type", "")
			} else {
				g.setState(stateNoError)
			}
		}
	case kMinItems, kMaxItems:
		g.pushFrame(n)
		if v, ok := g.keywordValue(n, value.TypeArray); ok {
			a := v.(bson.A)
			g.appendDetails(n)
			g.appendReason("array did not match specified length", "")
			g.appendObj("consideredValue", a)
			g.appendObj("numberOfItems", int32(len(a)))
		} else {
			g.setState(stateNoError)
		}
	case kMinLength, kMaxLength:
		g.pathError(n, "specified string length was not satisfied", "specified string length was satisfied",
			[]int{value.TypeString}, noTraversal, true)
	case kFmod:
		g.pathError(n, "considered value is not a multiple of the specified value",
			"considered value is a multiple of the specified value", numberTypes, noTraversal, true)
	case kUniqueItems:
		g.pushFrame(n)
		if v, ok := g.keywordValue(n, value.TypeArray); ok {
			a := v.(bson.A)
			g.appendDetails(n)
			g.appendReason("found a duplicate item", "")
			g.appendObj("consideredValue", a)
			g.appendObj("duplicatedValue", a[firstDuplicate(a)])
		} else {
			g.setState(stateNoError)
		}
	case kObjectMatch:
		g.pushFrame(n)
		if g.top().state != stateNoError {
			if d, ok := valueAt(g.currentDoc(), n.path).(bson.D); ok {
				g.setChildInput(d)
			} else {
				g.setState(stateNoError)
			}
		}
	case kAllowedProps:
		g.preAllowedProperties(n)
	case kMinProperties, kMaxProperties:
		g.pushFrame(n)
		if g.shouldGenerate(n) {
			g.appendDetails(n)
			g.appendReason("specified number of properties was not satisfied", "")
			g.appendObj("numberOfProperties", int32(len(g.currentDoc())))
		}
	case kCond:
		g.pushFrame(n)
		if g.shouldGenerate(n) && !n.children[0].matches(g.currentDoc()) {
			g.setState(stateNoError)
		}
	case kAllElemMatch:
		g.preAllElemMatch(n)
	case kMatchIndex:
		g.pushFrame(n)
		if g.shouldGenerate(n) {
			a, _ := valueAt(g.currentDoc(), n.path).(bson.A)
			g.appendObj("itemIndex", int64(n.index))
			if n.index < len(a) {
				g.setChildInput(placeholderDoc(a[n.index]))
			}
		}
	}
}

var numberTypes = []int{value.TypeLong, value.TypeDouble, value.TypeDecimal, value.TypeInt}

func (g *generator) preTree(n *node) {
	g.pushFrame(n)
	if !g.shouldGenerate(n) {
		return
	}
	if n.ann.tag != "" && n.ann.tag[0] != '_' {
		g.appendObj("operatorName", n.ann.tag)
	}
	if n.ann.tag == "required" {
		g.appendObj("specifiedAs", nonNilDoc(n.ann.spec))
	} else {
		f := g.top()
		f.obj = append(f.obj, n.ann.spec...)
	}
}

func (g *generator) appendOperatorName(n *node) {
	if n.ann.tag != "" {
		g.appendObj("operatorName", n.ann.tag)
	}
}

// appendDetails is appendErrorDetails: operatorName and specifiedAs.
func (g *generator) appendDetails(n *node) {
	g.appendOperatorName(n)
	g.appendObj("specifiedAs", nonNilDoc(n.ann.spec))
}

func (g *generator) appendReason(normal, inverted string) {
	if g.hasReason() {
		return
	}
	if g.inverted() {
		g.appendObj("reason", inverted)
	} else {
		g.appendObj("reason", normal)
	}
}

// keywordValue is getValueForKeywordExpressionIfShouldGenerateError: the
// value a $jsonSchema keyword applies to, when it is of one of the types
// the keyword restricts; otherwise the related type or required node
// explains the failure.
func (g *generator) keywordValue(n *node, types ...int) (any, bool) {
	if !g.shouldGenerate(n) || g.inverted() {
		return nil, false
	}
	v := valueAt(g.currentDoc(), n.path)
	if value.IsMissing(v) || !slices.Contains(types, value.TypeNumber(v)) {
		return nil, false
	}
	return v, true
}

func (g *generator) preLeaf(n *node) {
	switch n.op {
	case "$eq", "$lt", "$lte", "$gt", "$gte":
		if n.ann.tag == "minimum" || n.ann.tag == "maximum" {
			g.pathError(n, "comparison failed", "comparison succeeded", numberTypes, noTraversal, true)
		} else {
			g.pathError(n, "comparison failed", "comparison succeeded", nil, traverseOmitArray, false)
		}
	case "$in":
		g.pathError(n, "no matching value found in array", "matching value found in array", nil, traverseOmitArray, false)
	case "$regex":
		g.pathError(n, "regular expression did not match", "regular expression did match",
			[]int{value.TypeString, value.TypeSymbol, value.TypeRegex}, traverseOmitArray, n.ann.tag == "pattern")
	case "$exists":
		g.pushFrame(n)
		if g.shouldGenerate(n) {
			g.appendDetails(n)
			g.appendReason("path does not exist", "path does exist")
		}
	case "$type":
		g.typeError(n, traverseOmitArray, false)
	case "$mod":
		g.pathError(n, "$mod did not evaluate to expected remainder", "$mod did evaluate to expected remainder",
			numberTypes, traverseOmitArray, false)
	case "$size":
		g.pathError(n, "array length was not equal to given size", "array length was equal to given size",
			[]int{value.TypeArray}, noTraversal, false)
	case "$elemMatch":
		g.pathError(n, "array did not satisfy the child predicate", "array did satisfy the child predicate",
			[]int{value.TypeArray}, noTraversal, false)
	case "$all":
		g.pushFrame(n)
		if g.shouldGenerate(n) {
			g.appendDetails(n)
			vals, ok := g.values(n.path, noTraversal)
			g.appendMissing(ok)
			g.appendReason("array did not contain all specified values", "array did contain all specified values")
			g.appendConsideredValues(vals, ok)
		}
	case "$bitsAllSet", "$bitsAllClear", "$bitsAnySet", "$bitsAnyClear":
		g.pathError(n, "bitwise operator failed to match", "bitwise operator matched successfully",
			[]int{value.TypeInt, value.TypeLong, value.TypeDouble, value.TypeDecimal, value.TypeBinData}, traverseOmitArray, false)
	case "$expr":
		g.pushFrame(n)
		if g.shouldGenerate(n) {
			g.appendDetails(n)
			g.exprResult(n)
		}
	default:
		g.pushFrame(n)
	}
}

func (g *generator) preEnum(n *node) {
	g.pushFrame(n)
	if !g.shouldGenerate(n) {
		return
	}
	g.appendDetails(n)
	path := ""
	if len(n.children) > 0 {
		path = n.children[0].path
	}
	vals, ok := g.values(path, noTraversal)
	if !ok {
		g.setState(stateNoError)
		return
	}
	g.appendReason("value was not found in enum", "value was found in enum")
	g.appendConsideredValues(vals, ok)
}

func (g *generator) preItemsArray(n *node) {
	g.pushFrame(n)
	if len(n.children) == 0 {
		return
	}
	if _, ok := g.keywordValue(n.children[0], value.TypeArray); ok {
		g.appendOperatorName(n)
		g.setState(stateNeedChildrenInfo)
	} else {
		g.setState(stateNoError)
	}
}

func (g *generator) preAllElemMatch(n *node) {
	g.pushFrame(n)
	v, ok := g.keywordValue(n, value.TypeArray)
	if !ok {
		g.setState(stateNoError)
		return
	}
	a := v.(bson.A)
	if n.ann.tag == "additionalItems" && !isDocValue(n.ann.spec) {
		g.appendDetails(n)
		g.appendReason("found additional items", "")
		f := g.top()
		for i := n.index; i < len(a); i++ {
			f.arr = append(f.arr, a[i])
		}
		g.appendObj("additionalItems", nonNilArray(f.arr))
		return
	}
	reason := "At least one item did not match the sub-schema"
	if n.ann.tag == "additionalItems" {
		reason = "At least one additional item did not match the sub-schema"
	}
	g.appendOperatorName(n)
	f := g.top()
	appendSchemaAnnotations(n.children[0], &f.obj)
	g.appendReason(reason, "")
	for i := n.index; i < len(a); i++ {
		if !n.children[0].matches(placeholderDoc(a[i])) {
			g.appendObj("itemIndex", int32(i))
			g.setChildInput(placeholderDoc(a[i]))
			break
		}
	}
}

// isDocValue reports whether an annotation's first element holds a
// document (additionalItems/additionalProperties given as a schema).
func isDocValue(spec bson.D) bool {
	if len(spec) == 0 {
		return false
	}
	_, ok := spec[0].Value.(bson.D)
	return ok
}

func (g *generator) preAllowedProperties(n *node) {
	g.pushFrame(n)
	g.setState(stateIgnoreChildren)
	if !g.shouldGenerate(n) {
		return
	}
	additional := n.additionalProperties(g.currentDoc())
	if len(n.ann.spec) > 0 {
		if _, isBool := n.ann.spec[0].Value.(bool); isBool && !n.children[0].matches(g.currentDoc()) {
			if len(additional) > 0 {
				g.appendObj("operatorName", "additionalProperties")
				g.appendObj("specifiedAs", bson.D{{Key: "additionalProperties", Value: false}})
				g.appendObj("additionalProperties", additional)
			}
			return
		}
	}
	if isDocValue(n.ann.spec) {
		if name, ok := n.firstFailingAdditional(g.currentDoc(), additional); ok {
			g.setState(stateError)
			g.setChildInput(placeholderDoc(value.Get(g.currentDoc(), name)))
		}
	}
}

// additionalProperties is findAdditionalProperties.
func (n *node) additionalProperties(doc bson.D) bson.A {
	out := bson.A{}
	for _, f := range doc {
		if n.properties[f.Key] {
			continue
		}
		additional := true
		for _, p := range n.patterns {
			if p.re.MatchString(f.Key) {
				additional = false
				break
			}
		}
		if additional {
			out = append(out, f.Key)
		}
	}
	return out
}

func (n *node) firstFailingAdditional(doc bson.D, additional bson.A) (string, bool) {
	for _, name := range additional {
		s := name.(string)
		if !n.children[0].matches(placeholderDoc(value.Get(doc, s))) {
			return s, true
		}
	}
	return "", false
}

// failingPatternProperty is findFailingProperty for pattern i.
func (n *node) failingPatternProperty(doc bson.D, i int) (bson.E, bool) {
	for _, f := range doc {
		if n.patterns[i].re.MatchString(f.Key) && !n.children[i+1].matches(placeholderDoc(f.Value)) {
			return f, true
		}
	}
	return bson.E{}, false
}

// ---- in-visit ----

func (g *generator) in(n *node) {
	switch n.kind {
	case kAnd, kOr, kNor:
		g.finishChild(n)
	case kXor:
		if !g.inverted() {
			g.finishChild(n)
		}
	case kAllowedProps:
		if g.shouldGenerate(n) {
			g.allowedPropertiesChildError(n)
			g.setState(stateIgnoreChildren)
			if f, ok := n.failingPatternProperty(g.currentDoc(), g.top().childIndex); ok {
				g.setState(stateError)
				g.setChildInput(placeholderDoc(f.Value))
			}
		}
		g.top().childIndex++
	case kCond:
		if g.shouldGenerate(n) && g.latest.kind != 0 && g.top().childIndex == 1 {
			g.appendObj("conditionalProperty", n.ann.spec[0].Key)
			switch n.ann.tag {
			case "_schemaDependency":
				f := g.top()
				g.appendLatestToObj(&f.obj)
			case "_propertyDependency":
				g.appendObj("missingProperties", nonNilArray(g.latest.arr))
			}
		}
		g.top().childIndex++
	}
}

// allowedPropertiesChildError is generateAllowedPropertiesSchemaError.
func (g *generator) allowedPropertiesChildError(n *node) {
	if g.latest.kind == 0 {
		return
	}
	f := g.top()
	if f.childIndex == 0 {
		if !isDocValue(n.ann.spec) {
			return
		}
		additional := n.additionalProperties(g.currentDoc())
		name, _ := n.firstFailingAdditional(g.currentDoc(), additional)
		g.appendObj("operatorName", "additionalProperties")
		appendSchemaAnnotations(n.children[0], &f.obj)
		g.appendObj("reason", "at least one additional property did not match the subschema")
		g.appendObj("failingProperty", name)
		g.appendLatestToObj(&f.obj)
		return
	}
	i := f.childIndex - 1
	prop, ok := n.failingPatternProperty(g.currentDoc(), i)
	if !ok || !g.shouldGenerate(n) {
		return
	}
	d := bson.D{{Key: "propertyName", Value: prop.Key}}
	appendSchemaAnnotations(n.children[i+1], &d)
	d = append(d, bson.E{Key: "regexMatched", Value: n.patterns[i].raw})
	g.appendLatestToObj(&d)
	f.arr = append(f.arr, d)
}

// ---- post-visit ----

var andDetails = map[string][2]string{
	"$and": {"clausesNotSatisfied", "clausesSatisfied"}, "allOf": {"schemasNotSatisfied", ""},
	"properties": {"propertiesNotSatisfied", ""}, "$jsonSchema": {"schemaRulesNotSatisfied", ""},
	"_subschema": {"", ""}, "_propertiesExistList": {"", ""}, "items": {"details", ""},
	"dependencies": {"failingDependencies", ""}, "required": {"missingProperties", ""},
	"_property": {"details", ""}, "": {"details", ""},
}

var orDetails = map[string][2]string{
	"$or": {"clausesNotSatisfied", "clausesSatisfied"}, "anyOf": {"schemasNotSatisfied", ""},
}

func pick(pair [2]string, inverted bool) string {
	if inverted {
		return pair[1]
	}
	return pair[0]
}

func (g *generator) post(n *node) {
	switch n.kind {
	case kAnd:
		if n.ann.tag == "$jsonSchema" && g.inverted() {
			g.finish(n)
			return
		}
		g.postTree(n, pick(andDetails[n.ann.tag], g.inverted()))
	case kOr:
		if n.ann.tag == "enum" || !g.shouldGenerate(n) {
			g.finish(n)
			return
		}
		g.postTree(n, pick(orDetails[n.ann.tag], g.inverted()))
	case kNor:
		g.postTree(n, pick([2]string{"clausesNotSatisfied", "clausesSatisfied"}, g.inverted()))
	case kNot:
		if g.shouldGenerate(n) && n.ann.tag != "not" {
			f := g.top()
			g.appendLatestToObj(&f.obj)
		}
		g.finish(n)
	case kXor:
		if !g.inverted() {
			g.postTree(n, "schemasNotSatisfied")
		} else {
			g.finish(n)
		}
	case kExists:
		if g.shouldGenerate(n) && n.ann.tag == "_propertyExists" {
			g.latest = errValue{kind: 1, s: n.path}
			g.popFrame()
			return
		}
		g.finish(n)
	case kAllElemMatch:
		if g.shouldGenerate(n) && (n.ann.tag == "items" || isDocValue(n.ann.spec)) {
			f := g.top()
			g.appendLatestToObj(&f.obj)
		}
		g.finish(n)
	case kMatchIndex:
		if g.shouldGenerate(n) {
			f := g.top()
			g.appendLatestToObj(&f.obj)
		}
		g.finish(n)
	case kAllowedProps:
		if g.shouldGenerate(n) {
			g.allowedPropertiesChildError(n)
			f := g.top()
			additionalErr := nonNilDoc(f.obj)
			var patternErr bson.D
			if len(f.arr) > 0 {
				patternErr = bson.D{{Key: "operatorName", Value: "patternProperties"}, {Key: "details", Value: f.arr}}
			}
			switch {
			case len(additionalErr) == 0:
				g.latest = errValue{kind: 2, obj: patternErr}
			case len(patternErr) == 0:
				g.latest = errValue{kind: 2, obj: additionalErr}
			default:
				g.latest = errValue{kind: 3, arr: bson.A{additionalErr, patternErr}}
			}
		}
		g.popFrame()
	case kSchemaEq, kRootDocEq:
	default:
		g.finish(n)
	}
}

// postTree is postVisitTreeOperator.
func (g *generator) postTree(n *node, details string) {
	f := g.top()
	appendSchemaAnnotations(n, &f.obj)
	g.finishChild(n)
	if g.shouldGenerate(n) && (n.ann.tag == "properties" || n.ann.tag == "_property") && len(f.arr) == 0 {
		g.setState(stateNoError)
	}
	if g.shouldGenerate(n) && !producesArray(n) {
		g.appendObj(details, nonNilArray(f.arr))
	}
	g.finish(n)
}

// ---- leaf helpers ----

// pathError is generatePathError.
func (g *generator) pathError(n *node, normal, inverted string, expected []int, behavior leafBehavior, jsonSchemaKeyword bool) {
	g.pushFrame(n)
	if !g.shouldGenerate(n) {
		return
	}
	if jsonSchemaKeyword {
		if _, ok := g.keywordValue(n, expected...); !ok {
			g.setState(stateNoError)
			return
		}
	}
	g.appendDetails(n)
	vals, ok := g.values(n.path, behavior)
	g.appendMissing(ok)
	g.appendTypeMismatch(vals, ok, expected)
	g.appendReason(normal, inverted)
	g.appendConsideredValues(vals, ok)
}

// typeError is generateTypeError.
func (g *generator) typeError(n *node, behavior leafBehavior, jsonSchemaKeyword bool) {
	g.pushFrame(n)
	if !g.shouldGenerate(n) {
		return
	}
	vals, ok := g.values(n.path, behavior)
	if jsonSchemaKeyword && !ok {
		g.setState(stateNoError)
		return
	}
	g.appendDetails(n)
	g.appendMissing(ok)
	g.appendReason("type did not match", "type did match")
	g.appendConsideredValues(vals, ok)
	g.appendConsideredTypes(vals, ok)
}

func (g *generator) appendMissing(exists bool) {
	if !exists {
		g.appendObj("reason", "field was missing")
	}
}

func (g *generator) appendTypeMismatch(vals bson.A, exists bool, expected []int) {
	if !exists || g.hasReason() || expected == nil {
		return
	}
	for _, v := range vals {
		if slices.Contains(expected, value.TypeNumber(v)) {
			return
		}
	}
	g.appendObj("reason", "type did not match")
	g.appendConsideredTypes(vals, exists)
	names := make([]string, 0, len(expected))
	for _, t := range expected {
		names = append(names, typeNameOf(t))
	}
	g.appendTypeNames("expectedType", "expectedTypes", names)
}

// appendTypeNames appends a std::set of type names: one name under the
// singular field, several sorted under the plural.
func (g *generator) appendTypeNames(single, plural string, names []string) {
	slices.Sort(names)
	names = slices.Compact(names)
	if len(names) == 1 {
		g.appendObj(single, names[0])
		return
	}
	a := make(bson.A, len(names))
	for i, s := range names {
		a[i] = s
	}
	g.appendObj(plural, a)
}

// typeNameOf is typeName(BSONType) for a type number.
func typeNameOf(t int) string {
	for _, name := range bsonTypeNames {
		if n, ok := value.TypeNumberForName(name); ok && n == t {
			return name
		}
	}
	return ""
}

var bsonTypeNames = []string{"double", "string", "object", "array", "binData", "undefined", "objectId",
	"bool", "date", "null", "regex", "dbPointer", "javascript", "symbol", "javascriptWithScope", "int",
	"timestamp", "long", "decimal", "minKey", "maxKey"}

func (g *generator) appendConsideredValues(vals bson.A, exists bool) {
	if !exists {
		return
	}
	if len(vals) == 1 {
		g.appendObj("consideredValue", vals[0])
	} else {
		g.appendObj("consideredValues", vals)
	}
	if g.top().truncated {
		g.appendObj("consideredValuesTruncated", true)
	}
}

func (g *generator) appendConsideredTypes(vals bson.A, exists bool) {
	if !exists || len(vals) == 0 {
		return
	}
	var names []string
	for _, v := range vals {
		names = append(names, value.TypeName(v))
	}
	g.appendTypeNames("consideredType", "consideredTypes", names)
}

// values is createValuesArray: the values at path in the current
// document, as the leaf's ElementPath enumerates them, at most
// maxConsideredValues; ok is false when the path does not exist.
func (g *generator) values(path string, behavior leafBehavior) (bson.A, bool) {
	if path == "" {
		return bson.A{g.root}, true
	}
	var out bson.A
	enumerate(g.currentDoc(), splitPath(path), behavior, &out)
	if len(out) > maxConsideredValues {
		out = out[:maxConsideredValues]
		g.top().truncated = true
	}
	if len(out) == 0 {
		var all bson.A
		enumerate(g.currentDoc(), splitPath(path), traverse, &all)
		if len(all) == 0 {
			return nil, false
		}
		return bson.A{}, true
	}
	return out, true
}

// enumerate walks a path as BSONElementIterator does: arrays met before
// the leaf are traversed into their documents (and indexed by a numeric
// component); the leaf array is traversed or not according to behavior.
func enumerate(v any, parts []string, behavior leafBehavior, out *bson.A) {
	if len(parts) == 0 {
		if value.IsMissing(v) {
			return
		}
		if a, ok := v.(bson.A); ok && behavior != noTraversal {
			*out = append(*out, a...)
			if behavior == traverse {
				*out = append(*out, a)
			}
			return
		}
		*out = append(*out, v)
		return
	}
	switch x := v.(type) {
	case bson.D:
		enumerate(value.Get(x, parts[0]), parts[1:], behavior, out)
	case bson.A:
		if i, ok := value.ArrayIndex(parts[0]); ok && i < len(x) {
			enumerate(x[i], parts[1:], behavior, out)
		}
		for _, el := range x {
			if d, ok := el.(bson.D); ok {
				enumerate(value.Get(d, parts[0]), parts[1:], behavior, out)
			}
		}
	}
}

func splitPath(p string) []string { return strings.Split(p, ".") }
