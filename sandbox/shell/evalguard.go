package shell

import (
	"errors"
	"reflect"
	"slices"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
)

// A script can compile code at run time: eval, and the Function,
// AsyncFunction and GeneratorFunction constructors, however it reaches
// them ((0, eval)(s), globalThis.eval, Reflect.construct(Function, ...),
// (async () => {}).constructor). goja compiles that code with the same
// parser, so each of these runs the nesting guard (nesting.go) first:
// code too deep is refused with V8's RangeError before goja sees it.
//
// Direct eval, eval(s) inside a function, sees that function's variables,
// and goja gives that only when the function called is its own eval. So
// the name eval keeps goja's eval, in a global let that hides the global
// object's property, while the property (globalThis.eval) becomes the
// guarded eval. What the shell compiles is then rewritten so that the
// original never escapes: a direct call eval(s) becomes
// eval(evalArgGuard(s)), which checks s (and rewrites it in turn), and
// any other use of the name, (0, eval) or const e = eval, becomes the
// guarded eval. Code given to the guarded eval or to a constructor is
// rewritten the same way, so at every depth the original is only ever
// called directly, on checked code.

const (
	evalGuardName = "$$eval"    // the guarded eval, as the rewrite names it
	evalArgName   = "$$evalArg" // the check of a direct eval's argument
)

// evalInit binds the names: eval to goja's own, in a global let that hides
// the global object's property, and the rewrite's two.
const evalInit = `let eval = __sl_original; const ` + evalGuardName + ` = __sl_guarded, ` + evalArgName + ` = __sl_arg;
delete globalThis.__sl_original; delete globalThis.__sl_guarded; delete globalThis.__sl_arg;`

// evalNames holds the names that make an eval rewrite necessary: the name
// itself, or an escape that can spell it.
func mentionsEval(code string) bool {
	return strings.Contains(code, "eval") || strings.Contains(code, `\u`)
}

// installCompileGuards puts the guard in front of eval and the function
// constructors of the runtime.
func (s *Shell) installCompileGuards() error {
	vm := s.vm
	original := vm.Get("eval")
	originalEval, ok := goja.AssertFunction(original)
	if !ok {
		return errors.New("no eval")
	}
	// eval as a function: indirect, in the global scope.
	guarded := vm.ToValue(func(c goja.FunctionCall) goja.Value {
		v := c.Argument(0)
		if !isString(v) {
			return v
		}
		src := s.guardCode(v.String())
		r, err := originalEval(goja.Undefined(), vm.ToValue(src))
		if err != nil {
			panic(err)
		}
		return r
	}).ToObject(vm)
	setFunctionName(vm, guarded, "eval", 1)
	argGuard := vm.ToValue(func(c goja.FunctionCall) goja.Value {
		v := c.Argument(0)
		if !isString(v) {
			return v
		}
		return vm.ToValue(s.guardCode(v.String()))
	})
	global := vm.GlobalObject()
	if err := global.Set("__sl_original", original); err != nil {
		return err
	}
	if err := global.Set("__sl_guarded", guarded); err != nil {
		return err
	}
	if err := global.Set("__sl_arg", argGuard); err != nil {
		return err
	}
	if _, err := s.runGuardProgram("eval"); err != nil {
		return err
	}
	if err := global.DefineDataProperty("eval", guarded, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return err
	}

	ctor, err := s.guardConstructor(global.Get("Function").ToObject(vm), "function", nil, originalEval)
	if err != nil {
		return err
	}
	if err := global.DefineDataProperty("Function", ctor, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return err
	}
	for prefix, sample := range map[string]string{"async function": "async", "function*": "generator"} {
		fn, err := s.runGuardProgram(sample)
		if err != nil {
			return err
		}
		proto := fn.ToObject(vm).Prototype()
		if _, err := s.guardConstructor(proto.Get("constructor").ToObject(vm), prefix, ctor, originalEval); err != nil {
			return err
		}
	}
	return nil
}

// guardConstructor replaces a function constructor (Function,
// AsyncFunction, GeneratorFunction) with one that checks the code before
// goja compiles it with eval, its own eval, as goja's constructors do;
// parent is Function for the other two, whose own prototype it is.
func (s *Shell) guardConstructor(original *goja.Object, keyword string, parent *goja.Object, eval goja.Callable) (*goja.Object, error) {
	vm := s.vm
	proto := original.Get("prototype").ToObject(vm)
	var wrapper *goja.Object
	create := func(args []goja.Value, newTarget *goja.Object) *goja.Object {
		// As goja builds it: the parameters, then the body, each
		// converted to a string once and in order.
		var sb strings.Builder
		sb.WriteString("(" + keyword + " anonymous(")
		if len(args) > 1 {
			for i, a := range args[:len(args)-1] {
				if i > 0 {
					sb.WriteByte(',')
				}
				sb.WriteString(a.String())
			}
		}
		sb.WriteString("\n) {\n")
		if len(args) > 0 {
			sb.WriteString(args[len(args)-1].String())
		}
		sb.WriteString("\n})")
		fn, err := eval(goja.Undefined(), vm.ToValue(s.guardCode(sb.String())))
		if err != nil {
			panic(err)
		}
		obj := fn.ToObject(vm)
		if newTarget != nil && newTarget != wrapper {
			if p, ok := newTarget.Get("prototype").(*goja.Object); ok {
				_ = obj.SetPrototype(p)
			}
		}
		return obj
	}
	wrapper = vm.ToValue(func(c goja.ConstructorCall) *goja.Object {
		return create(c.Arguments, c.NewTarget)
	}).ToObject(vm)
	name := original.Get("name").String()
	setFunctionName(vm, wrapper, name, 1)
	if err := wrapper.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		return nil, err
	}
	if err := proto.DefineDataProperty("constructor", wrapper, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return nil, err
	}
	if parent != nil {
		if err := wrapper.SetPrototype(parent); err != nil {
			return nil, err
		}
	}
	return wrapper, nil
}

func setFunctionName(vm *goja.Runtime, fn *goja.Object, name string, length int) {
	_ = fn.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	_ = fn.DefineDataProperty("length", vm.ToValue(length), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
}

// isString reports whether v is a string (not a String object).
func isString(v goja.Value) bool {
	_, ok := v.(goja.String)
	return ok
}

// guardCode checks code that goja is about to compile at run time and
// returns what it may compile: the code, rewritten so that it cannot
// reach the unguarded eval, or, when it has a syntax error, only the part
// up to it (goja then reports that error, and its parser never reads the
// rest). It throws a RangeError for code nested too deeply.
func (s *Shell) guardCode(code string) string {
	if !mentionsEval(code) {
		check := checkSource(code)
		if check.tooDeep {
			s.throw("RangeError", msgTooDeep)
		}
		if check.cut >= 0 {
			return code[:check.cut]
		}
		return code
	}
	prog, cut, err := parseChecked("", code)
	switch {
	case errors.Is(err, errCodeTooDeep):
		s.throw("RangeError", msgTooDeep)
	case err != nil:
		if cut >= 0 {
			return code[:cut]
		}
		return code
	}
	code, err = rewriteEvalRefs(code, prog)
	if err != nil {
		s.throw("Error", "%s", err.Error())
	}
	return code
}

// rewriteEvalRefs rewrites code, parsed as prog, so that every use of the
// name eval that the global eval answers goes through the guard: a
// direct call checks its argument, anything else gets the guarded eval.
// A name eval that a declaration around it binds is left alone.
func rewriteEvalRefs(code string, prog *ast.Program) (string, error) {
	w := &evalRewrite{code: code, skip: map[*ast.Identifier]bool{}}
	w.walk(prog, false)
	if len(w.edits) == 0 {
		return code, nil
	}
	return applyEdits(code, w.edits)
}

type evalRewrite struct {
	code  string
	skip  map[*ast.Identifier]bool // names that are not read: keys, labels, declarations, assignment targets
	edits []edit
}

func isEval(n ast.Node) bool {
	id, ok := n.(*ast.Identifier)
	return ok && id != nil && id.Name == "eval"
}

// span is where identifier id is in the code; its Idx1 is wrong when the
// name is spelled with escapes.
func (w *evalRewrite) span(id *ast.Identifier) (int, int) {
	at := int(id.Idx) - 1
	l := nestLexer{src: w.code, pos: at}
	l.identRest()
	return at, l.pos
}

func (w *evalRewrite) walk(n ast.Node, local bool) {
	if n == nil || reflect.ValueOf(n).Kind() == reflect.Pointer && reflect.ValueOf(n).IsNil() {
		return
	}
	switch x := n.(type) {
	case *ast.Identifier:
		if x.Name == "eval" && !local && !w.skip[x] {
			at, end := w.span(x)
			w.edits = append(w.edits, edit{at: at, end: end, rank: 1, text: evalGuardName})
		}
		return
	case *ast.CallExpression:
		if isEval(x.Callee) && !local {
			w.skip[x.Callee.(*ast.Identifier)] = true
			if len(x.ArgumentList) > 0 {
				open, end := int(x.LeftParenthesis), int(x.RightParenthesis)-1
				w.edits = append(w.edits, edit{at: open, end: open, text: evalArgName + "("}, edit{at: end, end: end, rank: 2, text: ")"})
			}
		}
	case *ast.PropertyShort:
		// {eval} in an object literal reads eval; in a pattern it binds
		// it (marked as a target below).
		if x.Name.Name == "eval" && !local && !w.skip[&x.Name] {
			_, end := w.span(&x.Name)
			w.edits = append(w.edits, edit{at: end, end: end, text: ": " + evalGuardName})
		}
		w.skip[&x.Name] = true
	case *ast.DotExpression:
		w.skip[&x.Identifier] = true
	case *ast.PrivateIdentifier:
		w.skip[&x.Identifier] = true
	case *ast.LabelledStatement:
		w.skip[x.Label] = true
	case *ast.BranchStatement:
		w.skip[x.Label] = true
	case *ast.MetaProperty:
		w.skip[x.Meta], w.skip[x.Property] = true, true
	case *ast.Binding:
		w.targets(x.Target)
	case *ast.ParameterList:
		w.targets(x.Rest)
	case *ast.CatchStatement:
		w.targets(x.Parameter)
		local = local || bindsEval(x.Parameter)
	case *ast.ForDeclaration:
		w.targets(x.Target)
	case *ast.ForIntoExpression:
		w.targets(x.Expression)
	case *ast.AssignExpression:
		w.targets(x.Left)
	case *ast.ArrayPattern, *ast.ObjectPattern:
		w.targets(x)
	case *ast.UnaryExpression:
		if x.Operator == token.INCREMENT || x.Operator == token.DECREMENT {
			w.targets(x.Operand)
		}
	case *ast.FunctionLiteral:
		if x.Name != nil {
			w.skip[x.Name] = true
		}
		local = local || isEval(x.Name) || functionBindsEval(x.ParameterList, x.DeclarationList, x.Body)
	case *ast.ArrowFunctionLiteral:
		var body *ast.BlockStatement
		if b, ok := x.Body.(*ast.BlockStatement); ok {
			body = b
		}
		local = local || functionBindsEval(x.ParameterList, x.DeclarationList, body)
	case *ast.ClassLiteral:
		if x.Name != nil {
			w.skip[x.Name] = true
		}
		local = local || isEval(x.Name)
	case *ast.ClassStaticBlock:
		local = local || functionBindsEval(nil, x.DeclarationList, x.Block)
	case *ast.BlockStatement:
		local = local || blockBindsEval(x.List)
	case *ast.SwitchStatement:
		for _, c := range x.Body {
			local = local || blockBindsEval(c.Consequent)
		}
	case *ast.ForStatement:
		if d, ok := x.Initializer.(*ast.ForLoopInitializerLexicalDecl); ok {
			for _, b := range d.LexicalDeclaration.List {
				local = local || bindsEval(b.Target)
			}
		}
	case *ast.ForInStatement:
		if d, ok := x.Into.(*ast.ForDeclaration); ok {
			local = local || bindsEval(d.Target)
		}
	case *ast.ForOfStatement:
		if d, ok := x.Into.(*ast.ForDeclaration); ok {
			local = local || bindsEval(d.Target)
		}
	case *ast.PropertyKeyed:
		if !x.Computed {
			if id, ok := x.Key.(*ast.Identifier); ok {
				w.skip[id] = true
			}
		}
	case *ast.MethodDefinition:
		if id, ok := x.Key.(*ast.Identifier); ok && !x.Computed {
			w.skip[id] = true
		}
	case *ast.FieldDefinition:
		if id, ok := x.Key.(*ast.Identifier); ok && !x.Computed {
			w.skip[id] = true
		}
	}
	forEachChild(n, func(c ast.Node) { w.walk(c, local) })
}

// targets marks the names that n, a binding or assignment target, binds
// or writes: they are not reads. Default values inside it are reads.
func (w *evalRewrite) targets(n ast.Node) {
	switch x := n.(type) {
	case *ast.Identifier:
		w.skip[x] = true
	case *ast.ArrayPattern:
		for _, e := range x.Elements {
			w.targets(e)
		}
		w.targets(x.Rest)
	case *ast.ObjectPattern:
		for _, p := range x.Properties {
			switch p := p.(type) {
			case *ast.PropertyShort:
				w.skip[&p.Name] = true
			case *ast.PropertyKeyed:
				w.targets(p.Value)
			}
		}
		w.targets(x.Rest)
	case *ast.AssignExpression:
		w.targets(x.Left)
	case *ast.Binding:
		w.targets(x.Target)
	}
}

// bindsEval reports whether target, a binding target, declares eval.
func bindsEval(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.Identifier:
		return x.Name == "eval"
	case *ast.ArrayPattern:
		return slices.ContainsFunc(x.Elements, func(e ast.Expression) bool { return bindsEval(e) }) || bindsEval(x.Rest)
	case *ast.ObjectPattern:
		for _, p := range x.Properties {
			switch p := p.(type) {
			case *ast.PropertyShort:
				if p.Name.Name == "eval" {
					return true
				}
			case *ast.PropertyKeyed:
				if bindsEval(p.Value) {
					return true
				}
			}
		}
		return bindsEval(x.Rest)
	case *ast.AssignExpression:
		return bindsEval(x.Left)
	case *ast.Binding:
		return bindsEval(x.Target)
	}
	return false
}

// functionBindsEval reports whether a function declares eval in its own
// scope: a parameter, a var, or a declaration at the top of its body.
func functionBindsEval(params *ast.ParameterList, vars []*ast.VariableDeclaration, body *ast.BlockStatement) bool {
	if params != nil {
		for _, b := range params.List {
			if bindsEval(b) {
				return true
			}
		}
		if bindsEval(params.Rest) {
			return true
		}
	}
	for _, v := range vars {
		for _, b := range v.List {
			if bindsEval(b) {
				return true
			}
		}
	}
	return body != nil && blockBindsEval(body.List)
}

// blockBindsEval reports whether statements declare eval in their block.
func blockBindsEval(list []ast.Statement) bool {
	for _, st := range list {
		switch d := st.(type) {
		case *ast.LexicalDeclaration:
			for _, b := range d.List {
				if bindsEval(b) {
					return true
				}
			}
		case *ast.FunctionDeclaration:
			if d.Function != nil && isEval(d.Function.Name) {
				return true
			}
		case *ast.ClassDeclaration:
			if d.Class != nil && isEval(d.Class.Name) {
				return true
			}
		}
	}
	return false
}
