package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

func writeUsers(t *testing.T, text string, mode os.FileMode) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "users")
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func connectTo(t *testing.T, uri string) *mongo.Client {
	t.Helper()
	c, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Disconnect(context.Background()) })
	return c
}

func withLogin(uri, name, password string) string {
	return strings.Replace(uri, "mongodb://", "mongodb://"+name+":"+password+"@", 1) + "?authSource=admin"
}

// `schemalab serve --users FILE` is a server a class can share: every
// client logs in, each student keeps to its prefix and its quotas, and the
// first line of stdout is still the connection string.
func TestServeWithUsers(t *testing.T) {
	users := writeUsers(t, "# the room\nroom r00t-pw\nalice alice-pw alice_\n\nbob bob-pw bob_\n", 0o600)
	_, uri := startServe(t, "--users", users, "--max-storage", "1", "--max-cursors", "3", "--max-connections", "8")
	if !strings.HasPrefix(uri, "mongodb://127.0.0.1:") {
		t.Fatalf("first line %q", uri)
	}
	ctx := context.Background()
	var ce mongo.CommandError
	err := connectTo(t, uri).Database("alice_db").RunCommand(ctx, bson.D{{Key: "find", Value: "c"}}).Err()
	if !errors.As(err, &ce) || ce.Code != 13 || ce.Message != "Command find requires authentication" {
		t.Fatalf("anonymous find: %v", err)
	}
	if err := connectTo(t, withLogin(uri, "alice", "bob-pw")).Ping(ctx, nil); err == nil || !strings.Contains(err.Error(), "Authentication failed.") {
		t.Fatalf("wrong password: %v", err)
	}
	alice := connectTo(t, withLogin(uri, "alice", "alice-pw"))
	room := connectTo(t, withLogin(uri, "room", "r00t-pw"))
	if _, err := room.Database("bob_db").Collection("c").InsertOne(ctx, bson.D{{Key: "x", Value: 1}}); err != nil {
		t.Fatalf("the room login: %v", err)
	}
	err = alice.Database("bob_db").Drop(ctx)
	if !errors.As(err, &ce) || ce.Message != "schemalab: refusing `dropDatabase` on database `bob_db`: outside the sandbox prefix `alice_`" {
		t.Fatalf("alice dropping bob's database: %v", err)
	}
	// One MiB of storage: the second half-MiB document does not fit.
	big := bson.D{{Key: "s", Value: strings.Repeat("x", 600<<10)}}
	coll := alice.Database("alice_db").Collection("c")
	if _, err := coll.InsertOne(ctx, big); err != nil {
		t.Fatal(err)
	}
	_, err = coll.InsertOne(ctx, big)
	var we mongo.WriteException
	if !errors.As(err, &we) || len(we.WriteErrors) != 1 || we.WriteErrors[0].Code != 8000 ||
		!strings.HasPrefix(we.WriteErrors[0].Message, "you are over your space quota, using 0.6 MB of 1.0 MB; this write needs 0.6 MB more") {
		t.Fatalf("over the quota: %v", err)
	}
	if _, err := coll.DeleteMany(ctx, bson.D{}); err != nil {
		t.Fatal(err)
	}
	if _, err := coll.InsertOne(ctx, big); err != nil {
		t.Fatalf("after freeing space: %v", err)
	}
}

// serve refuses a users file it should not trust, before listening.
func TestServeRefusesBadUsersFiles(t *testing.T) {
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"readable by others": {[]string{"--users", writeUsers(t, "a pw\n", 0o644)}, "others may read it"},
		"a FIFO":             {[]string{"--users", fifo}, "not a regular file"},
		"missing":            {[]string{"--users", filepath.Join(t.TempDir(), "none")}, "no such file"},
		"a bad line":         {[]string{"--users", writeUsers(t, "a pw p_ extra\n", 0o600)}, "line 1"},
		"a bad prefix":       {[]string{"--users", writeUsers(t, "a pw a.b\n", 0o600)}, "line 1"},
		"empty":              {[]string{"--users", writeUsers(t, "# nobody\n", 0o600)}, "no users"},
		"duplicate":          {[]string{"--users", writeUsers(t, "a pw\na pw2\n", 0o600)}, "already exists"},
		"limits without it":  {[]string{"--max-cursors", "3"}, "need --users"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, bin, append([]string{"serve"}, tc.args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		cancel()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || len(out) != 0 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%s: exit %v, stdout %q, stderr %q", name, err, out, stderr.String())
		}
	}
}
