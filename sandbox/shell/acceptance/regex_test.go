package acceptance

import "testing"

// The tree lesson's materialized-path queries put "/" inside character
// classes; the pattern must reach the server as written.
func TestRegexLiteralWithSlashInClass(t *testing.T) {
	sh := newShell(t, "regex")
	eval(t, sh, "db.r.insertMany([{ _id: 1, p: '/a/b' }, { _id: 2, p: '/a/b/c' }])")
	expectOut(t, sh, "db.r.find({ p: /^\\/a\\/[^/]+$/ })", "[ { _id: 1, p: '/a/b' } ]\n")
}
