package engine

import (
	"strconv"
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// maxLogAttributeSize is logv2's default maxLogSizeKB
// (constants::kDefaultMaxAttributeOutputSizeKB, 10 KB). mongod cuts an
// attribute that takes the line past it, so that a command carrying
// megabytes of documents logs a line of about 10 KB rather than all of
// them.
const maxLogAttributeSize = 10 * 1024

// logLine renders one line in mongod's JSON log format (JSONFormatter in
// src/mongo/logv2/json_formatter.cpp): the fixed fields, then "attr", then
// what truncation cut ("truncated", "size").
type logLine struct {
	buf              []byte
	truncated, sizes bson.D
}

func renderLogLine(date, severity, component string, id int, ctx, msg string, attr bson.D) []byte {
	l := &logLine{buf: make([]byte, 0, 256)}
	l.buf = append(l.buf, `{"t":{"$date":`...)
	l.buf = appendJSONString(l.buf, date)
	l.buf = append(l.buf, `},"s":`...)
	l.buf = appendJSONString(l.buf, severity)
	l.buf = append(l.buf, `,"c":`...)
	l.buf = appendJSONString(l.buf, component)
	l.buf = append(l.buf, `,"id":`...)
	l.buf = strconv.AppendInt(l.buf, int64(id), 10)
	l.buf = append(l.buf, `,"ctx":`...)
	l.buf = appendJSONString(l.buf, ctx)
	l.buf = append(l.buf, `,"msg":`...)
	l.buf = appendJSONString(l.buf, msg)
	if attr != nil {
		l.buf = append(l.buf, `,"attr":{`...)
		for i, e := range attr {
			if i > 0 {
				l.buf = append(l.buf, ',')
			}
			l.attribute(e.Key, e.Value)
		}
		l.buf = append(l.buf, '}')
		if l.truncated != nil {
			l.buf = append(l.buf, `,"truncated":`...)
			l.buf, _ = appendJSONValue(l.buf, l.truncated, 0)
		}
		if l.sizes != nil {
			l.buf = append(l.buf, `,"size":`...)
			l.buf, _ = appendJSONValue(l.buf, l.sizes, 0)
		}
	}
	return append(l.buf, '}')
}

// attribute writes one attribute as JSONValueExtractor does: a string is
// cut at maxLogAttributeSize bytes of its escaped text, a document or an
// array at the first value that ends past maxLogAttributeSize bytes of the
// whole line (BSONElement::jsonStringGenerator's writeLimit is checked
// against the line's buffer).
func (l *logLine) attribute(name string, v any) {
	l.buf = appendJSONString(l.buf, name)
	l.buf = append(l.buf, ':')
	switch x := v.(type) {
	case string:
		start := len(l.buf)
		l.buf = appendJSONString(l.buf, x)
		escaped := l.buf[start+1 : len(l.buf)-1]
		if len(escaped) <= maxLogAttributeSize {
			return
		}
		cut := maxLogAttributeSize
		for cut > 0 && !utf8.RuneStart(escaped[cut]) {
			cut--
		}
		l.note(name, bson.D{{Key: "type", Value: "string"}, {Key: "size", Value: int64(len(escaped))}}, nil)
		l.buf = append(l.buf[:start+1+cut], '"')
	case bson.D, bson.A:
		var cut bson.D
		l.buf, cut = appendJSONValue(l.buf, x, maxLogAttributeSize)
		if cut != nil {
			l.note(name, cut, int64(value.ValueSize(x)))
		}
	default:
		l.buf, _ = appendJSONValue(l.buf, v, 0)
	}
}

func (l *logLine) note(name string, cut bson.D, size any) {
	l.truncated = append(l.truncated, bson.E{Key: name, Value: cut})
	if size != nil {
		l.sizes = append(l.sizes, bson.E{Key: name, Value: size})
	}
}

// appendJSONValue appends v in relaxed extended JSON. With a limit, a
// document or an array stops at the first value that takes buf past it:
// that value is taken back out and described in the returned truncation
// report ({field: {type, size}}, nested under the fields that hold it),
// as BSONObj::jsonStringBuffer does.
func appendJSONValue(buf []byte, v any, limit int) ([]byte, bson.D) {
	switch x := v.(type) {
	case bson.D:
		buf = append(buf, '{')
		var cut bson.D
		for i, e := range x {
			if buf, cut = appendJSONElement(buf, i > 0, e.Key, true, e.Value, limit); cut != nil {
				break
			}
		}
		return append(buf, '}'), cut
	case bson.A:
		buf = append(buf, '[')
		var cut bson.D
		for i, e := range x {
			if buf, cut = appendJSONElement(buf, i > 0, strconv.Itoa(i), false, e, limit); cut != nil {
				break
			}
		}
		return append(buf, ']'), cut
	}
	out, err := bson.MarshalExtJSON(bson.D{{Key: "", Value: v}}, false, false)
	if err != nil {
		return append(buf, "null"...), nil
	}
	// out is {"":<value>}.
	return append(buf, out[4:len(out)-1]...), nil
}

func appendJSONElement(buf []byte, separator bool, key string, named bool, v any, limit int) ([]byte, bson.D) {
	before := len(buf)
	if separator {
		buf = append(buf, ',')
	}
	if named {
		buf = appendJSONString(buf, key)
		buf = append(buf, ':')
	}
	buf, cut := appendJSONValue(buf, v, limit)
	switch v.(type) {
	case bson.D, bson.A:
		if cut != nil {
			return buf, bson.D{{Key: key, Value: cut}}
		}
		return buf, nil
	}
	if limit > 0 && len(buf) > limit {
		return buf[:before], bson.D{{Key: key, Value: bson.D{{Key: "type", Value: value.TypeName(v)}, {Key: "size", Value: int32(value.ValueSize(v))}}}}
	}
	return buf, nil
}

// appendJSONString appends s as a JSON string, escaped as the driver's
// extended JSON writer escapes it.
func appendJSONString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			out, err := bson.MarshalExtJSON(bson.D{{Key: "", Value: s}}, false, false)
			if err != nil {
				return append(buf, `""`...)
			}
			return append(buf, out[4:len(out)-1]...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}
