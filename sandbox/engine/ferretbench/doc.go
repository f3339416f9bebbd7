// Package ferretbench measures the embedded server side by side with
// FerretDB v1.24 embedded on SQLite, both through the official driver v2,
// on the workloads of issue 26 over 200,000 documents: insertMany,
// $group $sum, an indexed find and a count. Each benchmark reports each
// side's time per operation (ours-ms/op, peer-ms/op) and the ratio
// peer/ours.
//
// It is a module of its own, so that FerretDB and its dependencies stay
// out of schemalab's go.mod and `go test ./...` at the root never builds
// it. Run it from this directory, one benchmark at a time on a shared
// machine:
//
//	cd sandbox/engine/ferretbench && go test -run '^$' -bench . -benchtime 1x
package ferretbench
