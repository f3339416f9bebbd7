// Package compat is schemalab's own conformance suite, after FerretDB's
// *_compat_test.go: every case is written once, with the answer MongoDB 8.0
// gives (each case cites the manual page or the mongod jstest it comes
// from), and runs through the official driver against the embedded server
// and, when SCHEMALAB_TEST_URI is set, against a real MongoDB as well.
//
// A contributor with a MongoDB 8.0 server checks the sandbox against it with
//
//	SCHEMALAB_TEST_URI=mongodb://localhost:27017 go test ./sandbox/engine/compat
//
// Each case gets a database of its own on that server, named compat_…, and
// drops it afterwards; no other database is read or written. Without the
// variable the real-server half of every case is skipped and says so.
package compat
