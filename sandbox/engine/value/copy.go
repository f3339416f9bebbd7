package value

import "go.mongodb.org/mongo-driver/v2/bson"

// DeepCopy returns a copy of v that shares no documents or arrays with it,
// so that the copy can be modified while readers keep using the original.
func DeepCopy(v any) any {
	switch x := v.(type) {
	case bson.D:
		return CopyDoc(x)
	case bson.A:
		a := make(bson.A, len(x))
		for i, e := range x {
			a[i] = DeepCopy(e)
		}
		return a
	}
	return v
}

// CopyDoc deep-copies a document.
func CopyDoc(d bson.D) bson.D {
	if d == nil {
		return nil
	}
	c := make(bson.D, len(d))
	for i, e := range d {
		c[i] = bson.E{Key: e.Key, Value: DeepCopy(e.Value)}
	}
	return c
}

// Get returns the value of a top-level field, or Missing.
func Get(d bson.D, key string) any {
	for _, e := range d {
		if e.Key == key {
			return e.Value
		}
	}
	return Missing{}
}

// SetPath sets the path parts in d, a document the caller builds itself,
// creating embedded documents on the way, and returns it.
func SetPath(d bson.D, parts []string, v any) bson.D {
	for i := range d {
		if d[i].Key != parts[0] {
			continue
		}
		if len(parts) == 1 {
			d[i].Value = v
			return d
		}
		sub, _ := d[i].Value.(bson.D)
		d[i].Value = SetPath(sub, parts[1:], v)
		return d
	}
	if len(parts) == 1 {
		return append(d, bson.E{Key: parts[0], Value: v})
	}
	return append(d, bson.E{Key: parts[0], Value: SetPath(nil, parts[1:], v)})
}

// Lookup follows a dotted path through embedded documents only (no array
// traversal; numeric components index arrays). Query matching and
// aggregation field paths have their own array semantics; this is for
// simple access such as reading an index key's source or a command field.
func Lookup(d bson.D, path string) any {
	var cur any = d
	start := 0
	for i := 0; i <= len(path); i++ {
		if i < len(path) && path[i] != '.' {
			continue
		}
		part := path[start:i]
		start = i + 1
		switch c := cur.(type) {
		case bson.D:
			cur = Get(c, part)
		case bson.A:
			idx, ok := ArrayIndex(part)
			if !ok || idx >= len(c) {
				return Missing{}
			}
			cur = c[idx]
		default:
			return Missing{}
		}
	}
	return cur
}

// ArrayIndex parses a path component as an array index the way mongod
// does: only plain decimal digits, no sign, no leading zeros except "0".
func ArrayIndex(s string) (int, bool) {
	if len(s) > 9 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	return ParseUnsignedBase10(s)
}

// ParseUnsignedBase10 is mongod's str::parseUnsignedBase10Integer, which
// reads a path component as an array position where update paths and
// document_path_support do: decimal digits only, leading zeros allowed
// ("01" is 1), the value fitting an unsigned 32-bit integer.
func ParseUnsignedBase10(s string) (int, bool) {
	if s == "" || len(s) > 10 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	if n > 1<<32-1 {
		return 0, false
	}
	return n, true
}
