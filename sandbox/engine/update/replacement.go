package update

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func compileReplacement(spec bson.D, opts Options) (*Update, error) {
	if !opts.BypassEmptyTsReplacement {
		spec = fillEmptyTimestamps(spec, opts.Now, opts.clock())
	}
	return &Update{kind: Replacement, replacement: spec, now: opts.Now}, nil
}

// fillEmptyTimestamps gives the replacement's top-level Timestamp(0, 0)
// values, _id's excepted, the current time, as ObjectReplaceExecutor's
// constructor does with one tick of the cluster clock each. Only a
// replacement does this, not an operator or a pipeline update.
func fillEmptyTimestamps(spec bson.D, now bson.DateTime, clock *ClusterClock) bson.D {
	var out bson.D
	for i, e := range spec {
		if ts, ok := e.Value.(bson.Timestamp); ok && ts.T == 0 && ts.I == 0 && e.Key != "_id" {
			if out == nil {
				out = append(bson.D(nil), spec...)
			}
			out[i].Value = clock.Tick(now)
		}
	}
	if out == nil {
		return spec
	}
	return out
}

func (u *Update) applyReplacement(doc bson.D) (bson.D, bool, error) {
	if identical(u.replacement, doc) {
		return doc, false, nil
	}
	if err := u.checkReplacementFields(); err != nil {
		return nil, false, err
	}
	return replaceDocument(doc, u.replacement, true)
}

// checkReplacementFields is the storage validation a replacement gets when
// it is applied, not when it is parsed (so one that matches nothing is no
// error): in document order, the _id's type and fields, and top-level
// $-prefixed names, which only a DBRef's parts may have
// (object_replace_executor.cpp applyReplacementUpdate, scanDocument).
func (u *Update) checkReplacementFields() error {
	for i, e := range u.replacement {
		if e.Key == "_id" {
			if err := validateID(u.replacement[i : i+1]); err != nil {
				return err
			}
			continue
		}
		if strings.HasPrefix(e.Key, "$") {
			if err := checkTopLevelDollar(u.replacement, i); err != nil {
				return err
			}
		}
	}
	return nil
}

// replaceDocument is mongod's ObjectReplaceExecutor: the new document keeps
// the old _id (first) when it has none and may not change it. It is a no-op
// only when the replacement itself is binary identical to the old document
// (applyReplacementUpdate's binaryEqual): a replacement that leaves out the
// _id rewrites the document even when the result is the same, so mongod
// counts it in nModified and validates it.
func replaceDocument(doc, repl bson.D, copyRepl bool) (bson.D, bool, error) {
	if identical(repl, doc) {
		return doc, false, nil
	}
	oldID := value.Get(doc, "_id")
	newID := value.Get(repl, "_id")
	out := repl
	if value.IsMissing(newID) && !value.IsMissing(oldID) {
		out = make(bson.D, 0, len(repl)+1)
		out = append(out, bson.E{Key: "_id", Value: oldID})
		out = append(out, repl...)
	}
	// The new document is validated for storage before the immutable
	// _id is compared (applyReplacementUpdate: scanDocument, then the
	// immutable paths), so a bad new _id is refused as such.
	if err := validateID(out); err != nil {
		return nil, false, err
	}
	if !value.IsMissing(newID) && !value.IsMissing(oldID) && value.Compare(oldID, newID) != 0 {
		return nil, false, mongoerr.Newf(mongoerr.ImmutableField,
			"After applying the update, the (immutable) field '_id' was found to have been altered to %s", elemString("_id", newID))
	}
	if copyRepl {
		out = value.CopyDoc(out)
	}
	return out, true, nil
}

// InPlaceNoop reports whether an update that Apply reported as modifying doc
// into newDoc changes nothing when mongod applies it in place, which it does
// on a collection without a validator (CollectionImpl::
// updateWithDamagesSupported): an empty replacement of a document holding
// only its _id removes and appends nothing, so UpdateStage finds no damage
// and counts no modification. With a validator the document is rewritten,
// counted and validated.
func InPlaceNoop(doc, newDoc bson.D) bool {
	return len(doc) == 1 && len(newDoc) == 1 && identical(doc, newDoc)
}
