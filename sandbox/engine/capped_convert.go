package engine

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/storagestats"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// cloneCollectionAsCapped and convertToCapped (collection_to_capped.cpp,
// capped_utils.cpp). Both copy a collection's documents, in natural order,
// into a new capped collection with the source's options and only an _id
// index: convertToCapped then puts it in the source's place, so the
// source's other indexes are gone, as the manual says.

func cmdCloneCollectionAsCapped(e *Engine, req *request) (bson.D, error) {
	from, ok := req.cmd[0].Value.(string)
	if !ok {
		return nil, mongoerr.New(mongoerr.TypeMismatch, "'cloneCollectionAsCapped' must be of type String")
	}
	to, ok := value.Get(req.cmd, "toCollection").(string)
	if !ok {
		return nil, mongoerr.New(mongoerr.TypeMismatch, "'toCollection' must be of type String")
	}
	if !validCollectionName(from) {
		return nil, mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid source collection name: %s", from)
	}
	if !validCollectionName(to) {
		return nil, mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid target collection name: %s", to)
	}
	size, err := cappedConversionSize(req)
	if err != nil {
		return nil, err
	}
	temp := expr.IsTrue(value.Get(req.cmd, "temp"))
	err = e.catalog.ChangeNamespace(req.db, func(ch *catalog.Change) error {
		src, err := cappedSource(ch, req.db, from)
		if err != nil {
			return err
		}
		if ch.Snapshot(to) != nil {
			return mongoerr.Newf(mongoerr.NamespaceExists,
				"cloneCollectionAsCapped failed - destination collection %s already exists. source collection: %s", ns(req.db, to), ns(req.db, from))
		}
		dst, err := ch.Create(to, cappedOptionsFrom(src, size, temp))
		if err != nil {
			return err
		}
		dst.Validator = src.Validator
		return fillCapped(src, dst, size)
	})
	if err != nil {
		return nil, err
	}
	return bson.D{}, nil
}

func cmdConvertToCapped(e *Engine, req *request) (bson.D, error) {
	coll, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	size, err := cappedConversionSize(req)
	if err != nil {
		return nil, err
	}
	err = e.catalog.ChangeNamespace(req.db, func(ch *catalog.Change) error {
		src, err := cappedSource(ch, req.db, coll)
		if err != nil {
			return err
		}
		// The copy goes to a temporary collection renamed over the source
		// ("tmp%%%%%.convertToCapped.<name>"); its name must be valid too.
		if err := catalog.ValidateNamespace(req.db, "tmp00000.convertToCapped."+coll); err != nil {
			return err
		}
		return ch.Rebuild(coll, cappedOptionsFrom(src, size, false), func(old, rebuilt *catalog.Collection) error {
			rebuilt.Validator = old.Validator
			return fillCapped(old, rebuilt, size)
		})
	})
	if err != nil {
		return nil, err
	}
	return bson.D{}, nil
}

// cappedConversionSize is both commands' size: safeNumberLong of the
// field (missing is 0), which must be positive, and then
// CollectionOptions::checkAndAdjustCappedSize's bound, which the new
// collection's creation applies.
func cappedConversionSize(req *request) (int64, error) {
	size, _ := value.SafeNumberLong(value.Get(req.cmd, "size"))
	if size <= 0 {
		return 0, mongoerr.New(mongoerr.InvalidOptions, "Capped collection size must be greater than zero")
	}
	if size > maxCappedSize {
		return 0, mongoerr.New(mongoerr.BadValue, "size cannot exceed 1 PB")
	}
	return size, nil
}

// cappedSource is the collection to copy, with capped_utils.cpp's errors
// for a database or collection that does not exist and for a view.
func cappedSource(ch *catalog.Change, db, coll string) (*catalog.Collection, error) {
	if !ch.DatabaseExists() {
		return nil, mongoerr.Newf(mongoerr.NamespaceNotFound, "database %s not found", db)
	}
	src := ch.Snapshot(coll)
	if src == nil {
		return nil, mongoerr.Newf(mongoerr.NamespaceNotFound, "source collection %s does not exist", ns(db, coll))
	}
	if src.Kind == catalog.KindView || src.Kind == catalog.KindTimeseries {
		return nil, mongoerr.Newf(mongoerr.CommandNotSupportedOnView, "cloneCollectionAsCapped not supported for views: %s", ns(db, coll))
	}
	return src, nil
}

// cappedOptionsFrom are the source's options made capped with size, as
// cloneCollectionAsCapped sets them on a copy of the source's
// CollectionOptions: a document limit the source had stays.
func cappedOptionsFrom(src *catalog.Collection, size int64, temp bool) bson.D {
	capped := bson.D{{Key: "capped", Value: true}, {Key: "size", Value: appendNumber(size)}}
	if m := value.Get(src.Options, "max"); !value.IsMissing(m) {
		capped = append(capped, bson.E{Key: "max", Value: m})
	}
	if temp {
		capped = append(capped, bson.E{Key: "temp", Value: true})
	}
	var rest bson.D
	for _, o := range src.Options {
		switch o.Key {
		case "capped", "size", "max", "temp":
		default:
			rest = append(rest, o)
		}
	}
	return withCappedOptions(capped, rest)
}

// fillCapped copies src's documents into dst in natural order, without
// validation. Like cloneCollectionAsCapped, it first skips the oldest
// documents that could not fit anyway: while the source's data exceeds
// twice the larger of size and the new collection's storage size, each
// skipped document counts four times its size (for padding).
func fillCapped(src, dst *catalog.Collection, size int64) error {
	excess := src.DataSize() - max(2*size, 2*storagestats.DataStorageSize(dst))
	var err error
	src.Scan(0, func(r *catalog.Record) bool {
		if excess > 0 {
			excess -= 4 * int64(r.Size)
			return true
		}
		_, err = dst.InsertSized(r.Doc, r.Size)
		return err == nil
	})
	return err
}

// validCollectionName is NamespaceString::validCollectionName: not empty,
// not starting with a dot, no NUL.
func validCollectionName(name string) bool {
	return name != "" && name[0] != '.' && !strings.ContainsRune(name, 0)
}
