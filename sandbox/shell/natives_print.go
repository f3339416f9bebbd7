package shell

import (
	"strings"

	"github.com/dop251/goja"
)

// printNatives write to the output.
var printNatives = []native{
	{"print", (*Shell).print, false},
	{"printjson", (*Shell).printjson, false},
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
		parts[i] = formatPrintArg(s.display(a), opts)
	}
	s.printText(strings.Join(parts, " ") + "\n")
}
