package classroom

import (
	"testing"
	"time"
)

// Each student's process logs in to the room's server as a login made
// for them at their login, within their quotas: a write past the storage
// quota fails with the server's error in their shell, the dashboard's
// figures are theirs, and the login goes when they do.
func TestEachStudentLogsInWithinTheirQuotas(t *testing.T) {
	dropDatabasesWith(t, "alice_")
	alice := newKey(t)
	srv := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, alice)}, Quotas: Quotas{Storage: 4 << 20, Cursors: 5}})
	a := login(t, srv.Addr(), loginOptions{user: "alice", key: alice, w: 160, h: 45})
	a.openLesson("The Computed Pattern")
	a.send(":")
	a.waitFor(`Scratch shell`, 30*time.Second)
	a.send("for (let i = 0; i < 8; i++) db.big.insertOne({ pad: 'x'.repeat(1 << 20) })", "enter")
	a.waitFor(`over your space quota`, 60*time.Second)
	u, memory, ok := srv.studentUsage("alice")
	if !ok || u.Connections == 0 || u.Storage == 0 || u.Storage > 5<<20 || memory == 0 {
		t.Fatalf("alice's usage: %+v, memory %d, ok %v", u, memory, ok)
	}
	// Cursors beyond her five are refused to her.
	a.send("var cs = []; for (let i = 0; i < 10; i++) cs.push(db.big.find().batchSize(1)), cs[i].next()", "enter")
	a.waitFor(`open cursors`, 30*time.Second)
	a.close() // she closes her terminal
	a.wait(30 * time.Second)
	deadline := time.Now().Add(10 * time.Second)
	for sharedBackend.Usage("alice").Connections > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := sharedBackend.Usage("alice").Connections; n > 0 {
		t.Errorf("alice's login still has %d connections after she left", n)
	}
}
