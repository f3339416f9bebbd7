package shell

import (
	"strings"

	"github.com/dop251/goja"
)

// printNatives write to the output.
func printNatives() []native {
	return []native{
		{"print", (*Shell).print, false},
		{"printjson", (*Shell).printjson, false},
		{"isPromise", (*Shell).isPromise, false},
	}
}

func (s *Shell) isPromise(c goja.FunctionCall) goja.Value {
	o, ok := c.Argument(0).(*goja.Object)
	return s.vm.ToValue(ok && o.ExportType() == promiseType)
}

func (s *Shell) print(c goja.FunctionCall) goja.Value {
	result, _, _ := s.formats()
	s.printArgs(c.Arguments, result)
	return goja.Undefined()
}

func (s *Shell) printjson(c goja.FunctionCall) goja.Value {
	_, _, printJSON := s.formats()
	s.printArgs(c.Arguments, printJSON)
	return goja.Undefined()
}

func (s *Shell) printArgs(args []goja.Value, opts FormatOptions) {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = formatPrintArg(s.display(s.printable(a)), opts)
	}
	s.printText(strings.Join(parts, " ") + "\n")
}

// printable is what mongosh prints for a value given to print (its
// toShellResult): a cursor prints as its next batch of documents.
func (s *Shell) printable(v goja.Value) goja.Value {
	o, ok := v.(*goja.Object)
	if !ok || o.ExportType() == proxyType {
		return v // a Proxy's traps run only where its value is shown
	}
	if t := o.GetSymbol(s.typeSym); t == nil || !isCursorType(t.String()) {
		return v
	}
	s.blocking++
	defer func() { s.blocking-- }()
	batch, err := s.callMethod(o, "_it")
	if err != nil {
		panic(err)
	}
	return batch.ToObject(s.vm).Get("docs")
}
