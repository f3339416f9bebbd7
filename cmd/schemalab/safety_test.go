package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// TestMain lets the test binary be schemalab itself: with
// SCHEMALAB_TEST_AS_MAIN set it runs main, so the tests below drive the
// real command line in subprocesses (`schemalab serve`, `schemalab shell`,
// `schemalab run`) exactly as a user does. A classroom started by a test
// starts its students' processes from this binary too, with an empty
// environment and the student command: they are schemalab, not another
// run of the tests.
func TestMain(m *testing.M) {
	if os.Getenv("SCHEMALAB_TEST_AS_MAIN") != "" || slices.Contains(os.Args[1:], studentCommand) {
		main()
		return
	}
	os.Exit(m.Run())
}

// schemalabCmd is the schemalab command line args, as a subprocess.
func schemalabCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "SCHEMALAB_TEST_AS_MAIN=1", "SCHEMALAB_STATE_DIR="+t.TempDir(), "MONGODB_URI=")
	return cmd
}

// sharedServer runs `schemalab serve` as the shared classroom server and
// returns its connection string and an unguarded client on it.
func sharedServer(t *testing.T) (string, *mongo.Client) {
	t.Helper()
	cmd := schemalabCmd(t, "serve", "--port", "0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	uri, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed no connection string: %v", err)
	}
	// The schemalab processes connect with --uri, which gives up after
	// 5 s unless the URI says otherwise; a machine busy with the rest of
	// CI can take longer to run the first hello.
	uri = strings.TrimSpace(uri) + "?serverSelectionTimeoutMS=30000"
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	return uri, client
}

// importantState is what must never change: database important's
// documents, collections and indexes, and which databases outside the
// prefix exist.
type importantState struct {
	People      []bson.D
	Collections []string
	Indexes     []string
	Outside     []string
}

func seedImportant(t *testing.T, c *mongo.Client) importantState {
	t.Helper()
	ctx := context.Background()
	people := c.Database("important").Collection("people")
	if _, err := people.InsertMany(ctx, []any{
		bson.D{{Key: "_id", Value: int32(1)}, {Key: "name", Value: "Ada"}, {Key: "secret", Value: "s3cr3t-ada"}},
		bson.D{{Key: "_id", Value: int32(2)}, {Key: "name", Value: "Grace"}, {Key: "secret", Value: "s3cr3t-grace"}},
	}); err != nil {
		t.Fatal(err)
	}
	return readImportant(t, c)
}

func readImportant(t *testing.T, c *mongo.Client) importantState {
	t.Helper()
	ctx := context.Background()
	var st importantState
	db := c.Database("important")
	cur, err := db.Collection("people").Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		t.Fatalf("important is unreadable: %v", err)
	}
	if err := cur.All(ctx, &st.People); err != nil {
		t.Fatal(err)
	}
	if st.Collections, err = db.ListCollectionNames(ctx, bson.D{}); err != nil {
		t.Fatal(err)
	}
	specs, err := db.Collection("people").Indexes().ListSpecifications(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range specs {
		st.Indexes = append(st.Indexes, s.Name)
	}
	names, err := c.ListDatabaseNames(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if !strings.HasPrefix(n, "schemalab_") || n == "schemalab_" {
			st.Outside = append(st.Outside, n)
		}
	}
	return st
}

// attacks are what a hostile learner types, each meant to read or change
// something outside the sandbox prefix. The first ones are issue 11's.
var attacks = []struct{ name, js string }{
	{"$db in runCommand drops a database", `db.runCommand({dropDatabase: 1, $db: 'important'})`},
	{"$db in runCommand inserts", `db.runCommand({insert: 'people', documents: [{pwned: true}], $db: 'important'})`},
	{"$db in aggregate options with $out", `db.people.aggregate([{$match: {}}, {$out: 'x'}], {$db: 'important'})`},
	{"$db in aggregate options with $merge", `db.people.aggregate([{$match: {}}, {$merge: {into: 'x'}}], {$db: 'important'})`},
	{"a name whose toString changes", `let n = 0; const d = db.getSiblingDB('schemalab_scratch'); d._name = {toString() { return n++ % 2 ? 'important' : 'schemalab_scratch' }}; d.dropDatabase(); d.dropDatabase()`},
	{"a pipeline getter that changes", `let k = 0; const o = {}; Object.defineProperty(o, 'pipeline', {enumerable: true, get() { return k++ ? [{$out: {db: 'important', coll: 'B'}}] : [] }}); db.c.insertOne({a: 1}); db.runCommand(Object.assign({aggregate: 'c', cursor: {}}, o)); db.runCommand(Object.assign({aggregate: 'c', cursor: {}}, o))`},
	{"a Proxy command whose keys change", `let k = 0; db.runCommand(new Proxy({dropDatabase: 1}, {ownKeys() { return k++ ? ['dropDatabase'] : ['dropDatabase', '$db'] }, get(t, p) { return p === '$db' ? 'important' : t[p] }, getOwnPropertyDescriptor(t, p) { return {value: p === '$db' ? 'important' : 1, enumerable: true, configurable: true} }}))`},
	{"getSiblingDB drop", `db.getSiblingDB('important').dropDatabase()`},
	{"getMongo().getDB insert", `db.getMongo().getDB('important').people.insertOne({pwned: 1})`},
	{"use then delete", "use important\ndb.people.deleteMany({})"},
	{"update in another database", `db.getSiblingDB('important').people.updateMany({}, {$set: {pwned: true}})`},
	{"index in another database", `db.getSiblingDB('important').people.createIndex({pwned: 1})`},
	{"drop a collection of another database", `db.getSiblingDB('important').people.drop()`},
	{"raw delete command", `db.runCommand({delete: 'people', deletes: [{q: {}, limit: 0}], $db: 'important'})`},
	{"rename out of another database", `db.adminCommand({renameCollection: 'important.people', to: 'schemalab_scratch.stolen'})`},
	{"rename over another database's collection", `db.x.insertOne({}); db.adminCommand({renameCollection: 'schemalab_scratch.x', to: 'important.people', dropTarget: true})`},
	{"$out to another database", `db.c.insertOne({a: 1}); db.c.aggregate([{$out: {db: 'important', coll: 'people'}}])`},
	{"$merge into another database", `db.c.insertOne({a: 1}); db.c.aggregate([{$merge: {into: {db: 'important', coll: 'people'}, whenMatched: 'replace'}}])`},
	{"$out inside $facet", `db.c.insertOne({a: 1}); db.c.aggregate([{$facet: {a: [{$out: {db: 'important', coll: 'f'}}]}}])`},
	{"$merge inside a $lookup sub-pipeline", `db.c.insertOne({a: 1}); db.c.aggregate([{$lookup: {from: 'c', pipeline: [{$merge: {into: {db: 'important', coll: 'm'}}}], as: 'x'}}])`},
	{"$out inside a $unionWith sub-pipeline", `db.c.insertOne({a: 1}); db.c.aggregate([{$unionWith: {coll: 'c', pipeline: [{$out: {db: 'important', coll: 'u'}}]}}])`},
	{"explain executing $out", `db.c.insertOne({a: 1}); db.runCommand({explain: {aggregate: 'c', pipeline: [{$out: {db: 'important', coll: 'e'}}], cursor: {}}, verbosity: 'executionStats'})`},
	{"mapReduce out to another database", `db.runCommand({mapReduce: 'c', map: 'function() { emit(1, 1) }', reduce: 'function(k, v) { return 1 }', out: {replace: 'people', db: 'important'}})`},
	{"a view over another database", `db.createView('v', 'c', [{$lookup: {from: {db: 'important', coll: 'people'}, pipeline: [], as: 'x'}}])`},
	{"bulkWrite naming another database", `db.adminCommand({bulkWrite: 1, ops: [{insert: 0, document: {pwned: 1}}], nsInfo: [{ns: 'important.people'}]})`},
	{"applyOps", `db.adminCommand({applyOps: [{op: 'i', ns: 'important.people', o: {_id: 99}}]})`},
	{"snapshot restored over another database", `db.c.insertOne({a: 1}); db.runCommand({schemalabSnapshot: 'save', name: 's'}); db.runCommand({schemalabSnapshot: 'restore', db: 'important', fromDb: 'schemalab_scratch', name: 's'})`},
	{"snapshot of another database", `db.runCommand({schemalabSnapshot: 'save', db: 'important', name: 'leak'})`},
	{"read another database", `db.getSiblingDB('important').people.find().toArray()`},
	{"read with $db", `db.runCommand({find: 'people', $db: 'important'})`},
	{"$lookup reading another database", `db.c.insertOne({a: 1}); db.c.aggregate([{$lookup: {from: {db: 'important', coll: 'people'}, pipeline: [], as: 'x'}}]).toArray()`},
	{"list every database", `db.adminCommand({listDatabases: 1})`},
	{"show dbs", "show dbs"},
	{"shut the server down", `db.getSiblingDB('admin').runCommand({shutdown: 1, force: true})`},
	{"write to config", `db.getSiblingDB('config').settings.insertOne({pwned: 1})`},
	{"the bare prefix", `db.getSiblingDB('schemalab_').c.insertOne({pwned: 1})`},
	{"the prefix in other case", `db.getSiblingDB('Schemalab_x').c.insertOne({pwned: 1})`},
	{"create in another database", `db.runCommand({create: 'people2', $db: 'important'})`},
	{"currentOp stage", `db.getSiblingDB('admin').aggregate([{$currentOp: {}}]).toArray()`},
}

// assertRefused checks a transcript and error output: the guard's message
// is there and none of important's data leaked into it.
func assertRefused(t *testing.T, what, out string) {
	t.Helper()
	if !strings.Contains(out, "schemalab: refusing") {
		t.Errorf("%s: not refused by the guard:\n%s", what, out)
	}
	if strings.Contains(out, "s3cr3t") {
		t.Errorf("%s: important's data was printed:\n%s", what, out)
	}
}

func TestAttacksThroughShellAndRunAreRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts a server and some 40 schemalab processes")
	}
	uri, client := sharedServer(t)
	want := seedImportant(t, client)
	check := func(after string) {
		t.Helper()
		if got := readImportant(t, client); !reflect.DeepEqual(got, want) {
			t.Fatalf("after %s, important changed:\n got %+v\nwant %+v", after, got, want)
		}
	}

	t.Run("shell", func(t *testing.T) {
		for _, a := range attacks {
			cmd := schemalabCmd(t, "shell", "--uri", uri, "-")
			cmd.Stdin = strings.NewReader(a.js + "\n")
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Errorf("%s: the shell exited 0", a.name)
			}
			assertRefused(t, a.name, string(out))
			check(a.name)
		}
	})

	t.Run("lesson code", func(t *testing.T) {
		// One lesson per attack: a lesson stops at its first failing
		// step, since later steps build on it.
		pack := t.TempDir()
		ids := make([]string, len(attacks))
		for i, a := range attacks {
			ids[i] = fmt.Sprintf("attack-%02d", i+1)
			lesson := fmt.Sprintf("---\nid: %s\ntitle: Attack %d\norder: %d\n---\n## Attack %d\n```js run\n%s\n```\n", ids[i], i+1, 100+i, i+1, a.js)
			if err := os.WriteFile(filepath.Join(pack, ids[i]+".md"), []byte(lesson), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := schemalabCmd(t, append([]string{"--content", pack, "--uri", uri, "run"}, ids...)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err == nil {
			t.Error("run exited 0 although every step failed")
		}
		steps := regexp.MustCompile(`\n\d+\. Attack \d+\n`).Split(stdout.String(), -1)[1:]
		if len(steps) != len(attacks) {
			t.Fatalf("%d steps in the transcript for %d attacks:\n%s\n%s", len(steps), len(attacks), stdout.String(), stderr.String())
		}
		for i, out := range steps {
			assertRefused(t, attacks[i].name, out)
		}
		if strings.Contains(stdout.String()+stderr.String(), "s3cr3t") {
			t.Errorf("important's data was printed:\n%s", stdout.String())
		}
		check("the lesson")
	})

	// The server survived the shutdown attempt, and work inside the
	// sandbox is unaffected.
	cmd := schemalabCmd(t, "shell", "--uri", uri, "-")
	cmd.Stdin = strings.NewReader("db.ok.insertOne({_id: 1})\ndb.ok.countDocuments()\n")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasSuffix(string(out), "1\n") {
		t.Errorf("work in the sandbox: %v\n%s", err, out)
	}
	check("the whole run")
}

// Hostile scripts through `schemalab shell` against a served server: each
// ends with a clear error on stderr and exit 1 (never a crash), and the
// server keeps serving.
func TestHostileScriptsThroughTheShellCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts a server and a dozen schemalab processes, some running into their limits")
	}
	uri, client := sharedServer(t)
	for _, tc := range []struct {
		name, js   string
		args       []string
		wantStdout string
		wantErr    string // "" when the script must succeed
	}{
		{"an Error whose message getter loops", `const e = new Error('x'); Object.defineProperty(e, 'message', { get() { for (;;) {} } }); throw e`,
			[]string{"--timeout", "1s"}, "", "MongoshInterruptedError: execution exceeded the time limit of 1s and was interrupted"},
		{"a thrown Proxy whose getPrototypeOf throws", `throw new Proxy({}, { getPrototypeOf() { throw new Error('nope') } })`,
			nil, "", "Error: {}"},
		{"a sparse array printed", `const a = []; a[4294967294] = 1; print(a)`,
			nil, "[ <4294967294 empty items>, 1 ]\n", ""},
		{"a sparse array inserted", `const a = []; a[4294967294] = 1; db.c.insertOne({ a })`,
			nil, "", `RangeError: The value of "offset" is out of range. It must be >= 0 && <= 17825792. Received 17825793`},
		{"allocating without end", `const hoard = []; for (;;) hoard.push('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' + hoard.length)`,
			[]string{"--script-heap", "64", "--timeout", "60s"}, "", "MongoshInterruptedError: script used more than 64 MB of memory and was interrupted"},
		{"} and else on separate lines", "if (db.c.countDocuments() > 100) {\n  print('many')\n}\nelse {\n  print('few')\n}",
			nil, "few\n", ""},
	} {
		args := append([]string{"shell", "--uri", uri}, tc.args...)
		cmd := schemalabCmd(t, append(args, "-")...)
		cmd.Stdin = strings.NewReader(tc.js + "\n")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := cmd.ProcessState.ExitCode()
		switch {
		case tc.wantErr == "" && (err != nil || stdout.String() != tc.wantStdout):
			t.Errorf("%s: exit %d, stdout %q, stderr %q", tc.name, code, stdout.String(), stderr.String())
		case tc.wantErr != "" && (code != 1 || !strings.HasPrefix(stderr.String(), tc.wantErr)):
			t.Errorf("%s: exit %d, stderr %q, want exit 1 and %q", tc.name, code, stderr.String(), tc.wantErr)
		}
		if err := client.Ping(context.Background(), nil); err != nil {
			t.Fatalf("after %s the server stopped serving: %v", tc.name, err)
		}
	}
}
