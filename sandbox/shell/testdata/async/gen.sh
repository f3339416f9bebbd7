#!/bin/sh
# Records what real mongosh prints for each script here, pasted into it
# (the way the shell's Eval prints values), against `schemalab serve`:
#   go run ./cmd/schemalab serve --port 27931 &
#   sh sandbox/shell/testdata/async/gen.sh /opt/mongosh/node_modules/.bin/mongosh mongodb://127.0.0.1:27931
# The prompt and the empty lines mongosh prints between inputs are dropped.
MONGOSH=$1 URI=$2
cd "$(dirname "$0")"
for f in *.js; do
	db=async$(basename "$f" .js | tr -d _)
	grep -v '^//' "$f" | "$MONGOSH" --quiet "$URI/$db" | sed -e "s/^$db> //" -e "/^$db> *$/d" -e '/^$/d' > "$(basename "$f" .js).mongosh.txt"
done
# syntax/: scripts mongosh refuses to run; what it prints for them with --file.
for f in syntax/*.js; do
	"$MONGOSH" --quiet "$URI/asyncsyntax" --file "$f" > "${f%.js}.mongosh.txt" 2>&1
done
