package shell

import (
	"fmt"
	"reflect"

	"github.com/dop251/goja"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// native is one Go function the prelude calls as n.<name>. The natives
// are listed in tables by area (natives_crud.go, natives_cursor.go,
// natives_admin.go, natives_session.go, natives_print.go, natives_loop.go,
// natives_bson.go), built for each runtime, so no package state holds
// them; everything that touches BSON or the driver is one of them.
type native struct {
	name string
	fn   func(*Shell, goja.FunctionCall) goja.Value
	// writes marks the natives that may change the database; an
	// evaluation that called one reports Result.Wrote.
	writes bool
}

// nativeTables are the natives of every area.
func nativeTables() [][]native {
	return [][]native{crudNatives(), cursorNatives(), adminNatives(), sessionNatives(), printNatives(), loopNatives(), bsonNatives()}
}

// natives builds the object the prelude calls into: the natives, and the
// two symbols of this runtime that mark the shell's objects and Promises.
func (s *Shell) natives() *goja.Object {
	return s.vm.NewDynamicObject(&nativeObject{s: s, tables: nativeTables(), made: map[string]goja.Value{}})
}

// nativeObject is the prelude's n. It makes a native's function the first
// time the prelude reads it: a session calls few of its natives, and
// making all of them was an eighth of the cost of a new runtime.
type nativeObject struct {
	s      *Shell
	tables [][]native
	made   map[string]goja.Value
}

func (o *nativeObject) Get(name string) goja.Value {
	switch name {
	case "typeSymbol":
		return o.s.typeSym
	case "promiseSymbol":
		return o.s.promiseMark
	}
	if fn, ok := o.made[name]; ok {
		return fn
	}
	nv, ok := o.find(name)
	if !ok {
		return nil
	}
	fn := o.s.vm.ToValue(o.s.bind(nv))
	o.made[name] = fn
	return fn
}

func (o *nativeObject) find(name string) (native, bool) {
	for _, table := range o.tables {
		for _, nv := range table {
			if nv.name == name {
				return nv, true
			}
		}
	}
	return native{}, false
}

func (o *nativeObject) Has(name string) bool {
	_, ok := o.find(name)
	return ok || name == "typeSymbol" || name == "promiseSymbol"
}

func (o *nativeObject) Keys() []string {
	keys := []string{"typeSymbol", "promiseSymbol"}
	for _, table := range o.tables {
		for _, nv := range table {
			keys = append(keys, nv.name)
		}
	}
	return keys
}

// The natives are read-only.
func (o *nativeObject) Set(string, goja.Value) bool { return false }
func (o *nativeObject) Delete(string) bool          { return false }

// bind makes a native callable from JavaScript. A Go panic inside it (a
// bug, never a script's doing) becomes a JavaScript error, so that no
// script can take the process down; JavaScript exceptions and interrupts
// pass through untouched.
func (s *Shell) bind(nv native) func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) goja.Value {
		defer func() {
			if r := recover(); r != nil {
				panic(s.jsPanic(r))
			}
		}()
		if nv.writes && s.result != nil {
			s.result.Wrote = true
		}
		return nv.fn(s, c)
	}
}

// jsPanic passes on what goja throws (JavaScript values, exceptions,
// interrupts and its own internal error kinds) and turns any other panic
// into a JavaScript error.
func (s *Shell) jsPanic(r any) any {
	if fromGoja(r) {
		return r
	}
	return s.jsError("MongoshInternalError", fmt.Sprintf("internal error: %v", r))
}

// fromGoja reports whether a panic value is one of goja's, which goja
// itself turns into a JavaScript exception or an interrupt.
func fromGoja(r any) bool {
	t := reflect.TypeOf(r)
	if t == nil {
		return false
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() == "github.com/dop251/goja"
}

// mustDoc converts a JS argument that must be a document, throwing a
// TypeError otherwise.
func (s *Shell) mustDoc(v goja.Value, what string) bson.D {
	if isNullish(v) {
		return bson.D{}
	}
	d, err := s.toDoc(v, what)
	if err != nil {
		s.throwError("TypeError", err)
	}
	return d
}

func (s *Shell) mustValue(v goja.Value) any {
	x, err := s.toBSON(v, 0, false)
	if err != nil {
		s.throwError("TypeError", err)
	}
	return x
}

func (s *Shell) optDoc(v goja.Value) bson.D {
	if isNullish(v) {
		return nil
	}
	return s.mustDoc(v, "options")
}

func (s *Shell) fromRaw(raw bson.Raw) goja.Value {
	d, err := rawToD(raw)
	if err != nil {
		s.throwError("BSONError", err)
	}
	return s.fromBSON(d)
}

func rawToD(raw bson.Raw) (bson.D, error) {
	var d bson.D
	if err := bson.Unmarshal(raw, &d); err != nil {
		return nil, err
	}
	return d, nil
}

func setD(d bson.D, key string, v any) bson.D {
	for i := range d {
		if d[i].Key == key {
			d[i].Value = v
			return d
		}
	}
	return append(d, bson.E{Key: key, Value: v})
}

// throw raises a JS error of the given class (TypeError, BSONError, ...).
func (s *Shell) throw(name, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	var obj *goja.Object
	switch name {
	case "TypeError":
		obj = s.vm.NewTypeError(msg)
	default:
		ctor := s.vm.Get("Error").ToObject(s.vm)
		o, err := s.vm.New(ctor, s.vm.ToValue(msg))
		if err != nil {
			panic(s.vm.NewGoError(err))
		}
		_ = o.Set("name", name)
		obj = o
	}
	panic(obj)
}

func isNullish(v goja.Value) bool { return v == nil || goja.IsUndefined(v) || goja.IsNull(v) }
