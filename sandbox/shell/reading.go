package shell

import (
	"fmt"
	"strings"

	"github.com/dop251/goja/ast"
)

// What lessons need to know of a piece of mongosh JavaScript, read the
// one way the shell reads it (parseScript: goja's parser, with `for
// await` and the shell's source-map refusal), so that no caller reads a
// learner's code with patterns of its own.

// AggregateCall reports whether code is one statement that calls
// aggregate with a single array literal on a collection (db.name,
// db.getCollection('name'), or a chain of them, as db.getSiblingDB('x')
// is not: a stage preview runs on the lesson's database), and returns
// the source of the collection expression and of the array.
func AggregateCall(code string) (coll, pipeline string, ok bool) {
	prog, _, err := parseScript("", code)
	if err != nil {
		return "", "", false
	}
	var body []ast.Statement
	for _, st := range prog.Body {
		if _, empty := st.(*ast.EmptyStatement); !empty {
			body = append(body, st)
		}
	}
	if len(body) != 1 {
		return "", "", false
	}
	es, isExpr := body[0].(*ast.ExpressionStatement)
	if !isExpr {
		return "", "", false
	}
	call, isCall := es.Expression.(*ast.CallExpression)
	if !isCall || len(call.ArgumentList) != 1 {
		return "", "", false
	}
	callee, isDot := call.Callee.(*ast.DotExpression)
	if !isDot || callee.Identifier.Name != "aggregate" || !isCollectionExpr(callee.Left) {
		return "", "", false
	}
	arr, isArray := call.ArgumentList[0].(*ast.ArrayLiteral)
	if !isArray {
		return "", "", false
	}
	return nodeSource(code, callee.Left), nodeSource(code, arr), true
}

// isCollectionExpr reports whether e names a collection of the session's
// database: db followed by at least one .name or .getCollection('name').
func isCollectionExpr(e ast.Expression) bool {
	switch x := e.(type) {
	case *ast.DotExpression:
		if id, ok := x.Left.(*ast.Identifier); ok {
			return id.Name == "db"
		}
		return isCollectionExpr(x.Left)
	case *ast.CallExpression:
		dot, ok := x.Callee.(*ast.DotExpression)
		if !ok || dot.Identifier.Name != "getCollection" || len(x.ArgumentList) != 1 {
			return false
		}
		if _, ok := x.ArgumentList[0].(*ast.StringLiteral); !ok {
			return false
		}
		if id, ok := dot.Left.(*ast.Identifier); ok {
			return id.Name == "db"
		}
		return isCollectionExpr(dot.Left)
	}
	return false
}

// nodeSource is the source text of n; goja's positions are 1-based.
func nodeSource(code string, n ast.Node) string {
	from, to := int(n.Idx0())-1, int(n.Idx1())-1
	if from < 0 || to > len(code) || from > to {
		return ""
	}
	return code[from:to]
}

// ShapeToken is one element of a program's shape and its line (1-based)
// in the code.
type ShapeToken struct {
	Text string
	Line int
}

// Shape is code as the shell reads it, as a list of tokens that two
// programs share exactly when they are the same code apart from comments,
// layout and the text of strings: every node of the syntax tree with its
// names, operators, numbers and regular expressions, and brackets around
// its children. String and template text is blanked, except a property
// name, which is code however it is quoted. Code with a top-level await
// is read inside an async function, as mongosh allows it.
//
// What it is for: a translated lesson must run the code of the lesson it
// translates, and only its comments and display strings may differ.
func Shape(code string) ([]ShapeToken, error) {
	prog, _, err := parseScript("", code)
	offset := 0
	if err != nil && strings.Contains(code, "await") {
		if p2, _, err2 := parseScript("", "(async () => {\n"+code+"\n})"); err2 == nil {
			prog, err, offset = p2, nil, 1
		}
	}
	if err != nil {
		return nil, err
	}
	w := &shapeWalk{prog: prog, offset: offset, line: 1}
	for _, st := range prog.Body {
		w.node(st)
	}
	return w.out, nil
}

type shapeWalk struct {
	prog   *ast.Program
	offset int
	line   int
	out    []ShapeToken
}

func (w *shapeWalk) emit(s string) { w.out = append(w.out, ShapeToken{Text: s, Line: w.line}) }

// node emits n's kind, what it holds besides its children, and its
// children in brackets.
func (w *shapeWalk) node(n ast.Node) {
	if p := w.prog.File.Position(int(n.Idx0()) - w.prog.File.Base()); p.Line > 0 {
		w.line = p.Line - w.offset
	}
	w.emit(fmt.Sprintf("%T", n))
	switch x := n.(type) {
	case *ast.StringLiteral:
		w.emit(`""`)
		return
	case *ast.TemplateElement:
		w.emit("``")
		return
	case *ast.PropertyKeyed:
		w.emit(string(x.Kind))
		w.emit(fmt.Sprint(x.Computed))
		if key, ok := x.Key.(*ast.StringLiteral); ok && !x.Computed {
			// A property name is a field name, code however it is quoted.
			w.emit("key:" + string(key.Value))
			w.emit("(")
			w.node(x.Value)
			w.emit(")")
			return
		}
	case *ast.Identifier:
		w.emit(string(x.Name))
	case *ast.PrivateIdentifier:
		w.emit(string(x.Name))
	case *ast.NumberLiteral:
		w.emit(x.Literal)
	case *ast.BooleanLiteral:
		w.emit(x.Literal)
	case *ast.RegExpLiteral:
		w.emit("/" + x.Pattern + "/" + x.Flags)
	case *ast.AssignExpression:
		w.emit(x.Operator.String())
	case *ast.BinaryExpression:
		w.emit(x.Operator.String())
	case *ast.UnaryExpression:
		w.emit(x.Operator.String())
		w.emit(fmt.Sprint(x.Postfix))
	case *ast.BranchStatement:
		w.emit(x.Token.String())
	case *ast.LexicalDeclaration:
		w.emit(x.Token.String())
	case *ast.FunctionLiteral:
		w.emit(fmt.Sprint(x.Async, x.Generator))
	case *ast.ArrowFunctionLiteral:
		w.emit(fmt.Sprint(x.Async))
	case *ast.MethodDefinition:
		w.emit(string(x.Kind))
		w.emit(fmt.Sprint(x.Computed, x.Static))
	case *ast.FieldDefinition:
		w.emit(fmt.Sprint(x.Computed, x.Static))
	case *ast.ClassStaticBlock:
		w.emit("static")
	}
	w.emit("(")
	forEachChild(n, w.node)
	w.emit(")")
}
