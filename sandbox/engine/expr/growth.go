package expr

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The limits on what expressions build, checked before the result is
// allocated wherever its size is known in advance.
//
// Strings follow mongod exactly: a string is built in a StringBuilder,
// whose buffer may not grow past 64 MB (BufferMaxSize, location 13548),
// and then becomes a Value, which must be shorter than 16 MB
// (RCString::create, location 16493).
//
// Arrays and documents have no such limit in mongod 8.0 (only $range's
// internalQueryMaxRangeBytes and $regexFindAll's 64 MB): they grow until
// the process runs out of memory or the document fails the 16 MB check on
// its way out of the pipeline. Values share their parts, so a $reduce can
// double one at every step in memory that stays small, and any later walk
// of it (a comparison, a size, the reply) would then never end. The engine
// therefore stops a built array or document at value.MemoryLimit of
// value.MemSize, with the error mongod gives for $range, and at
// value.MaxNestingDepth levels, with the error mongod gives when such a
// value is turned into BSON.

// stringBuild counts the bytes a StringBuilder would hold.
type stringBuild struct{ n int }

// add counts n more bytes, failing as StringBuilder does once past 64 MB.
func (b *stringBuild) add(n int) error {
	b.n += n
	if b.n > value.MaxBufferSize {
		return mongoerr.Newf(mongoerr.ErrBufBuilderGrowTooLarge, "BufBuilder attempted to grow() to %d bytes, past the 64MB limit.", b.n)
	}
	return nil
}

// done checks that the string built may become a value.
func (b *stringBuild) done() error { return checkStringSize(b.n) }

// checkStringSize is RCString::create's check on a string of n bytes.
func checkStringSize(n int) error {
	if n >= value.MaxStringSize {
		return value.StringTooLong()
	}
	return nil
}

// builtLimit accounts for the array or document one operator builds.
type builtLimit struct {
	op    string
	bytes int
}

// add counts v, a part of the value being built.
func (b *builtLimit) add(v any) error {
	n, depth, ok := value.MeasureWithin(v, value.MemoryLimit-b.bytes)
	b.bytes += n
	if ok {
		return nil
	}
	if depth > value.MaxNestingDepth {
		return tooDeep()
	}
	return tooMuchMemory(b.op, b.bytes)
}

func tooMuchMemory(op string, n int) error {
	return mongoerr.Newf(mongoerr.ExceededMemoryLimit,
		"%s would use too much memory (%d bytes) and cannot spill to disk. Memory limit: %d bytes", op, n, value.MemoryLimit)
}

// checkBuilt bounds a finished array or document built by op.
func checkBuilt(op string, v any) error {
	b := builtLimit{op: op}
	return b.add(v)
}

// checkDoc and checkArray are checkBuilt for documents and arrays made
// from other values: only composite parts can make one large or deep, so
// one made of scalars costs a type switch per field and no walk.
func checkDoc(op string, d bson.D) error {
	for _, e := range d {
		if isComposite(e.Value) {
			return checkBuilt(op, d)
		}
	}
	return nil
}

func checkArray(op string, a bson.A) error {
	for _, e := range a {
		if isComposite(e) {
			return checkBuilt(op, a)
		}
	}
	return nil
}

func isComposite(v any) bool {
	switch v.(type) {
	case bson.D, bson.A, bson.CodeWithScope:
		return true
	}
	return false
}

func tooDeep() error {
	return mongoerr.Newf(mongoerr.Overflow,
		"cannot convert document to BSON because it exceeds the limit of %d levels of nesting", value.MaxNestingDepth)
}
