package engine

import (
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Capped collections: create's capped, size and max options, collMod's
// cappedSize and cappedMax. The eviction itself is the catalog's
// (catalog/capped.go); tailable cursors are in tailable.go.

// maxCappedSize is the largest size a capped collection may have (1 PB):
// the IDL bound of create's size and collMod's cappedSize, and
// CollectionOptions::checkAndAdjustCappedSize's.
const maxCappedSize = 1 << 50

// cappedCreateOptions reads create's capped, size and max the way mongod
// does: the IDL types and bounds first (create.idl: capped safeBool, size
// safeInt64 in [1, 1 PB], max safeInt64 < 2^31), then CmdCreate's rules
// that a capped collection needs a size and that size and max need capped.
// It returns the options mongod stores and lists for them
// (CollectionOptions::appendBSON: capped, size, and max when set), or nil
// for a collection that is not capped.
func cappedCreateOptions(a args) (bson.D, error) {
	capped, err := a.boolean("capped", false)
	if err != nil {
		return nil, err
	}
	lim, err := cappedLimitArgs(a, "size", "max")
	if err != nil {
		return nil, err
	}
	if capped && !lim.hasSize {
		return nil, mongoerr.New(mongoerr.InvalidOptions, "the 'size' field is required when 'capped' is true")
	}
	if lim.any() && !capped {
		return nil, mongoerr.New(mongoerr.InvalidOptions, "the 'capped' field needs to be true when either the 'size' or 'max' fields are present")
	}
	if !capped {
		return nil, nil
	}
	opts := bson.D{{Key: "capped", Value: true}, {Key: "size", Value: appendNumber(lim.size)}}
	if lim.hasMax {
		opts = append(opts, bson.E{Key: "max", Value: appendNumber(adjustCappedMax(lim.maxDocs))})
	}
	return opts, nil
}

// checkCappedSize is the IDL validator of a capped size (create's size,
// collMod's cappedSize): gte 1, lte 1 PB.
func checkCappedSize(field string, n int64) error {
	if n < 1 {
		return mongoerr.Newf(mongoerr.ErrIDLValueOutOfRange, "BSON field '%s' value must be >= 1, actual value '%d'", field, n)
	}
	if n > maxCappedSize {
		return mongoerr.Newf(mongoerr.ErrIDLValueOutOfRange, "BSON field '%s' value must be <= %d, actual value '%d'", field, int64(maxCappedSize), n)
	}
	return nil
}

// checkCappedMax is the IDL validator of a capped document limit
// (create's max, collMod's cappedMax): lt 2^31.
func checkCappedMax(field string, n int64) error {
	if n >= 1<<31 {
		return mongoerr.Newf(mongoerr.ErrIDLValueOutOfRange, "BSON field '%s' value must be < 2147483648, actual value '%d'", field, n)
	}
	return nil
}

// adjustCappedMax is collection_options.cpp's adjustCappedMaxDocs: a limit
// of 0 or less means none, which mongod stores as 2^31-1. The size is
// kept as given: mongod 8.0 no longer rounds it up to a multiple of 256
// (adjustCappedSize does so only while featureFlagCappedCollectionsRelaxedSize,
// enabled since 7.2, is off).
func adjustCappedMax(n int64) int64 {
	if n <= 0 {
		return 0x7fffffff
	}
	return n
}

// withCappedOptions puts a capped collection's options first, where
// CollectionOptions::appendBSON lists them.
func withCappedOptions(capped, rest bson.D) bson.D {
	if capped == nil {
		return rest
	}
	return append(capped, rest...)
}

// cappedChange is a capped collection's limits as a command gives them
// (create's size and max, collMod's cappedSize and cappedMax).
type cappedChange struct {
	size, maxDocs   int64
	hasSize, hasMax bool
}

func (c cappedChange) any() bool { return c.hasSize || c.hasMax }

// errNotCapped is coll_mod.cpp's answer to cappedSize or cappedMax on a
// collection that is not capped.
func errNotCapped() error {
	return mongoerr.New(mongoerr.InvalidOptions, "Collection must be capped.")
}

// cappedLimitArgs reads a capped collection's limits from the fields
// sizeField and maxField (create's size and max, collMod's cappedSize and
// cappedMax) with their IDL bounds (create.idl, collmod.idl: size in
// [1, 1 PB], max < 2^31), which mongod checks before anything else.
func cappedLimitArgs(a args, sizeField, maxField string) (c cappedChange, err error) {
	if c.size, c.hasSize, err = a.int64Arg(sizeField); err != nil {
		return c, err
	}
	if c.hasSize {
		if err = checkCappedSize(sizeField, c.size); err != nil {
			return c, err
		}
	}
	if c.maxDocs, c.hasMax, err = a.int64Arg(maxField); err != nil {
		return c, err
	}
	if c.hasMax {
		err = checkCappedMax(maxField, c.maxDocs)
	}
	return c, err
}

// apply returns c's options (a copy the caller owns) with the new limits:
// parseCollModRequest refuses them on a collection that is not capped.
// Nothing is evicted now; the next insert brings the collection within
// the new limits (cappedDeleteUntilBelowConfiguredMaximum runs on insert).
func (ch cappedChange) apply(c *catalog.Collection, opts bson.D) (bson.D, error) {
	if !c.IsCapped() {
		return nil, errNotCapped()
	}
	if ch.hasSize {
		opts = setField(opts, "size", appendNumber(ch.size))
	}
	if ch.hasMax {
		// A limit of none is still stored (as 2^31-1), right after size
		// as appendBSON lists it.
		m := appendNumber(adjustCappedMax(ch.maxDocs))
		if !value.IsMissing(value.Get(opts, "max")) {
			opts = setField(opts, "max", m)
		} else {
			i := slices.IndexFunc(opts, func(e bson.E) bool { return e.Key == "size" })
			opts = slices.Insert(opts, i+1, bson.E{Key: "max", Value: m})
		}
	}
	return opts, nil
}
