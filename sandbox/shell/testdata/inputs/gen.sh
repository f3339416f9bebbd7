#!/bin/sh
# Records what real mongosh prints for each script here, pasted into it,
# against `schemalab serve`: every line is an input of its own, and an
# error ends only that input.
#   go run ./cmd/schemalab serve --port 27931 &
#   sh sandbox/shell/testdata/inputs/gen.sh /opt/mongosh/node_modules/.bin/mongosh mongodb://127.0.0.1:27931
# The prompt, the empty lines between inputs and the "Uncaught" mongosh
# puts before an error are dropped.
MONGOSH=$1 URI=$2
cd "$(dirname "$0")"
for f in *.js; do
	db=inputs$(basename "$f" .js | tr -d _)
	grep -v '^//' "$f" | "$MONGOSH" --quiet "$URI/$db" | tr -d '\r' |
		sed -e "s/^$db> //" -e "/^$db> *$/d" -e '/^$/d' -e '/^Uncaught:$/d' -e 's/^Uncaught //' > "$(basename "$f" .js).mongosh.txt"
done
