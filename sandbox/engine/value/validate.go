package value

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"strings"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Validate checks raw BSON the way mongod checks every document of an
// incoming message (validateBSON in src/mongo/bson/bson_validate.cpp, its
// default mode, the one OP_MSG and OP_QUERY use) and returns mongod's
// error, message and context included:
//
//	BSON bool is neither false nor true in element with field name 'a.b' in object with _id: 1
//
// raw is the rest of the message buffer, which may extend past the
// document. Like mongod in that mode it checks structure only: lengths,
// terminating NULs, bool bytes, element types and nesting depth. UTF-8,
// binary subtypes, regex flags and array keys are only checked by the
// validate command's full mode, so invalid UTF-8 in a string is accepted
// here, as on mongod 8.0.
//
// Decode refuses exactly what Validate refuses (plus one case, see
// decodeBinary), so the wire layer decodes first and calls Validate only on
// failure, to word the error: a valid message is walked once.
func Validate(raw []byte) error {
	var vr Validator
	return vr.Validate(raw)
}

// Validator is Validate for a caller checking many documents in turn (a
// snapshot file's records): its frame stack is reused from one document
// to the next.
type Validator struct{ frames []vframe }

// Validate is the package's Validate.
func (vr *Validator) Validate(raw []byte) error {
	v := validator{buf: raw, frames: append(vr.frames[:0], vframe{elem: -1}), cur: -1, idStart: -1}
	err := v.validate()
	vr.frames = v.frames
	if err != nil {
		return mongoerr.New(err.code, err.msg+" "+v.context())
	}
	return nil
}

type validationError struct {
	code int32
	msg  string
}

func invalid(msg string) *validationError {
	return &validationError{code: mongoerr.InvalidBSON, msg: msg}
}

// validator follows mongod's precise ValidateBuffer: one cursor over the
// whole top-level document, a stack of frames for nested objects, arrays
// and code-with-scope, and the element being checked for the error's
// context. Reads are bounded by the end of the top-level document; a
// nested object's own length is checked when its terminating byte is
// reached.
type validator struct {
	buf []byte
	end int // end of the top-level document
	pos int
	// frames works like mongod's frame vector: frames[0] is the top-level
	// document, frames[depth] the innermost open one. A failed push leaves
	// depth on a frame whose element is stale (or unset, -1), and the
	// context then names it, as mongod's does.
	frames  []vframe
	depth   int
	cur     int // offset of the element being checked (its type byte); -1 before the first
	idStart int // the validated top-level _id element, for the context
	idEnd   int
}

type vframe struct {
	end  int // where the frame's terminating byte must be followed
	elem int // offset of the element that opened the frame
	// cws marks the outer frame of a code-with-scope, whose length is
	// checked once its scope document is done.
	cws bool
}

func (v *validator) validate() *validationError {
	if len(v.buf) < 5 {
		return invalid("BSON data has to be at least 5 bytes")
	}
	n := int32(binary.LittleEndian.Uint32(v.buf))
	if n < 5 {
		return invalid("BSON data has to be at least 5 bytes")
	}
	if int64(n) > int64(len(v.buf)) {
		return invalid("Incorrect BSON length " + strconv.Itoa(int(n)) + " should be less or equal to " + strconv.Itoa(len(v.buf)))
	}
	v.end = int(n)
	v.frames[0].end = v.end
	if v.buf[v.end-1] != 0 {
		return invalid("BSON object not terminated with EOO")
	}
	v.pos = 4
	return v.iterate()
}

func (v *validator) iterate() *validationError {
	for {
		if v.pos >= v.end {
			return invalid("BSON size is larger than buffer size")
		}
		for {
			// The type byte and the field name form one C string; an empty
			// one is the terminating byte (EOO). The top-level document ends
			// in 0, so the scan stops in bounds.
			n := bytes.IndexByte(v.buf[v.pos:v.end], 0)
			if n == 0 {
				break
			}
			t := v.buf[v.pos]
			v.cur = v.pos
			v.pos += n + 1
			if err := v.element(t); err != nil {
				return err
			}
			if v.depth == 0 && bytes.HasPrefix(v.buf[v.cur+1:], []byte("_id\x00")) {
				v.idStart, v.idEnd = v.cur, v.pos
			}
		}
		v.pos++
		if v.pos != v.frames[v.depth].end {
			return invalid("incorrect BSON length")
		}
		// The scope of a code-with-scope ends its outer frame too. (mongod
		// also looks at the top-level frame here, whose element is the
		// _id, and so refuses a document whose _id is a code-with-scope
		// followed by an object; that quirk is not reproduced.)
		if v.depth > 1 && v.frames[v.depth-1].cws {
			v.depth--
			if v.pos != v.frames[v.depth].end {
				return invalid("incorrect BSON length")
			}
		}
		if v.depth == 0 {
			return nil
		}
		v.depth--
	}
}

// skip advances past n bytes; at least the top-level terminating byte
// must remain.
func (v *validator) skip(n int64) *validationError {
	if int64(v.pos)+n >= int64(v.end) {
		v.pos = v.end
		return invalid("BSON size is larger than buffer size")
	}
	v.pos += int(n)
	return nil
}

func (v *validator) read32() (uint32, *validationError) {
	at := v.pos
	if err := v.skip(4); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(v.buf[at:]), nil
}

func (v *validator) skipString() *validationError {
	n, err := v.read32()
	if err != nil {
		return err
	}
	if err := v.skip(int64(n)); err != nil {
		return err
	}
	if n == 0 || v.buf[v.pos-1] != 0 {
		return invalid("Not null terminated string")
	}
	return nil
}

func (v *validator) push(elem int, cws bool) *validationError {
	v.depth++
	if v.depth > MaxNestingDepth {
		return &validationError{code: mongoerr.Overflow, msg: "BSONObj exceeds maximum nested object depth"}
	}
	if v.depth == len(v.frames) {
		v.frames = append(v.frames, vframe{elem: -1})
	}
	start := v.pos
	n, err := v.read32()
	if err != nil {
		return err
	}
	if int32(n) < 5 {
		return invalid("Nested BSON object has to be at least 5 bytes")
	}
	v.frames[v.depth] = vframe{end: start + int(int32(n)), elem: elem, cws: cws}
	return nil
}

func (v *validator) element(t byte) *validationError {
	switch t {
	case TypeUndefined, TypeNull, byte(TypeMaxKey), 0xff: // MinKey is -1
		return v.skip(0)
	case TypeInt:
		return v.skip(4)
	case TypeDouble, TypeDate, TypeTimestamp, TypeLong:
		return v.skip(8)
	case TypeObjectID:
		return v.skip(12)
	case TypeDecimal:
		return v.skip(16)
	case TypeString, TypeJavaScript, TypeSymbol:
		return v.skipString()
	case TypeObject, TypeArray:
		return v.push(v.cur, false)
	case TypeBinData:
		n, err := v.read32()
		if err != nil {
			return err
		}
		if err := v.skip(1); err != nil { // subtype
			return err
		}
		return v.skip(int64(n))
	case TypeBool:
		at := v.pos
		if err := v.skip(1); err != nil {
			return err
		}
		if b := v.buf[at]; b != 0 && b != 1 {
			return invalid("BSON bool is neither false nor true")
		}
		return nil
	case TypeRegex:
		if err := v.skip(0); err != nil {
			return err
		}
		for range 2 { // pattern and options, each a C string
			if err := v.skip(int64(bytes.IndexByte(v.buf[v.pos:v.end], 0)) + 1); err != nil {
				return err
			}
		}
		return nil
	case TypeDBPointer:
		if err := v.skipString(); err != nil {
			return err
		}
		return v.skip(12)
	case TypeCodeWithScope:
		// An outer frame checks the total length, then the code string,
		// then the scope document as its own frame, whose element is the
		// code's terminating NUL (so it has no name in the context).
		if err := v.push(v.cur, true); err != nil {
			return err
		}
		if err := v.skipString(); err != nil {
			return err
		}
		v.cur = v.pos - 1
		return v.push(v.cur, false)
	}
	return invalid("Unrecognized BSON type " + strconv.Itoa(int(t)))
}

// name is the field name of the element at off (its type byte).
func (v *validator) name(off int) string {
	rest := v.buf[off+1:]
	if n := bytes.IndexByte(rest, 0); n >= 0 {
		return string(rest[:n])
	}
	return string(rest)
}

// context is mongod's "in element with field name 'a.b' in object with
// _id: 1", escaped as mongod's str::escape does.
func (v *validator) context() string {
	var b strings.Builder
	b.WriteString("in element with field name '")
	for _, f := range v.frames[1:min(v.depth+1, len(v.frames))] {
		if f.elem >= 0 {
			b.WriteString(v.name(f.elem))
		}
		b.WriteByte('.')
	}
	if v.cur < 0 {
		b.WriteByte('?')
	} else {
		b.WriteString(v.name(v.cur))
	}
	b.WriteString("' in object with ")
	if v.idStart < 0 {
		b.WriteString("unknown _id")
	} else {
		b.WriteString(v.idString())
	}
	var out strings.Builder
	appendEscaped(&out, b.String())
	return out.String()
}

// idString renders the validated _id element as BSONElement::toString.
func (v *validator) idString() string {
	elem := v.buf[v.idStart:v.idEnd]
	doc := make([]byte, 4, len(elem)+5)
	binary.LittleEndian.PutUint32(doc, uint32(len(elem)+5))
	doc = append(append(doc, elem...), 0)
	d, err := Decode(doc)
	if err != nil || len(d) != 1 {
		return "_id: ?"
	}
	return FormatElem("_id", d[0].Value)
}
