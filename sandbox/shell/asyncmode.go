package shell

import (
	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
)

// A native that talks to the server asks who called it. Called from an
// async function, it starts the driver call on a goroutine and returns a
// Promise, so that async functions run together interleave as they do on
// mongosh's Node driver; called from anywhere else (the top level, a
// plain function, a callback) it blocks, which is what mongosh's implicit
// await of that call amounts to.
//
// Who called is read from the JavaScript call stack: the innermost frame
// of the script's own code decides, through an index of where each
// compiled program's async functions are. The prelude's methods are
// transparent, except its own async functions (the async variants of
// toArray, forEach, ...), whose natives run as async code.

// codeIndex locates the functions of one compiled program.
type codeIndex struct {
	lineStarts []int
	funcs      []funcSpan
}

type funcSpan struct {
	start, end int // code[start:end], 0-based offsets
	async      bool
}

// indexFunctions indexes the functions of prog, compiled from code; it is
// nil when none of them is async.
func indexFunctions(code string, prog *ast.Program) *codeIndex {
	ix := &codeIndex{}
	anyAsync := false
	walkAST(prog, func(n ast.Node) bool {
		switch f := n.(type) {
		case *ast.FunctionLiteral:
			ix.funcs = append(ix.funcs, funcSpan{int(f.Idx0()) - 1, int(f.Idx1()) - 1, f.Async})
			anyAsync = anyAsync || f.Async
		case *ast.ArrowFunctionLiteral:
			ix.funcs = append(ix.funcs, funcSpan{int(f.Idx0()) - 1, int(f.Idx1()) - 1, f.Async})
			anyAsync = anyAsync || f.Async
		}
		return true
	})
	if !anyAsync {
		return nil
	}
	ix.lineStarts = []int{0}
	for i := range len(code) {
		if code[i] == '\n' {
			ix.lineStarts = append(ix.lineStarts, i+1)
		}
	}
	return ix
}

// asyncAt reports whether the innermost function around pos is async.
func (ix *codeIndex) asyncAt(pos file.Position) bool {
	if ix == nil || pos.Line < 1 || pos.Line > len(ix.lineStarts) {
		return false
	}
	at := ix.lineStarts[pos.Line-1] + pos.Column - 1
	best, async := -1, false
	for _, f := range ix.funcs {
		if f.start <= at && at < f.end && (best < 0 || f.end-f.start < best) {
			best, async = f.end-f.start, f.async
		}
	}
	return async
}

// preludeName names the prelude's code in stack frames.
const preludeName = "prelude.js"

// callerIsAsync reports whether the running native was called from async
// code (see the top of this file).
func (s *Shell) callerIsAsync() bool {
	if s.blocking > 0 {
		return false
	}
	for depth := 8; ; depth *= 4 {
		s.frames = s.vm.CaptureCallStack(depth, s.frames[:0])
		for _, f := range s.frames {
			switch name := f.SrcName(); name {
			case "<native>":
			case preludeName:
				if preludeIndex().asyncAt(f.Position()) {
					return true
				}
			default:
				ix := s.asyncCode[name]
				return ix != nil && ix.asyncAt(f.Position())
			}
		}
		if len(s.frames) < depth {
			return false
		}
	}
}

// blocking runs fn with every native blocking: a sync iterator over a
// cursor cannot wait for a Promise, wherever it is used.
func (s *Shell) blockingCall(c goja.FunctionCall) goja.Value {
	fn, ok := goja.AssertFunction(c.Argument(0))
	if !ok {
		s.throw("TypeError", "not a function")
	}
	s.blocking++
	defer func() { s.blocking-- }()
	v, err := fn(goja.Undefined())
	if err != nil {
		panic(err)
	}
	return v
}
