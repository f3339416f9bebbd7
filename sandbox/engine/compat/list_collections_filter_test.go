package compat_test

import "testing"

// listCollections matches its filter against each entry it would return
// (list_collections.cpp buildCollectionBson, matchesBSON): with nameOnly
// only the name and type are there to match, and an $expr that fails on
// an entry fails the command.
const listCollectionsFilterRef = "src/mongo/db/commands/list_collections.cpp; https://jira.mongodb.org/browse/SERVER-35922; " +
	"jstests/core/catalog/list_collections_filter.js"

func TestListCollectionsFilter(t *testing.T) {
	capped := `{"create": "k", "capped": true, "size": 4096}`
	runCmdCases(t, []cmdCase{
		{name: "a filter on options finds the capped collection", ref: listCollectionsFilterRef, setup: []string{capped},
			cmd:  `{"listCollections": 1, "filter": {"options.capped": true}}`,
			want: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.$cmd.listCollections", "firstBatch": [{"name": "k", "type": "collection", "options": "*", "info": "*", "idIndex": "*"}]}}`},
		{name: "with nameOnly a filter on options matches nothing", ref: listCollectionsFilterRef, setup: []string{capped},
			cmd:  `{"listCollections": 1, "filter": {"options.capped": true}, "nameOnly": true}`,
			want: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.$cmd.listCollections", "firstBatch": []}}`},
		{name: "with nameOnly a filter on the type matches", ref: listCollectionsFilterRef, setup: []string{capped},
			cmd:  `{"listCollections": 1, "filter": {"type": "collection"}, "nameOnly": true}`,
			want: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.$cmd.listCollections", "firstBatch": [{"name": "k", "type": "collection"}]}}`},
		{name: "an $expr failing on an entry fails the command", ref: listCollectionsFilterRef, setup: []string{capped},
			cmd: `{"listCollections": 1, "filter": {"$expr": {"$abs": "$name"}}}`, code: 28765, msg: "$abs only supports numeric types, not string"},
	})
}
