package query

import (
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Bits is {field: {$bitsAllSet|$bitsAllClear|$bitsAnySet|$bitsAnyClear: mask}};
// the mask (number, BinData or list of positions) is kept as bit
// positions, which is also how explain prints it and what BinData values
// are tested against, and as mongod's 64-bit mask, which numbers are
// tested against (BitTestMatchExpression in expression_leaf.cpp).
type Bits struct {
	Path      string
	Op        string
	Positions []uint32

	mask  uint64
	parts []string
}

// Matches implements Node.
func (b *Bits) Matches(doc bson.D, pos *Position) bool {
	return matchPath(doc, pathParts(b.parts, b.Path), true, b, pos)
}

// matchValue tests integral numbers against the mask (as 64-bit two's
// complement, so that positions past 63 of a negative number count as set)
// and BinData against the positions, past its end all clear.
func (b *Bits) matchValue(v any, _ *Position) bool {
	var data []byte
	switch x := v.(type) {
	case int32, int64, float64, bson.Decimal128:
		n, ok := integralInt64(x)
		if !ok {
			return false
		}
		u := uint64(n)
		switch b.Op {
		case "$bitsAllSet":
			return u&b.mask == b.mask
		case "$bitsAllClear":
			return ^u&b.mask == b.mask
		case "$bitsAnySet":
			return u&b.mask != 0
		default:
			return ^u&b.mask != 0
		}
	case bson.Binary:
		data = x.Data
	default:
		return false
	}
	for _, p := range b.Positions {
		i := int(p / 8)
		set := i < len(data) && data[i]&(1<<(p%8)) != 0
		switch b.Op {
		case "$bitsAllSet":
			if !set {
				return false
			}
		case "$bitsAllClear":
			if set {
				return false
			}
		case "$bitsAnySet":
			if set {
				return true
			}
		case "$bitsAnyClear":
			if !set {
				return true
			}
		}
	}
	return b.Op == "$bitsAllSet" || b.Op == "$bitsAllClear"
}

func integralInt64(v any) (int64, bool) {
	if d, ok := v.(bson.Decimal128); ok {
		return value.WholeNumber(value.DecimalToDouble(d))
	}
	return value.WholeNumber(v)
}

// parseBits is parseBitTest in expression_parser.cpp: a list of bit
// positions (parseBitPositionsArray: each read with
// BSONElement::parseIntegerElementToNonNegativeInt, its reason prefixed),
// a non-negative integral mask (parseIntegerElementToNonNegativeLong) or
// BinData. The refusal of any other argument names the path, as mongod's
// does.
func parseBits(path, op string, v any) (Node, error) {
	b := &Bits{Path: path, Op: op, parts: splitPath(path)}
	switch x := v.(type) {
	case bson.A:
		for i, e := range x {
			p, reason := value.ParseIntegerElementToNonNegativeInt(strconv.Itoa(i), e)
			if reason != "" {
				return nil, badValue("Failed to parse bit position. " + reason)
			}
			b.Positions = append(b.Positions, uint32(p))
			// A number's bits past 63 are copies of its sign bit.
			b.mask |= 1 << min(p, 63)
		}
	case int32, int64, float64, bson.Decimal128:
		n, reason := value.ParseIntegerElementToNonNegativeLong(op, x)
		if reason != "" {
			return nil, mongoerr.New(mongoerr.FailedToParse, reason)
		}
		b.mask = uint64(n)
		for p := range uint32(63) {
			if n&(1<<p) != 0 {
				b.Positions = append(b.Positions, p)
			}
		}
	case bson.Binary:
		for i, by := range x.Data {
			// mongod widens each of the first 8 bytes from a (signed, on
			// x86-64) char, so a byte of 0x80 or more also sets every
			// higher bit of the mask numbers are tested against; any
			// later non-zero byte sets the sign bit.
			switch {
			case by == 0:
			case i < 8:
				b.mask |= uint64(int64(int8(by))) << (i * 8)
			default:
				b.mask |= 1 << 63
			}
			for j := range uint32(8) {
				if by&(1<<j) != 0 {
					b.Positions = append(b.Positions, uint32(i)*8+j)
				}
			}
		}
	default:
		return nil, badValue(path + " takes an Array, a number, or a BinData but received: " + value.FormatElem(op, v))
	}
	return b, nil
}
