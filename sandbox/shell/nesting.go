package shell

import "slices"

// goja's parser and compiler recurse once or more per level of nesting in
// the source, and a Go stack overflow ends the process: it cannot be
// recovered from. So code is measured before goja parses it, and code that
// nests deeper than nestingLimit is refused with the RangeError V8 (and so
// mongosh) gives for it.
//
// The measure is an upper bound on how deep goja's parse tree gets: each
// open bracket counts, and so does every operator, keyword and member
// access in the stretch of its level since the last comma or statement
// end (a chain a+b+c, a.b.c or !!!a nests as deep as it is long, even
// without brackets). That bound holds for valid code. goja's parser
// does not stop at a syntax error, though: it recovers and goes on, and
// some of its recoveries open levels no bracket shows (a missing { after
// try opens a block anyway) or skip closing brackets without closing
// anything. So the scan also checks, as goja's parser would, that each
// token can come where it is; at the first that cannot, the caller parses
// only the code up to it (which is shallow), and the syntax error goja
// reports there is the script's. A check can be wrong about valid code;
// the caller then finds no error in that prefix and tells the scan to go
// on.

// nestingLimit is the deepest nesting, as nestScan counts it, that code
// may have: a thousand nested brackets, or a chain of two thousand
// operators. mongosh's own parser gives up sooner (a few hundred
// brackets).
const nestingLimit = 2000

// nestResult is what the scan found.
type nestResult struct {
	tooDeep bool // the code nests deeper than the limit
	// badAt is the end of the first token that cannot be valid where it
	// is, as confirmed by the caller; -1 when there is none.
	badAt int
}

// nestScan measures code; confirm is asked about each token that looks
// invalid (the offset just past it) and says whether it really is, which
// ends the scan.
func nestScan(code string, limit int, confirm func(end int) bool) nestResult {
	s := &nestScanner{lex: nestLexer{src: code}, limit: limit, confirm: confirm, badAt: -1, operand: true, stmt: true}
	s.levels = append(s.levels, nestLevel{ctx: ctxStmts})
	s.depth = 1
	for !s.stop {
		t := s.lex.next(s.operand)
		if t.kind == tokEOF {
			break
		}
		s.token(t)
		s.prev, s.prevText = t, t.text(code)
	}
	return nestResult{tooDeep: s.tooDeep, badAt: s.badAt}
}

type nestCtx uint8

const (
	ctxStmts  nestCtx = iota // the top level, a block, a function or switch body
	ctxGroup                 // ( ) around an expression or arrow parameters
	ctxArgs                  // ( ) of a call
	ctxParams                // ( ) of a function's parameters
	ctxHeader                // ( ) after if, while, with, switch or catch
	ctxFor                   // ( ) after for
	ctxArray                 // [ ] array literal or pattern
	ctxIndex                 // [ ] member access or computed key
	ctxObject                // { } object literal or pattern
	ctxClass                 // { } class body
	ctxSubst                 // ${ } in a template literal
)

// nestAfter is what the enclosing level expects once a level closes.
type nestAfter uint8

const (
	afterOperand    nestAfter = iota // an operand ended (array, object, function or class expression)
	afterGroup                       // a parenthesized expression ended
	afterCall                        // a call or tagged template ended
	afterMember                      // a member access ended: it can be assigned to
	afterStatement                   // a statement ended (block, declaration, switch, do-while)
	afterBody                        // a loop's or if's condition ended: its body follows
	afterSwitchHead                  // switch's ( ): its { follows
	afterCatchHead                   // catch's ( ): its block follows
	afterParams                      // a function's parameters: its body follows
	afterPropKey                     // a computed key: the rest of the property follows
	afterProp                        // a method of an object literal ended
	afterMember2                     // a method, field or static block of a class body ended
	afterTemplate                    // a template substitution ended: the template goes on
	afterPattern                     // a destructuring pattern in a declaration ended
)

type nestWant uint8

const (
	wantNone     nestWant = iota
	wantHeader            // ( after if, while, with, switch
	wantFor               // ( or await after for
	wantBlock             // { after try or finally
	wantCatch             // ( or { after catch
	wantFuncName          // *, a name or ( after function
	wantParams            // ( after a function's name
	wantBody              // { after a function's parameters
	wantSwitch            // { after switch's ( )
	wantArrow             // => after ( ) or (...a)
	wantName              // a property name after .
	wantOptional          // a name, ( or [ after ?.
	wantSuper             // ., [ or ( after super
	wantBinding           // a name or a pattern after var, let, const
	wantLabel             // an optional label after break or continue
	wantSameLine          // throw's operand, on its line
	wantColon             // : after default
)

// funcKind is what a function's body closes into.
type funcKind uint8

const (
	funcDecl        funcKind = iota // a function declaration: a statement
	funcExpr                        // a function or arrow function expression: an operand
	funcObjMethod                   // a method of an object literal
	funcClassMethod                 // a method of a class body
)

type propState uint8

const (
	propStart    propState = iota // a property or class member may start
	propModifier                  // after get, set, async or static: a key or the member itself
	propStar                      // after *: a generator method's key
	propKey                       // after a key: (, :, =, a comma or the end
	propValue                     // an expression: a value, a spread, a field initializer
	propDone                      // after a method: a comma or the end
)

type nestLevel struct {
	ctx   nestCtx
	after nestAfter
	seg   int // counted tokens since the level's last comma or statement end
	// The segment starts over at the next token unless it continues the
	// statement that ended (else, catch, finally, a do's while).
	resetSoon bool

	fn, loop, swtch bool // return, continue, break are allowed here
	gen, async      bool // yield, await are operators here (a generator's or async function's body)
	asyncExpr       bool // an async arrow function's expression body is being read
	mGen, mAsync    bool // a method's * or async modifier was read
	asyncCall       bool // the ( ) after async: an async arrow function's parameters, maybe
	loops           int  // loops whose body is the statement running at this level
	dos             int  // do statements waiting for their while
	funcKind        funcKind

	// the expression being read
	ternary  int  // ? waiting for their :
	lhs      bool // what was read last can be assigned to
	pattern  bool // it is an array or object literal: a destructuring target
	poison   bool // an operator applies to it: it cannot be assigned to
	optional bool // it is an optional chain
	update   bool // a prefix ++ or -- waits for its operand
	commas   int
	spread   bool

	binding   bool     // the elements are binding targets (patterns, parameters)
	inDefault bool     // a binding element's default value is being read
	decl      bool     // a var, let or const declaration list runs here
	forPart   int      // which part of a for header
	forInOf   bool     // the for header is for-in or for-of
	case_     bool     // case or default waits for its :
	label     bool     // the statement so far is one name: a label may follow
	labels    []string // the labels of the statement being read
	prop      propState
	class     uint8 // 1 after class, 2 after its name, 3 in extends
	classFn   funcKind
	arrowish  bool // a ( ) that may be an arrow function's parameters
	loopHead  bool // the ( ) of a while or for: a loop's body follows
	doWhile   bool // the ( ) of the while that ends a do statement
}

type nestScanner struct {
	lex     nestLexer
	limit   int
	levels  []nestLevel
	depth   int
	confirm func(end int) bool

	operand  bool // an operand may start here; / starts a regular expression
	stmt     bool // a statement may start here
	optional bool // the operand is optional (return, yield)
	want     nestWant
	wantFn   funcKind
	// fnGen and fnAsync describe the function whose parameters or body
	// come next; arrowAsync says an arrow function that follows is async.
	fnGen, fnAsync, arrowAsync bool
	arrow                      bool // the previous token was =>
	afterNew                   bool
	maybeLet                   bool // the previous token was let at the start of a statement
	asyncFn                    bool // the previous token was async
	// restricted says that the previous token was return or yield, which
	// a line break ends.
	restricted bool
	// header is the keyword whose ( comes next; doWhile says a while ends
	// a do statement.
	header  string
	doWhile bool
	// stmtAsync says that the async before a function started a statement.
	stmtAsync  bool
	lastClosed nestCtx // the kind of the level closed last

	prev     nestToken
	prevText string

	badAt   int
	stop    bool
	tooDeep bool
}

func (s *nestScanner) top() *nestLevel { return &s.levels[len(s.levels)-1] }

// count counts a token of the current segment.
func (s *nestScanner) count() {
	s.top().seg++
	s.grow(1)
}

func (s *nestScanner) grow(n int) {
	s.depth += n
	if s.depth > s.limit {
		s.tooDeep, s.stop = true, true
	}
}

// push opens a level; its opening token counts in the enclosing one.
func (s *nestScanner) push(ctx nestCtx, after nestAfter) *nestLevel {
	s.count()
	p := s.top()
	l := nestLevel{ctx: ctx, after: after, fn: p.fn, loop: p.loop || p.loops > 0, swtch: p.swtch, gen: p.gen, async: p.async || p.asyncExpr}
	s.levels = append(s.levels, l)
	s.grow(1)
	s.operand, s.stmt, s.optional = true, ctx == ctxStmts, false
	return s.top()
}

func (s *nestScanner) pop() nestLevel {
	l := s.levels[len(s.levels)-1]
	s.levels = s.levels[:len(s.levels)-1]
	s.depth -= 1 + l.seg
	return l
}

func (s *nestScanner) resetSeg(l *nestLevel) {
	s.depth -= l.seg
	l.seg = 0
}

// bad reports a token that cannot be where it is.
func (s *nestScanner) bad(t nestToken) {
	if s.stop {
		return
	}
	if s.confirm(t.end) {
		s.badAt, s.stop = t.end, true
	}
}

func (s *nestScanner) needOperator(t nestToken) {
	if s.operand {
		s.bad(t)
	}
	s.endChain(t)
}

// endChain ends the operand being read: a prefix ++ or -- before it needs
// something it can assign to.
func (s *nestScanner) endChain(t nestToken) {
	l := s.top()
	if l.update && !l.lhs {
		s.bad(t)
	}
	l.update = false
}

// freshExpr starts a new assignment expression at the current level.
func (s *nestScanner) freshExpr() {
	l := s.top()
	l.lhs, l.pattern, l.poison, l.optional, l.update = false, false, false, false, false
}

// operandStart reads an operand: lhs says whether it can be assigned to.
func (s *nestScanner) operandStart(t nestToken, lhs bool) {
	if !s.operand {
		s.bad(t)
	}
	l := s.top()
	l.lhs, l.pattern, l.optional = lhs, false, false
	s.operand, s.stmt, s.optional = false, false, false
}

// endStatement ends a statement at the current level.
func (s *nestScanner) endStatement(t nestToken) {
	l := s.top()
	s.endChain(t)
	if l.ternary > 0 || l.class != 0 || s.want != wantNone {
		s.bad(t)
	}
	l.ternary, l.class, l.decl, l.label, l.case_, l.loops, l.asyncExpr = 0, 0, false, false, false, 0, false
	l.labels = l.labels[:0]
	l.resetSoon = true
	s.want = wantNone
	s.freshExpr()
	s.operand, s.stmt, s.optional = true, true, false
}

// statementLike reports whether a line break can end what is being read
// at the current level (automatic semicolon insertion).
func (s *nestScanner) statementLike() bool {
	l := s.top()
	if l.ternary > 0 {
		return false
	}
	switch l.ctx {
	case ctxStmts:
		return true
	case ctxClass:
		return l.prop == propValue || l.prop == propKey || l.prop == propModifier
	}
	return false
}

var nestReserved = map[string]bool{
	"break": true, "case": true, "catch": true, "class": true, "const": true, "continue": true, "debugger": true,
	"default": true, "delete": true, "do": true, "else": true, "enum": true, "export": true, "extends": true,
	"false": true, "finally": true, "for": true, "function": true, "if": true, "import": true, "in": true,
	"instanceof": true, "new": true, "null": true, "return": true, "super": true, "switch": true, "this": true,
	"throw": true, "true": true, "try": true, "typeof": true, "var": true, "void": true, "while": true, "with": true,
}

// continues reports whether a token on a new line goes on with the
// expression before it rather than starting a statement.
func continues(t nestToken, text string) bool {
	switch t.kind {
	case tokPunct:
		switch text {
		case "++", "--", "{", "!", "~", ";", "}":
			return false
		}
		return true
	case tokTemplate, tokTemplateSub:
		return true // a tagged template
	case tokName:
		return text == "in" || text == "instanceof"
	}
	return false
}

func (s *nestScanner) token(t nestToken) {
	text := t.text(s.lex.src)
	l := s.top()

	// break, continue, return and yield end at a line break.
	if s.want == wantLabel && (t.kind != tokName || t.nl || nestReserved[text]) {
		s.want = wantNone
		if !s.breakOK() {
			s.bad(t)
		}
	}
	if s.restricted && t.nl && s.statementLike() {
		s.operand = false
	}
	s.restricted = false
	// A line break ends a statement where the next token cannot go on
	// with it.
	if t.nl && !s.operand && s.statementLike() && !continues(t, text) && s.want == wantNone &&
		!(text == "of" && l.ctx == ctxFor) && !(l.class != 0 && text == "{") && !(s.maybeLet && (t.kind == tokName || text == "[" || text == "{")) {
		if l.ctx == ctxClass {
			s.endChain(t)
			l.prop = propStart
			s.freshExpr()
			s.operand, s.stmt = true, false
		} else {
			s.endStatement(t)
		}
	}
	if l.resetSoon {
		l.resetSoon = false
		if l.dos == 0 && !(t.kind == tokName && (text == "else" || text == "catch" || text == "finally" || text == "while")) {
			s.resetSeg(l)
		}
	}
	if l.label && !(t.kind == tokPunct && text == ":") {
		l.label = false
	}
	f := nestFlags{async: s.asyncFn, afterNew: s.afterNew, arrow: s.arrow}
	if s.maybeLet && (t.kind == tokName && !nestReserved[text] || text == "[" || text == "{") {
		// let was a declaration, not a name
		l.decl = true
		s.operand, s.stmt = true, false
		s.want = wantBinding
	}
	s.maybeLet, s.asyncFn, s.afterNew, s.arrow = false, false, false, false

	if s.want != wantNone && !s.satisfies(t, text) {
		s.bad(t)
		s.want = wantNone
	}
	if (l.ctx == ctxObject || l.ctx == ctxClass) && l.prop != propValue && s.want == wantNone {
		s.keyToken(t, text)
		return
	}
	if l.binding && s.operand && !l.inDefault && s.want == wantNone && l.ctx != ctxObject {
		if !bindingElement(t, text, l.ctx) {
			s.bad(t)
		}
		if text == "[" || text == "{" {
			s.want = wantBinding
		}
	}

	switch t.kind {
	case tokIllegal:
		s.bad(t)
	case tokName:
		s.name(t, text, f)
	case tokPrivate:
		if s.want == wantName || s.want == wantOptional {
			s.want = wantNone
			s.operand, s.stmt = false, false
			l.lhs = !l.optional
			return
		}
		s.operandStart(t, false)
	case tokNumber, tokString:
		s.operandStart(t, false)
	case tokRegex:
		// goja compiles a literal's pattern, and regexp2's parser
		// recurses once per nested group (regexguard.go).
		if regexNesting(text) > regexDepthLimit {
			s.tooDeep, s.stop = true, true
		}
		s.operandStart(t, false)
	case tokTemplate, tokTemplateSub:
		if !s.operand {
			// a tagged template
			if l.optional {
				s.bad(t)
			}
			s.count()
			l.lhs = false
		} else {
			s.operandStart(t, false)
		}
		if t.kind == tokTemplateSub {
			s.push(ctxSubst, afterTemplate)
		}
	case tokPunct:
		s.punct(t, text, f)
	}
}

// nestFlags are facts about the previous token that the current one
// needs.
type nestFlags struct {
	async    bool // it was async
	afterNew bool // it was new
	arrow    bool // it was =>
}

// satisfies reports whether t is what the previous tokens require; it
// takes the requirement off when it is met.
func (s *nestScanner) satisfies(t nestToken, text string) bool {
	w := s.want
	ok := false
	switch w {
	case wantHeader, wantParams:
		ok = text == "("
	case wantFor:
		ok = text == "(" || text == "await"
	case wantBlock, wantBody, wantSwitch:
		ok = text == "{"
	case wantCatch:
		ok = text == "(" || text == "{"
	case wantFuncName:
		ok = text == "*" || text == "(" || t.kind == tokName && !nestReserved[text]
	case wantArrow:
		ok = text == "=>"
	case wantName:
		ok = t.kind == tokName || t.kind == tokPrivate
	case wantOptional:
		ok = t.kind == tokName || t.kind == tokPrivate || text == "(" || text == "["
	case wantSuper:
		ok = text == "." || text == "[" || text == "("
	case wantBinding:
		ok = t.kind == tokName && !nestReserved[text] || text == "[" || text == "{"
	case wantLabel:
		s.want = wantNone
		s.operand = true // the label: read as a name
		return true
	case wantSameLine:
		s.want = wantNone
		return !t.nl
	case wantColon:
		ok = text == ":"
	}
	return ok
}

// breakOK reports whether the break or continue just read may stand
// without a label.
func (s *nestScanner) breakOK() bool {
	l := s.top()
	inLoop := l.loop || l.loops > 0
	if s.prevText == "continue" {
		return inLoop
	}
	return inLoop || l.swtch
}

func (s *nestScanner) name(t nestToken, text string, f nestFlags) {
	asyncFn, afterNew := f.async, f.afterNew
	l := s.top()
	switch s.want {
	case wantName, wantOptional:
		s.want = wantNone
		s.operand, s.stmt = false, false
		l.lhs = !l.optional
		return
	case wantFuncName:
		s.want = wantParams
		return
	case wantBinding:
		s.want = wantNone
		s.operand, s.stmt = false, false
		l.lhs = true
		return
	case wantFor:
		return // for await (
	}
	if s.prevText == "break" || s.prevText == "continue" {
		if s.operand && !t.nl && !nestReserved[text] && (s.prev.kind == tokName) {
			// the label
			s.operand = false
			return
		}
	}
	if l.class == 1 && !nestReserved[text] && text != "extends" {
		l.class = 2
		return
	}
	switch text {
	case "if", "while", "with", "switch":
		s.statementKeyword(t)
		s.want = wantHeader
		s.header, s.doWhile = text, text == "while" && l.dos > 0 && s.prevText != "do"
		return
	case "for":
		s.statementKeyword(t)
		s.want, s.header = wantFor, text
		return
	case "do":
		s.statementKeyword(t)
		l.dos++
		l.loops++
		s.operand, s.stmt = true, true
		return
	case "try", "finally":
		s.statementKeyword(t)
		s.want = wantBlock
		return
	case "catch":
		s.statementKeyword(t)
		s.want = wantCatch
		return
	case "else":
		s.statementKeyword(t)
		s.operand, s.stmt = true, true
		return
	case "return":
		s.statementKeyword(t)
		if !l.fn {
			s.bad(t)
		}
		s.operand, s.stmt, s.optional = true, false, true
		s.restricted = true
		return
	case "throw":
		s.statementKeyword(t)
		s.operand, s.stmt = true, false
		s.want = wantSameLine
		return
	case "break", "continue":
		s.statementKeyword(t)
		s.want = wantLabel
		return
	case "debugger":
		s.statementKeyword(t)
		s.operand, s.stmt = false, false
		return
	case "var", "const":
		if !(s.stmt || l.ctx == ctxFor && l.forPart == 0 && s.operand && l.seg == 0) {
			s.bad(t)
		}
		s.count()
		l.decl = true
		s.operand, s.stmt = true, false
		s.want = wantBinding
		return
	case "case", "default":
		s.statementKeyword(t)
		if !l.swtch || l.ctx != ctxStmts {
			s.bad(t)
		}
		l.case_ = true
		s.operand, s.stmt = true, false
		if text == "default" {
			s.want = wantColon
			s.operand = false
		}
		return
	case "function":
		if !s.operand && !asyncFn {
			s.bad(t)
		}
		s.count()
		s.wantFn = funcExpr
		s.fnGen, s.fnAsync = false, asyncFn
		if s.stmt || asyncFn && l.ctx == ctxStmts && s.stmtAsync {
			s.wantFn = funcDecl
		}
		s.want = wantFuncName
		s.operand, s.stmt = false, false
		return
	case "class":
		if !s.operand {
			s.bad(t)
		}
		s.count()
		l.class = 1
		l.classFn = funcExpr
		if s.stmt {
			l.classFn = funcDecl
		}
		s.operand, s.stmt = false, false
		return
	case "extends":
		if l.class != 1 && l.class != 2 {
			s.bad(t)
		}
		s.count()
		l.class = 3
		s.operand = true
		return
	case "new", "typeof", "void", "delete":
		if !s.operand {
			s.bad(t)
		}
		if l.update {
			s.bad(t)
		}
		s.count()
		l.poison = true
		s.operand, s.stmt, s.optional = true, false, false
		s.afterNew = text == "new"
		return
	case "in", "instanceof":
		s.needOperator(t)
		if l.ctx == ctxFor && l.forPart == 0 && text == "in" {
			s.forInOf(t)
			return
		}
		s.count()
		l.poison = true
		s.operand = true
		return
	case "of":
		if !s.operand && l.ctx == ctxFor && l.forPart == 0 {
			s.endChain(t)
			s.forInOf(t)
			return
		}
	case "yield":
		if s.operand && l.gen {
			s.count()
			s.freshExpr()
			s.operand, s.stmt, s.optional = true, false, true
			s.restricted = true
			return
		}
	case "await":
		if s.operand && (l.async || l.asyncExpr) {
			s.count()
			l.poison = true
			s.operand, s.stmt = true, false
			return
		}
	case "this", "null", "true", "false":
		s.operandStart(t, false)
		return
	case "super":
		s.operandStart(t, false)
		s.want = wantSuper
		return
	case "import", "export", "enum":
		s.bad(t)
		return
	}
	// A name: an identifier, or a contextual keyword used as one.
	if !s.operand {
		switch {
		case asyncFn && !t.nl:
			// async x => ...
			s.operand = true
			defer func() { s.want, s.arrowAsync = wantArrow, true }()
		case afterNew:
		default:
			s.bad(t)
		}
	}
	stmtStart := s.stmt
	s.operandStart(t, true)
	if stmtStart && l.ctx == ctxStmts {
		l.label = true
		s.maybeLet = text == "let"
	} else if l.ctx == ctxFor && l.forPart == 0 && l.seg == 0 {
		s.maybeLet = text == "let"
	}
	if text == "async" {
		s.asyncFn = true
		s.stmtAsync = stmtStart
	}
}

// labelled reports whether a statement around the current one has the
// label name.
func (s *nestScanner) labelled(name string) bool {
	for i := len(s.levels) - 1; i >= 0; i-- {
		l := &s.levels[i]
		if slices.Contains(l.labels, name) {
			return true
		}
		if l.fn && (i == 0 || !s.levels[i-1].fn) {
			return false // labels do not reach into a function
		}
	}
	return false
}

// statementKeyword reads a keyword that starts a statement (or, for else,
// catch, finally, a do's while, continues one).
func (s *nestScanner) statementKeyword(t nestToken) {
	if !s.stmt {
		s.bad(t)
	}
	s.count()
	s.operand, s.stmt = false, false
}

// forInOf reads the in or of of a for header, whose left side must be a
// declaration or something that can be assigned to.
func (s *nestScanner) forInOf(t nestToken) {
	l := s.top()
	if !l.decl && (l.poison || !l.lhs && !l.pattern) {
		s.bad(t)
	}
	l.forInOf, l.decl = true, false
	s.count()
	s.freshExpr()
	s.operand = true
}

// bindingElement reports whether t can start an element of a binding
// pattern or parameter list.
func bindingElement(t nestToken, text string, ctx nestCtx) bool {
	switch {
	case t.kind == tokName:
		return !nestReserved[text]
	case t.kind != tokPunct:
		return false
	}
	switch text {
	case "[", "{", "...":
		return true
	case ",", "]":
		return ctx == ctxArray
	case ")":
		return ctx == ctxParams
	}
	return false
}

func (s *nestScanner) punct(t nestToken, text string, f nestFlags) {
	l := s.top()
	switch text {
	case "(":
		s.openParen(t)
	case "[":
		switch {
		case s.want == wantBinding:
			s.want = wantNone
			s.push(ctxArray, afterPattern).binding = true
		case s.want == wantOptional || s.want == wantSuper:
			s.want = wantNone
			s.push(ctxIndex, afterMember)
		case s.operand:
			s.push(ctxArray, afterOperand)
		default:
			s.push(ctxIndex, afterMember)
		}
	case "{":
		s.openBrace(t, f)
	case ")", "]":
		s.closeBracket(t, text)
	case "}":
		s.closeBrace(t)
	case ";":
		switch l.ctx {
		case ctxFor:
			if s.operandMissing() && s.prevText != "(" && s.prevText != ";" || l.forInOf || l.forPart >= 2 || l.ternary > 0 || l.class != 0 {
				s.bad(t)
			}
			s.endChain(t)
			l.forPart++
			l.decl = false
			s.resetSeg(l)
			s.freshExpr()
			s.operand, s.optional = true, false
		case ctxStmts:
			if s.operandMissing() && !s.stmt {
				s.bad(t)
			}
			s.endStatement(t)
		case ctxClass:
			if s.operandMissing() || l.ternary > 0 {
				s.bad(t)
			}
			s.endChain(t)
			l.prop = propStart
			s.resetSeg(l)
			s.freshExpr()
			s.operand = true
		default:
			s.bad(t)
			s.endStatement(t)
		}
	case ",":
		if l.ternary > 0 || l.class != 0 || s.want != wantNone {
			s.bad(t)
		}
		switch l.ctx {
		case ctxArray:
			if s.operandMissing() && !l.binding && s.prevText != "[" && s.prevText != "," {
				s.bad(t)
			}
		case ctxObject:
			if s.operandMissing() {
				s.bad(t)
			}
			l.prop = propStart
		case ctxClass:
			s.bad(t)
		default:
			if s.operandMissing() {
				s.bad(t)
			}
		}
		s.endChain(t)
		l.commas++
		l.inDefault, l.asyncExpr = false, false
		s.resetSeg(l)
		s.freshExpr()
		s.operand, s.stmt, s.optional = true, false, false
		if l.decl {
			s.want = wantBinding
		}
	case "?":
		s.needOperator(t)
		s.count()
		l.ternary++
		s.freshExpr()
		s.operand = true
	case ":":
		switch {
		case l.ternary > 0:
			s.needOperator(t)
			l.ternary--
			s.count()
			s.freshExpr()
			s.operand = true
		case l.case_:
			if s.want == wantColon {
				s.want = wantNone
			} else {
				s.needOperator(t)
			}
			l.case_ = false
			s.freshExpr()
			s.operand, s.stmt = true, true
		case l.label && s.prev.kind == tokName:
			// goja reports a label inside a statement of the same
			// label once per pair: a chain of them costs it quadratic
			// memory.
			if s.labelled(s.prevText) {
				s.bad(t)
			}
			l.labels = append(l.labels, s.prevText)
			l.label = false
			s.count()
			s.operand, s.stmt = true, true
		default:
			s.bad(t)
		}
	case "=>":
		if s.operand || t.nl || !(s.prev.kind == tokName && !nestReserved[s.prevText] || s.prevText == ")" && (s.lastClosed == ctxGroup || s.lastClosed == ctxArgs)) {
			s.bad(t)
		}
		s.want = wantNone
		s.count()
		s.freshExpr()
		s.operand, s.stmt, s.arrow = true, false, true
		s.fnGen, s.fnAsync = false, s.arrowAsync
		s.arrowAsync = false
		if s.fnAsync {
			l.asyncExpr = true
		}
	case ".":
		if s.want == wantSuper {
			s.want = wantNone
		} else if !f.afterNew && s.operand {
			s.bad(t)
		}
		s.count()
		s.want = wantName
		s.operand = false
	case "?.":
		if s.operand {
			s.bad(t)
		}
		s.count()
		l.optional = true
		s.want = wantOptional
	case "...":
		if !s.operand || !(l.ctx == ctxArray || l.ctx == ctxArgs || l.ctx == ctxGroup || l.ctx == ctxParams) {
			s.bad(t)
		}
		s.count()
		l.spread = true
		s.freshExpr()
		s.operand = true
	case "++", "--":
		if s.operand {
			if l.update {
				s.bad(t)
			}
			s.count()
			l.poison, l.update = true, true
			return
		}
		if !l.lhs || l.optional {
			s.bad(t)
		}
		s.count()
		l.lhs = false
	case "!", "~":
		if !s.operand || l.update {
			s.bad(t)
		}
		s.count()
		l.poison = true
		s.stmt, s.optional = false, false
	case "+", "-":
		if s.operand {
			if l.update {
				s.bad(t)
			}
		} else {
			s.endChain(t)
		}
		s.count()
		l.poison = true
		s.operand, s.stmt, s.optional = true, false, false
	case "=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=", "||=", "??=":
		s.needOperator(t)
		if l.poison || l.optional || !l.lhs && !(l.pattern && text == "=") {
			s.bad(t)
		}
		if l.binding {
			l.inDefault = true
		}
		s.count()
		s.freshExpr()
		s.operand = true
	case "*":
		if s.want == wantFuncName {
			s.fnGen = true // function*
			return
		}
		if s.prevText == "yield" && s.operand {
			return // yield*
		}
		s.binary(t)
	default:
		s.binary(t)
	}
}

func (s *nestScanner) binary(t nestToken) {
	s.needOperator(t)
	s.count()
	s.top().poison = true
	s.operand, s.stmt, s.optional = true, false, false
}

// operandMissing reports whether an operand was due and did not come.
func (s *nestScanner) operandMissing() bool { return s.operand && !s.optional }

func (s *nestScanner) openParen(t nestToken) {
	l := s.top()
	switch s.want {
	case wantHeader:
		s.want = wantNone
		switch {
		case s.header == "switch":
			s.push(ctxHeader, afterSwitchHead)
		case s.doWhile:
			s.push(ctxHeader, afterStatement).doWhile = true
		default:
			s.push(ctxHeader, afterBody).loopHead = s.header == "while"
		}
		return
	case wantFor:
		s.want = wantNone
		s.push(ctxFor, afterBody).loopHead = true
		return
	case wantCatch:
		s.want = wantNone
		n := s.push(ctxParams, afterCatchHead)
		n.binding = true
		return
	case wantFuncName, wantParams:
		s.want = wantNone
		n := s.push(ctxParams, afterParams)
		n.binding, n.funcKind, n.mGen, n.mAsync = true, s.wantFn, s.fnGen, s.fnAsync
		return
	case wantSuper, wantOptional:
		s.want = wantNone
		s.push(ctxArgs, afterCall)
		return
	}
	if s.operand {
		s.push(ctxGroup, afterGroup)
		return
	}
	async := s.prevText == "async" && !l.optional
	s.push(ctxArgs, afterCall).asyncCall = async
}

func (s *nestScanner) openBrace(t nestToken, f nestFlags) {
	l := s.top()
	switch {
	case s.want == wantBody:
		s.want = wantNone
		s.body(s.wantFn)
	case s.want == wantBlock || s.want == wantCatch:
		s.want = wantNone
		s.push(ctxStmts, afterStatement)
	case s.want == wantSwitch:
		s.want = wantNone
		s.push(ctxStmts, afterStatement).swtch = true
	case s.want == wantBinding:
		s.want = wantNone
		s.push(ctxObject, afterPattern).binding = true
	case f.arrow:
		s.body(funcExpr)
	case l.class != 0 && (l.class != 3 || !s.operand):
		kind := l.classFn
		l.class = 0
		after := afterOperand
		if kind == funcDecl {
			after = afterStatement
		}
		n := s.push(ctxClass, after)
		n.fn, n.loop, n.swtch = false, false, false
		s.operand, s.stmt = true, false
	case s.stmt:
		s.push(ctxStmts, afterStatement)
	case s.operand:
		s.push(ctxObject, afterOperand)
	default:
		s.bad(t)
		s.push(ctxStmts, afterStatement)
	}
}

// body opens a function's body.
func (s *nestScanner) body(kind funcKind) {
	after := map[funcKind]nestAfter{funcDecl: afterStatement, funcExpr: afterOperand, funcObjMethod: afterProp, funcClassMethod: afterMember2}[kind]
	n := s.push(ctxStmts, after)
	n.fn, n.loop, n.swtch, n.gen, n.async = true, false, false, s.fnGen, s.fnAsync
}

// keyToken reads a token of an object literal or class body where a
// property or member, or its key, is read.
func (s *nestScanner) keyToken(t nestToken, text string) {
	l := s.top()
	class := l.ctx == ctxClass
	isKey := t.kind == tokName || t.kind == tokString || t.kind == tokNumber || t.kind == tokPrivate && class
	switch {
	case text == "}" && t.kind == tokPunct && l.prop != propStar:
		s.closeBrace(t)
		return
	case text == "[" && t.kind == tokPunct && (l.prop == propStart || l.prop == propModifier || l.prop == propStar):
		l.prop = propStart
		s.push(ctxIndex, afterPropKey)
		return
	}
	if l.prop == propStart {
		l.mGen, l.mAsync = false, false
	}
	switch l.prop {
	case propStart:
		switch {
		case t.kind == tokName && (text == "get" || text == "set" || text == "async" || text == "static" && class):
			l.prop = propModifier
			l.mAsync = text == "async"
		case isKey:
			l.prop = propKey
		case text == "*":
			l.prop, l.mGen = propStar, true
		case text == "..." && !class:
			s.count()
			l.prop = propValue
			s.freshExpr()
			s.operand = true
		case text == ";" && class:
		default:
			s.bad(t)
		}
	case propModifier:
		switch {
		case t.kind == tokName && (text == "get" || text == "set" || text == "async") && s.prevText == "static":
			l.mAsync = text == "async"
		case isKey:
			l.prop = propKey
			if s.prevText != "async" {
				l.mAsync = false // get, set or static was the modifier
			}
		case text == "*":
			l.prop, l.mGen = propStar, true
		case text == "{" && class && s.prevText == "static":
			n := s.push(ctxStmts, afterMember2)
			n.loop, n.swtch = false, false
		default:
			s.propAfterKey(t, text)
		}
	case propStar:
		if isKey {
			l.prop = propKey
		} else {
			s.bad(t)
		}
	case propKey:
		s.propAfterKey(t, text)
	case propDone:
		if text == "," && !class {
			l.prop = propStart
		} else {
			s.bad(t)
		}
	}
}

// propAfterKey reads what follows a property's or member's key.
func (s *nestScanner) propAfterKey(t nestToken, text string) {
	l := s.top()
	class := l.ctx == ctxClass
	switch {
	case text == "(" && !l.binding:
		kind := funcObjMethod
		if class {
			kind = funcClassMethod
		}
		gen, async := l.mGen, l.mAsync
		n := s.push(ctxParams, afterParams)
		n.binding, n.funcKind, n.mGen, n.mAsync = true, kind, gen, async
	case text == ":" && !class:
		s.count()
		l.prop = propValue
		s.freshExpr()
		s.operand = true
		if l.binding {
			s.want = wantBinding
		}
	case text == "=":
		s.count()
		l.prop = propValue
		s.freshExpr()
		s.operand = true
	case text == "," && !class:
		l.prop = propStart
	case text == ";" && class:
		l.prop = propStart
	default:
		s.bad(t)
	}
}

func (s *nestScanner) closeBracket(t nestToken, text string) {
	l := s.top()
	var ok bool
	if text == ")" {
		switch l.ctx {
		case ctxGroup, ctxArgs, ctxParams, ctxHeader, ctxFor:
			ok = true
		}
	} else {
		ok = l.ctx == ctxArray || l.ctx == ctxIndex
	}
	if !ok {
		s.bad(t)
		return
	}
	if s.operandMissing() {
		empty, trailing := s.prevText == "(" || s.prevText == "[", s.prevText == ","
		switch l.ctx {
		case ctxArgs, ctxParams:
			ok = empty || trailing
		case ctxGroup:
			ok = empty || trailing
			l.arrowish = true
		case ctxArray:
			ok = empty || trailing || l.binding
		case ctxFor:
			ok = l.forPart == 2
		default:
			ok = false
		}
		if !ok {
			s.bad(t)
		}
	}
	s.endChain(t)
	if l.ternary > 0 || l.class != 0 || s.want != wantNone || l.ctx == ctxFor && !l.forInOf && l.forPart != 2 {
		s.bad(t)
		s.want = wantNone
	}
	s.close(t)
}

func (s *nestScanner) closeBrace(t nestToken) {
	l := s.top()
	switch l.ctx {
	case ctxSubst:
		if s.operandMissing() {
			s.bad(t)
		}
	case ctxStmts:
		if len(s.levels) == 1 || s.operandMissing() && !s.stmt {
			s.bad(t)
			if len(s.levels) == 1 {
				return
			}
		}
	case ctxObject:
		if l.prop == propValue && s.operandMissing() || l.prop == propStar {
			s.bad(t)
		}
	case ctxClass:
		if l.prop == propValue && s.operandMissing() || l.prop == propStar {
			s.bad(t)
		}
	default:
		s.bad(t)
		return
	}
	s.endChain(t)
	if l.ternary > 0 || l.class != 0 || s.want != wantNone {
		s.bad(t)
		s.want = wantNone
	}
	s.close(t)
}

// close closes the innermost level and takes up the enclosing one where
// the closed level leaves it.
func (s *nestScanner) close(t nestToken) {
	c := s.pop()
	s.lastClosed = c.ctx
	p := s.top()
	s.operand, s.stmt, s.optional = false, false, false
	switch c.after {
	case afterOperand:
		p.lhs, p.pattern, p.optional = false, c.ctx == ctxArray || c.ctx == ctxObject, false
	case afterGroup:
		p.lhs = c.commas == 0 && c.lhs && !c.poison && !c.spread && !c.optional
		p.pattern, p.optional = false, false
		if c.arrowish || c.spread {
			s.want = wantArrow
		}
	case afterCall:
		p.lhs = false
		s.arrowAsync = c.asyncCall
	case afterMember:
		p.lhs = !p.optional
	case afterPattern:
		p.lhs, p.pattern = true, true
	case afterStatement:
		if c.doWhile {
			p.dos--
		}
		p.lhs = false
		s.endStatement(t)
	case afterBody:
		if c.loopHead {
			p.loops++
		}
		s.operand, s.stmt = true, true
	case afterSwitchHead:
		s.want = wantSwitch
	case afterCatchHead:
		s.want = wantBlock
	case afterParams:
		s.want, s.wantFn, s.fnGen, s.fnAsync = wantBody, c.funcKind, c.mGen, c.mAsync
	case afterPropKey:
		p.prop = propKey
	case afterProp:
		p.prop = propDone
	case afterMember2:
		p.prop = propStart
		s.resetSeg(p)
		s.operand = true
	case afterTemplate:
		switch s.lex.templateRest() {
		case tokTemplateSub:
			s.push(ctxSubst, afterTemplate)
		case tokTemplate:
		default:
			s.bad(nestToken{start: t.start, end: s.lex.pos})
		}
	}
}
