package value

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
	"unsafe"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// rawDoc frames raw elements as a document: length, elements, EOO.
func rawDoc(elems ...[]byte) []byte {
	body := bytes.Join(elems, nil)
	out := binary.LittleEndian.AppendUint32(nil, uint32(4+len(body)+1))
	return append(append(out, body...), 0)
}

// rawElem is a type byte, a field name and the raw value bytes.
func rawElem(t byte, name string, val []byte) []byte {
	return append(append([]byte{t}, name+"\x00"...), val...)
}

func rawString(s string) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(s)+1)), s+"\x00"...)
}

func int32Bytes(n int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(n)) }

func nested(depth int) []byte {
	doc := rawDoc(rawElem(TypeInt, "x", int32Bytes(1)))
	for range depth {
		doc = rawDoc(rawElem(TypeObject, "a", doc))
	}
	return doc
}

// The messages are mongod 8.0's (bson_validate.cpp): the reason, then the
// element's dotted path and the document's _id.
func TestValidateRefusesWhatMongodRefuses(t *testing.T) {
	id := rawElem(TypeInt, "_id", int32Bytes(1))
	tests := []struct {
		name string
		raw  []byte
		code int32
		msg  string
	}{
		{"string without its NUL", rawDoc(id, rawElem(TypeString, "s", append(int32Bytes(3), 'a', 'b', 'c'))), mongoerr.InvalidBSON,
			"Not null terminated string in element with field name 's' in object with _id: 1"},
		{"empty string length", rawDoc(rawElem(TypeString, "s", int32Bytes(0))), mongoerr.InvalidBSON,
			"Not null terminated string in element with field name 's' in object with unknown _id"},
		{"string longer than the document", rawDoc(rawElem(TypeString, "s", append(int32Bytes(1000), 'a', 0))), mongoerr.InvalidBSON,
			"BSON size is larger than buffer size in element with field name 's' in object with unknown _id"},
		{"negative string length", rawDoc(rawElem(TypeString, "s", append(int32Bytes(-5), 'a', 0))), mongoerr.InvalidBSON,
			"BSON size is larger than buffer size in element with field name 's' in object with unknown _id"},
		{"bool byte 2", rawDoc(id, rawElem(TypeBool, "flag", []byte{2})), mongoerr.InvalidBSON,
			"BSON bool is neither false nor true in element with field name 'flag' in object with _id: 1"},
		{"unknown element type", rawDoc(rawElem(0x20, "x", nil)), mongoerr.InvalidBSON,
			"Unrecognized BSON type 32 in element with field name 'x' in object with unknown _id"},
		{"binData longer than the document", rawDoc(rawElem(TypeBinData, "bin", append(int32Bytes(50), 0, 1, 2))), mongoerr.InvalidBSON,
			"BSON size is larger than buffer size in element with field name 'bin' in object with unknown _id"},
		{"nested length one too long", func() []byte {
			inner := rawDoc(rawElem(TypeInt, "b", int32Bytes(1)))
			binary.LittleEndian.PutUint32(inner, uint32(len(inner)+1))
			return rawDoc(rawElem(TypeObject, "a", inner), rawElem(TypeNull, "c", nil))
		}(), mongoerr.InvalidBSON, "incorrect BSON length in element with field name 'a.b' in object with unknown _id"},
		{"nested document under 5 bytes", rawDoc(rawElem(TypeObject, "a", int32Bytes(4)), rawElem(TypeNull, "c", nil)), mongoerr.InvalidBSON,
			"Nested BSON object has to be at least 5 bytes in element with field name '.a' in object with unknown _id"},
		{"document length over the buffer", func() []byte {
			d := rawDoc(id)
			binary.LittleEndian.PutUint32(d, uint32(len(d)+10))
			return d
		}(), mongoerr.InvalidBSON, "Incorrect BSON length 24 should be less or equal to 14 in element with field name '?' in object with unknown _id"},
		{"document not terminated", func() []byte {
			d := rawDoc(id)
			d[len(d)-1] = 7
			return d
		}(), mongoerr.InvalidBSON, "BSON object not terminated with EOO in element with field name '?' in object with unknown _id"},
		{"under 5 bytes", []byte{4, 0, 0, 0}, mongoerr.InvalidBSON,
			"BSON data has to be at least 5 bytes in element with field name '?' in object with unknown _id"},
		{"string _id is quoted and escaped", rawDoc(rawElem(TypeString, "_id", rawString(`a"b`)), rawElem(TypeBool, "f", []byte{9})), mongoerr.InvalidBSON,
			`BSON bool is neither false nor true in element with field name 'f' in object with _id: \"a\\\"b\"`},
		{"nesting past 200 levels", nested(201), mongoerr.Overflow,
			"BSONObj exceeds maximum nested object depth in element with field name '" + strings.Repeat("a.", 200) + "a' in object with unknown _id"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Validate(tc.raw)
			me, ok := err.(*mongoerr.Error)
			if !ok {
				t.Fatalf("Validate = %v, want error %d", err, tc.code)
			}
			if me.Code != tc.code || me.Msg != tc.msg {
				t.Fatalf("Validate = %d %q\nwant       %d %q", me.Code, me.Msg, tc.code, tc.msg)
			}
			if _, err := Decode(tc.raw); err == nil {
				t.Fatal("Decode accepted what Validate refuses")
			}
		})
	}
}

// mongod's default validation checks structure, not content: invalid
// UTF-8, a 3-byte UUID, unsorted regex flags and odd array keys all pass
// (only validate({full: true}) reports them), and so does the deepest
// nesting allowed.
func TestValidateAcceptsWhatMongodAccepts(t *testing.T) {
	tests := map[string][]byte{
		"invalid UTF-8 string":     rawDoc(rawElem(TypeString, "s", rawString("\xff\xfe"))),
		"invalid UTF-8 field name": rawDoc(rawElem(TypeInt, "\xc3\x28", int32Bytes(1))),
		"short UUID":               rawDoc(rawElem(TypeBinData, "u", append(int32Bytes(3), 4, 1, 2, 3))),
		"array keys out of order":  rawDoc(rawElem(TypeArray, "a", rawDoc(rawElem(TypeInt, "7", int32Bytes(1))))),
		"200 levels":               nested(200),
		"code with scope":          rawDoc(rawElem(TypeCodeWithScope, "c", codeWithScope("f()", rawDoc(rawElem(TypeInt, "x", int32Bytes(1)))))),
		"min and max keys":         rawDoc(rawElem(0xff, "lo", nil), rawElem(TypeMaxKey, "hi", nil)),
	}
	for name, raw := range tests {
		t.Run(name, func(t *testing.T) {
			if err := Validate(raw); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			d, err := Decode(raw)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			back, err := Encode(d)
			if err != nil {
				t.Fatal(err)
			}
			if name != "array keys out of order" && !bytes.Equal(back, raw) {
				t.Fatalf("re-encoded\n%x\nwant\n%x", back, raw)
			}
		})
	}
}

func codeWithScope(code string, scope []byte) []byte {
	s := rawString(code)
	out := int32Bytes(int32(4 + len(s) + len(scope)))
	return append(append(out, s...), scope...)
}

func TestValidateCodeWithScopeLengths(t *testing.T) {
	good := codeWithScope("f()", rawDoc())
	bad := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(bad, uint32(len(good)-1))
	raw := rawDoc(rawElem(TypeCodeWithScope, "c", bad), rawElem(TypeNull, "n", nil))
	err := Validate(raw)
	if me, ok := err.(*mongoerr.Error); !ok || me.Code != mongoerr.InvalidBSON || !strings.HasPrefix(me.Msg, "incorrect BSON length") {
		t.Fatalf("Validate = %v", err)
	}
	if _, err := Decode(raw); err == nil {
		t.Fatal("Decode accepted a code-with-scope of the wrong length")
	}
}

// FuzzDecodeAgreesWithValidate keeps the decoder's fast checks and the
// validator (which words the errors) in step: whatever one accepts the
// other accepts, so a message is never half-checked. The one documented
// exception is an old-binary (subtype 2) value whose inner length
// disagrees, which mongod keeps and bson.Binary cannot hold.
func FuzzDecodeAgreesWithValidate(f *testing.F) {
	seeds := [][]byte{
		rawDoc(rawElem(TypeString, "s", rawString("abc")), rawElem(TypeBool, "b", []byte{1})),
		rawDoc(rawElem(TypeBinData, "b", append(int32Bytes(6), 2, 2, 0, 0, 0, 7, 8))),
		rawDoc(rawElem(TypeCodeWithScope, "c", codeWithScope("f()", rawDoc(rawElem(TypeInt, "x", int32Bytes(1)))))),
		rawDoc(rawElem(TypeRegex, "r", []byte("a.b\x00i\x00")), rawElem(TypeDBPointer, "p", append(rawString("db.c"), make([]byte, 12)...))),
		nested(199), nested(201),
		mustEncode(f, bson.D{{Key: "_id", Value: int32(1)}, {Key: "a", Value: bson.A{1.5, "x", bson.D{{Key: "t", Value: bson.Timestamp{T: 1, I: 2}}}}}}),
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		verr := Validate(raw)
		size := 0
		if len(raw) >= 4 {
			size = int(int32(binary.LittleEndian.Uint32(raw)))
		}
		var derr error
		if size < 5 || size > len(raw) {
			derr = errCorrupt
		} else {
			_, derr = Decode(raw[:size])
		}
		switch {
		case verr == nil && derr != nil:
			if !strings.Contains(derr.Error(), "binData") {
				t.Fatalf("Validate accepts, Decode refuses: %v", derr)
			}
		case verr != nil && derr == nil:
			t.Fatalf("Decode accepts, Validate refuses: %v", verr)
		case verr != nil:
			if c := verr.(*mongoerr.Error).Code; c != mongoerr.InvalidBSON && c != mongoerr.Overflow {
				t.Fatalf("code %d", c)
			}
		}
	})
}

func mustEncode(t testing.TB, d bson.D) []byte {
	b, err := Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// BenchmarkValidate48MB measures the validator alone on a full-size
// message of small documents, as an insertMany of 48 MB would bring; the
// wire layer only runs it on a document the decoder refused.
func BenchmarkValidate48MB(b *testing.B) {
	doc := mustEncode(b, bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "courseId", Value: "c042"}, {Key: "grade", Value: int32(87)}, {Key: "student", Value: "s123456"}})
	buf := bytes.Repeat(doc, 48_000_000/len(doc))
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		for off := 0; off < len(buf); off += len(doc) {
			if err := Validate(buf[off:]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkDecode48MB is the decoder over the same message: the path
// every valid message takes, its checks included.
func BenchmarkDecode48MB(b *testing.B) {
	doc := mustEncode(b, bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "courseId", Value: "c042"}, {Key: "grade", Value: int32(87)}, {Key: "student", Value: "s123456"}})
	buf := bytes.Repeat(doc, 48_000_000/len(doc))
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		var dec Decoder
		for off := 0; off < len(buf); off += len(doc) {
			if _, err := dec.Decode(buf[off : off+len(doc)]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// One decoder builds many documents from its scratch: each comes out at
// its exact length, nested documents and arrays included, and a document
// that fails half-way leaves nothing behind for the next one.
func TestDecoderScratch(t *testing.T) {
	want := bson.D{
		{Key: "a", Value: int32(1)},
		{Key: "b", Value: bson.D{{Key: "c", Value: bson.A{"x", bson.D{{Key: "d", Value: 2.5}}, bson.A{}}}, {Key: "e", Value: bson.D{}}}},
		{Key: "f", Value: "last"},
	}
	good, err := bson.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), good...)
	bad[len(bad)-2] = 'x' // the NUL ending "last" goes missing
	var dec Decoder
	for i, raw := range [][]byte{good, bad, good} {
		d, err := dec.Decode(raw)
		if i == 1 {
			if err == nil {
				t.Fatal("Decode accepted a truncated string")
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if back, _ := Encode(d); !bytes.Equal(back, good) {
			t.Fatalf("document %d decoded as %v", i, d)
		}
		if cap(d) != len(d) || cap(d[1].Value.(bson.D)) != 2 || cap(d[1].Value.(bson.D)[0].Value.(bson.A)) != 3 {
			t.Fatalf("document %d: capacities beyond lengths", i)
		}
		if len(dec.scratch) != 0 {
			t.Fatalf("document %d left %d scratch elements", i, len(dec.scratch))
		}
	}
}

// A decoder reuses the field names it met at each top-level position of
// the previous document; documents that list other names, in another
// order, more or fewer of them, or nest the same names, still decode to
// their own names, and one name is kept once.
func TestDecoderFieldNamesByPosition(t *testing.T) {
	docs := []bson.D{
		{{Key: "_id", Value: int32(1)}, {Key: "a", Value: "x"}, {Key: "b", Value: int32(2)}},
		{{Key: "_id", Value: int32(2)}, {Key: "a", Value: "y"}, {Key: "b", Value: int32(3)}},
		{{Key: "_id", Value: int32(3)}, {Key: "b", Value: int32(4)}, {Key: "a", Value: "z"}},
		{{Key: "_id", Value: int32(4)}},
		{{Key: "_id", Value: int32(5)}, {Key: "a", Value: bson.D{{Key: "b", Value: int32(1)}, {Key: "a", Value: int32(2)}}}, {Key: "b", Value: int32(6)}, {Key: "c", Value: true}},
		{{Key: "ab", Value: int32(6)}, {Key: "a", Value: "w"}, {Key: "", Value: nil}},
	}
	var dec Decoder
	var names []string
	for i, want := range docs {
		raw := mustEncode(t, want)
		got, err := dec.Decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		if back, _ := Encode(got); !bytes.Equal(back, raw) {
			t.Fatalf("document %d decoded as %v", i, got)
		}
		for _, e := range got {
			names = append(names, e.Key)
		}
	}
	seen := map[string]string{}
	for _, n := range names {
		if p, ok := seen[n]; ok && len(n) > 0 && unsafe.StringData(p) != unsafe.StringData(n) {
			t.Fatalf("field name %q kept twice", n)
		}
		seen[n] = n
	}
}
