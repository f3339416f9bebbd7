package engine_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Reply shapes of the administrative and CRUD commands issue 2 lists,
// as mongod 8.0 builds them (field order included).
func TestConfCommandReplies(t *testing.T) {
	db, _ := confColl(t, `{"_id":1,"a":1}`, `{"_id":2,"a":[1,2]}`, `{"_id":3,"a":"x"}`)
	admin := db.Client().Database("admin")

	sameJSON(t, "ping", okJ(t, admin, `{"ping":1}`), `{"ok":1.0}`)
	bi := okJ(t, admin, `{"buildInfo":1}`)
	if v, _ := field(bi, "version").(string); len(v) < 4 || v[:4] != "8.0." {
		t.Errorf("buildInfo version %v", v)
	}
	sameJSON(t, "buildInfo maxBsonObjectSize", field(bi, "maxBsonObjectSize"), `16777216`)
	sameJSON(t, "fcv", okJ(t, admin, `{"getParameter":1,"featureCompatibilityVersion":1}`), `{"featureCompatibilityVersion":{"version":"8.0"},"ok":1.0}`)
	for _, c := range []string{`{"getCmdLineOpts":1}`, `{"getLog":"startupWarnings"}`, `{"hostInfo":1}`, `{"connectionStatus":1}`, `{"whatsmyuri":1}`, `{"endSessions":[]}`} {
		okJ(t, admin, c)
	}
	wantErr(t, db, `{"noSuchCommand":1}`, mongoerr.CommandNotFound, "no such command: 'noSuchCommand'")
	// getLog names a wrong argument as BSONElement::toString(false) prints it.
	wantErr(t, admin, `{"getLog":{"$numberDouble":"NaN"}}`, mongoerr.TypeMismatch, "Argument to getLog must be of type String; found nan.0 of type double")
	wantErr(t, admin, `{"getLog":{"a":1}}`, mongoerr.TypeMismatch, "Argument to getLog must be of type String; found { a: 1 } of type object")
	wantErr(t, admin, `{"getLog":2}`, mongoerr.TypeMismatch, "Argument to getLog must be of type String; found 2 of type int")

	sameJSON(t, "count", okJ(t, db, `{"count":"c","query":{"a":1}}`), `{"n":2,"ok":1.0}`)
	sameJSON(t, "count skip/limit", okJ(t, db, `{"count":"c","skip":1,"limit":1}`), `{"n":1,"ok":1.0}`)
	sameJSON(t, "count missing collection", okJ(t, db, `{"count":"nope"}`), `{"n":0,"ok":1.0}`)
	sameJSON(t, "distinct", okJ(t, db, `{"distinct":"c","key":"a"}`), `{"values":[1,2,"x"],"ok":1.0}`)
	sameJSON(t, "distinct query", okJ(t, db, `{"distinct":"c","key":"a","query":{"_id":{"$lt":3}}}`), `{"values":[1,2],"ok":1.0}`)

	sameJSON(t, "findAndModify new", okJ(t, db, `{"findAndModify":"c","query":{"_id":1},"update":{"$inc":{"a":1}},"new":true,"fields":{"_id":0}}`),
		`{"lastErrorObject":{"n":1,"updatedExisting":true},"value":{"a":2},"ok":1.0}`)
	sameJSON(t, "findAndModify old", okJ(t, db, `{"findAndModify":"c","query":{"_id":1},"update":{"$inc":{"a":1}}}`),
		`{"lastErrorObject":{"n":1,"updatedExisting":true},"value":{"_id":1,"a":2},"ok":1.0}`)
	sameJSON(t, "findAndModify upsert", okJ(t, db, `{"findAndModify":"c","query":{"_id":9},"update":{"$set":{"a":0}},"upsert":true,"new":true}`),
		`{"lastErrorObject":{"n":1,"updatedExisting":false,"upserted":9},"value":{"_id":9,"a":0},"ok":1.0}`)
	sameJSON(t, "findAndModify remove", okJ(t, db, `{"findAndModify":"c","query":{"_id":9},"remove":true}`),
		`{"lastErrorObject":{"n":1},"value":{"_id":9,"a":0},"ok":1.0}`)
	sameJSON(t, "findAndModify no match", okJ(t, db, `{"findAndModify":"c","query":{"_id":99},"remove":true}`),
		`{"lastErrorObject":{"n":0},"value":null,"ok":1.0}`)
	wantErr(t, db, `{"findAndModify":"c","query":{"_id":1},"update":{"$set":{"_id":5}}}`, mongoerr.ImmutableField, "Plan executor error during findAndModify :: caused by :: Performing an update on the path '_id' would modify the immutable field '_id'")
	wantErr(t, db, `{"findAndModify":"c","query":{}}`, mongoerr.FailedToParse, "Either an update or remove=true must be specified")

	wantErr(t, db, `{"insert":"c","documents":[]}`, mongoerr.InvalidLength, "Write batch sizes must be between 1 and 100000. Got 0 operations.")
	wantErr(t, db, `{"update":"c","updates":[]}`, mongoerr.InvalidLength, "Write batch sizes must be between 1 and 100000. Got 0 operations.")
	wantErr(t, db, `{"delete":"c","deletes":[]}`, mongoerr.InvalidLength, "Write batch sizes must be between 1 and 100000. Got 0 operations.")

	// Collections.
	sameJSON(t, "create", okJ(t, db, `{"create":"n"}`), `{"ok":1.0}`)
	_, ce := runJ(t, db, `{"create":"n","validationLevel":"moderate"}`)
	if ce == nil || ce.Code != mongoerr.NamespaceExists || !strings.HasPrefix(ce.Message, `namespace conf.n already exists, but with different options: { uuid: UUID("`) {
		t.Errorf("create with other options: %v", ce)
	}
	lc := firstBatch(t, db, `{"listCollections":1,"nameOnly":true,"filter":{"name":"n"}}`)
	sameJSON(t, "listCollections nameOnly", lc, `[{"name":"n","type":"collection"}]`)
	lc = firstBatch(t, db, `{"listCollections":1,"filter":{"name":{"$in":["c","n"]}}}`)
	if len(lc) != 2 {
		t.Fatalf("listCollections filter: %v", relaxed(lc))
	}
	full := lc[0].(bson.D)
	var keys []string
	for _, e := range full {
		keys = append(keys, e.Key)
	}
	sameJSON(t, "listCollections entry keys", keys, `["name","type","options","info","idIndex"]`)
	lcReply := okJ(t, db, `{"listCollections":1,"nameOnly":true}`)
	cur := field(lcReply, "cursor").(bson.D)
	if cur[0].Key != "id" || cur[1].Key != "ns" || cur[1].Value != "conf.$cmd.listCollections" || cur[2].Key != "firstBatch" {
		t.Errorf("listCollections cursor %v", relaxed(cur))
	}

	sameJSON(t, "rename", okJ(t, admin, `{"renameCollection":"conf.n","to":"conf.m"}`), `{"ok":1.0}`)
	wantErr(t, admin, `{"renameCollection":"conf.n","to":"conf.o"}`, mongoerr.NamespaceNotFound, "Source collection conf.n does not exist")
	wantErr(t, admin, `{"renameCollection":"conf.m","to":"conf.c"}`, mongoerr.NamespaceExists, "target namespace exists")
	wantErr(t, db, `{"renameCollection":"conf.m","to":"conf.o"}`, mongoerr.Unauthorized, "renameCollection may only be run against the admin database.")
	sameJSON(t, "drop", okJ(t, db, `{"drop":"m"}`), `{"nIndexesWas":1,"ns":"conf.m","ok":1.0}`)
	sameJSON(t, "drop missing", okJ(t, db, `{"drop":"m"}`), `{"ok":1.0}`)

	// A fresh server has admin, config and local (system_databases.go).
	dbs := okJ(t, admin, `{"listDatabases":1,"nameOnly":true}`)
	sameJSON(t, "listDatabases nameOnly", dbs, `{"databases":[{"name":"admin"},{"name":"conf"},{"name":"config"},{"name":"local"}],"ok":1.0}`)
	sameJSON(t, "dropDatabase", okJ(t, db, `{"dropDatabase":1}`), `{"ok":1.0}`)
	sameJSON(t, "listDatabases after drop", okJ(t, admin, `{"listDatabases":1,"nameOnly":true}`), `{"databases":[{"name":"admin"},{"name":"config"},{"name":"local"}],"ok":1.0}`)
}
