package update

import "testing"

func TestReplacement(t *testing.T) {
	runCases(t, []updateCase{
		{name: "keeps the old _id first", doc: `{"_id": 1, "a": 1, "b": 2}`, update: `{"b": 3, "c": 4}`,
			want: `{"_id": 1, "b": 3, "c": 4}`, modified: true},
		{name: "same _id anywhere is fine and is stored first", doc: `{"_id": 1, "a": 1}`, update: `{"a": 2, "_id": 1}`,
			want: `{"_id": 1, "a": 2}`, modified: true},
		// ObjectReplaceExecutor::applyReplacementUpdate compares the
		// replacement itself with the old document.
		{name: "identical replacement is a no-op", doc: `{"_id": 1, "a": 1}`, update: `{"_id": 1, "a": 1}`, want: `{"_id": 1, "a": 1}`},
		{name: "same result without the _id rewrites", doc: `{"_id": 1, "a": 1}`, update: `{"a": 1}`, want: `{"_id": 1, "a": 1}`, modified: true},
		{name: "same fields in another order rewrite", doc: `{"_id": 1, "a": 1, "b": 2}`, update: `{"_id": 1, "b": 2, "a": 1}`, want: `{"_id": 1, "b": 2, "a": 1}`, modified: true},
		{name: "empty replacement", doc: `{"_id": 1, "a": 1}`, update: `{}`, want: `{"_id": 1}`, modified: true},
		{name: "changing _id", doc: `{"_id": 1, "a": 1}`, update: `{"_id": 2, "a": 1}`, code: 66,
			msg: "After applying the update, the (immutable) field '_id' was found to have been altered to _id: 2"},
		{name: "dollar field in a replacement", doc: `{"_id": 1}`, update: `{"a": 1, "$set": {"b": 1}}`, code: 52,
			msg: "The dollar ($) prefixed field '$set' in '$set' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith."},
		{name: "array _id", doc: `{"_id": 1}`, update: `{"_id": [1]}`, code: 53, msg: "The '_id' value cannot be of type array"},
	})
	u, err := Compile(js(t, `{"a": 1}`), Options{})
	if err != nil || u.Kind() != Replacement {
		t.Fatalf("kind = %v, err = %v", u.Kind(), err)
	}
}
