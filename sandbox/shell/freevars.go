package shell

import (
	"reflect"
	"slices"

	"github.com/dop251/goja/ast"
)

// freeNames lists the identifiers a function's source reads or writes
// without declaring them: the names it takes from the scope it was
// created in. A function re-created from its source in another runtime
// (ExportGlobals) behaves the same only if each of them is a global there
// too.
//
// Scopes are flattened: a name declared anywhere in the function (a
// parameter, a var, let or const, a nested function's parameter, a catch
// parameter) counts as declared everywhere in it. That is coarser than
// JavaScript's block scoping, and it errs in one direction only: a
// function that declares x in one block and reads a captured x in
// another is taken to capture nothing. Lesson code does not do that.
func freeNames(src string) ([]string, error) {
	prog, err := parseFile("", "("+src+")")
	if err != nil {
		return nil, err
	}
	w := &nameWalk{used: map[string]bool{}, declared: map[string]bool{}}
	for _, st := range prog.Body {
		w.node(st, false)
	}
	var free []string
	for name := range w.used {
		if !w.declared[name] && name != "arguments" {
			free = append(free, name)
		}
	}
	slices.Sort(free)
	return free, nil
}

type nameWalk struct{ used, declared map[string]bool }

// node records the identifiers under n; declare says n is a binding
// target (a declaration or a destructuring pattern in one).
func (w *nameWalk) node(n ast.Node, declare bool) {
	if n == nil || reflect.ValueOf(n).Kind() != reflect.Pointer || reflect.ValueOf(n).IsNil() {
		return
	}
	switch x := n.(type) {
	case *ast.Identifier:
		if declare {
			w.declared[string(x.Name)] = true
		} else {
			w.used[string(x.Name)] = true
		}
	case *ast.Binding:
		w.node(x.Target, true)
		w.node(x.Initializer, false)
	case *ast.ParameterList:
		for _, b := range x.List {
			w.node(b, true)
		}
		w.node(x.Rest, true)
	case *ast.FunctionLiteral:
		if x.Name != nil {
			w.declared[string(x.Name.Name)] = true
		}
		w.node(x.ParameterList, true)
		w.node(x.Body, false)
	case *ast.ClassLiteral:
		if x.Name != nil {
			w.declared[string(x.Name.Name)] = true
		}
		w.node(x.SuperClass, false)
		for _, el := range x.Body {
			w.node(el, false)
		}
	case *ast.CatchStatement:
		w.node(x.Parameter, true)
		w.node(x.Body, false)
	case *ast.ForDeclaration:
		w.node(x.Target, true)
	case *ast.LabelledStatement:
		w.node(x.Statement, false)
	case *ast.BranchStatement, *ast.MetaProperty:
		// labels and new.target are not variables
	case *ast.DotExpression:
		w.node(x.Left, false)
	case *ast.PrivateDotExpression:
		w.node(x.Left, false)
	case *ast.PropertyShort:
		if declare {
			w.declared[string(x.Name.Name)] = true
		} else {
			w.used[string(x.Name.Name)] = true
		}
		w.node(x.Initializer, false)
	case *ast.PropertyKeyed:
		if x.Computed {
			w.node(x.Key, false)
		}
		w.node(x.Value, declare)
	case *ast.MethodDefinition:
		if x.Computed {
			w.node(x.Key, false)
		}
		w.node(x.Body, false)
	case *ast.FieldDefinition:
		if x.Computed {
			w.node(x.Key, false)
		}
		w.node(x.Initializer, false)
	case *ast.AssignExpression:
		// In a pattern, `a = 1` is a target with its default.
		w.node(x.Left, declare)
		w.node(x.Right, false)
	default:
		w.fields(reflect.ValueOf(n).Elem(), declare)
	}
}

// fields walks the nodes held by the fields of struct v. Patterns keep
// the declare mode of the binding they are in; everything else below a
// node that is not a pattern is an expression or a statement.
func (w *nameWalk) fields(v reflect.Value, declare bool) {
	switch v.Interface().(type) {
	case ast.ArrayPattern, ast.ObjectPattern, ast.SpreadElement:
	default:
		declare = false
	}
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Interface, reflect.Pointer:
			if f.IsNil() {
				continue
			}
			if n, ok := f.Interface().(ast.Node); ok {
				w.node(n, declare)
			}
		case reflect.Slice:
			for j := range f.Len() {
				if n, ok := f.Index(j).Interface().(ast.Node); ok {
					w.node(n, declare)
				}
			}
		case reflect.Struct:
			// An embedded or value field that is a node itself
			// (ForLoopInitializerLexicalDecl's declaration); identifiers
			// held by value are property names, not variables.
			switch f.Interface().(type) {
			case ast.Identifier, ast.PrivateIdentifier:
				continue
			}
			if f.CanAddr() {
				if n, ok := f.Addr().Interface().(ast.Node); ok {
					w.node(n, declare)
				}
			}
		}
	}
}
