package query

import (
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Bits is {field: {$bitsAllSet|$bitsAllClear|$bitsAnySet|$bitsAnyClear: mask}};
// the mask (number, BinData or list of positions) is kept as bit
// positions, which is also how explain prints it.
type Bits struct {
	Path      string
	Op        string
	Positions []uint32

	parts []string
}

// Matches implements Node.
func (b *Bits) Matches(doc bson.D, pos *Position) bool {
	return matchPath(doc, pathParts(b.parts, b.Path), true, b, pos)
}

// matchValue tests integral numbers (as 64-bit two's complement, so that
// positions past 63 of a negative number count as set) and BinData.
func (b *Bits) matchValue(v any, _ *Position) bool {
	var bit func(p uint32) bool
	switch x := v.(type) {
	case int32, int64, float64, bson.Decimal128:
		n, ok := integralInt64(x)
		if !ok {
			return false
		}
		bit = func(p uint32) bool {
			if p >= 64 {
				return n < 0
			}
			return n&(1<<p) != 0
		}
	case bson.Binary:
		bit = func(p uint32) bool {
			i := int(p / 8)
			return i < len(x.Data) && x.Data[i]&(1<<(p%8)) != 0
		}
	default:
		return false
	}
	for _, p := range b.Positions {
		set := bit(p)
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
		}
	case int32, int64, float64, bson.Decimal128:
		n, reason := value.ParseIntegerElementToNonNegativeLong(op, x)
		if reason != "" {
			return nil, mongoerr.New(mongoerr.FailedToParse, reason)
		}
		for p := range uint32(63) {
			if n&(1<<p) != 0 {
				b.Positions = append(b.Positions, p)
			}
		}
	case bson.Binary:
		for i, by := range x.Data {
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
