package classroom

import (
	"encoding/binary"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	room "github.com/schemalab/schemalab/lessons/classroom"
	"golang.org/x/sys/unix"
)

// hostileChild is a student's process as the room sees it, with the test
// at the other end of its control channel, speaking as a hostile process
// would.
func hostileChild(t *testing.T) (*studentProc, net.Conn, *room.Room) {
	t.Helper()
	r := room.New(room.Options{})
	srv := startClassroom(t, Config{Auth: Auth{Open: true}, Room: r})
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	conn := func(fd int) net.Conn {
		f := os.NewFile(uintptr(fd), "control")
		defer f.Close()
		c, err := net.FileConn(f)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	roomEnd, childEnd := conn(fds[0]), conn(fds[1])
	t.Cleanup(func() { roomEnd.Close(); childEnd.Close() })
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal("sleep, which stands in for a student's process:", err)
	}
	c := &child{cmd: cmd, exited: make(chan struct{})}
	go func() { cmd.Wait(); close(c.exited) }()
	t.Cleanup(func() { cmd.Process.Kill() })
	ls := &liveSession{name: "mallory", lang: "en", done: make(chan struct{})}
	p := &studentProc{s: srv, ls: ls, child: c, prefix: "mallory_", turns: map[uint64]func(){}, turnSlot: make(chan struct{}, 1),
		ctl: &controlConn{rw: roomEnd, maxRead: maxChildMessage}, ctx: t.Context()}
	r.Join("mallory", "open")
	go p.listen()
	return p, childEnd, r
}

func sendFrame(t *testing.T, c net.Conn, body []byte) {
	t.Helper()
	head := make([]byte, 4)
	binary.BigEndian.PutUint32(head, uint32(len(body)))
	c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write(append(head, body...)); err != nil {
		t.Fatal(err)
	}
}

func sendJSON(t *testing.T, c net.Conn, m message) {
	t.Helper()
	body, _ := json.Marshal(m)
	sendFrame(t, c, body)
}

func readReply(t *testing.T, c net.Conn) message {
	t.Helper()
	cc := &controlConn{rw: c, maxRead: maxRoomMessage}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		m, err := cc.receive()
		if err != nil {
			t.Fatal(err)
		}
		if m.Type == msgReply {
			return m
		}
	}
}

func waitKilled(t *testing.T, p *studentProc, what string) {
	t.Helper()
	select {
	case <-p.child.exited:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: the room did not stop the process", what)
	}
}

// The room takes from a student's process only small, well-formed
// messages about that student's own lessons: anything else stops the
// process or is refused, and the room goes on.
func TestTheRoomTrustsNothingAStudentsProcessSays(t *testing.T) {
	t.Run("a message too large", func(t *testing.T) {
		p, c, _ := hostileChild(t)
		head := make([]byte, 4)
		binary.BigEndian.PutUint32(head, 1<<30)
		c.Write(head)
		waitKilled(t, p, "a 1 GiB frame")
	})
	t.Run("not JSON", func(t *testing.T) {
		p, c, _ := hostileChild(t)
		sendFrame(t, c, []byte("\x00\xffnot json"))
		waitKilled(t, p, "a frame of junk")
	})
	t.Run("an unknown message", func(t *testing.T) {
		p, c, _ := hostileChild(t)
		sendJSON(t, c, message{Type: "become-instructor"})
		waitKilled(t, p, "an unknown type")
	})
	t.Run("activity", func(t *testing.T) {
		_, c, r := hostileChild(t)
		// Unknown lessons, steps out of range and absurd counts are
		// dropped or clamped; it speaks for mallory only, whatever it says.
		sendJSON(t, c, message{Type: msgActivity, Kind: activityMoved, Lesson: "nope\x1b]0;x\x07", Step: 0})
		sendJSON(t, c, message{Type: msgActivity, Kind: activityMoved, Lesson: "bucket", Step: 999})
		sendJSON(t, c, message{Type: msgActivity, Kind: activityMoved, Lesson: "bucket", Step: 2, Exercises: &room.Exercises{Passed: 1 << 30, Attempted: -5, Total: 1 << 30}})
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			rows := r.Rows()
			if len(rows) == 1 && rows[0].HasPosition {
				row := rows[0]
				if row.Name != "mallory" || row.Lesson != "bucket" || row.Step != 2 || row.Passed != row.Total || row.Attempted != 0 || row.Total > 10 {
					t.Fatalf("the room took %+v", row)
				}
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatal("a valid report never reached the room")
	})
	t.Run("a restore into someone else's database", func(t *testing.T) {
		_, c, _ := hostileChild(t)
		for _, m := range []message{
			{Type: msgRestore, ID: 1, Lesson: "bucket", Snapshot: "s1", DB: "alice_bucket"},
			{Type: msgRestore, ID: 2, Lesson: "bucket", Snapshot: "s1", DB: room.TemplatePrefix + "bucket"},
			{Type: msgRestore, ID: 3, Lesson: "bucket", Snapshot: "../../x", DB: "mallory_bucket"},
			{Type: msgRestore, ID: 4, Lesson: "admin", Snapshot: "s1", DB: "admin"},
			// The scratch copies an exercise's grading makes are the
			// lesson database's, by exact name.
			{Type: msgRestore, ID: 5, Lesson: "bucket", Snapshot: "g9", DB: "alice_bucket__goal"},
			{Type: msgRestore, ID: 6, Lesson: "bucket", Snapshot: "s1", DB: "mallory_bucket__goalx"},
			{Type: msgRestore, ID: 7, Lesson: "bucket", Snapshot: "s1", DB: "mallory_bucket__before.x"},
			{Type: msgRestore, ID: 8, Lesson: "bucket", Snapshot: "x9", DB: "mallory_bucket__goal"},
		} {
			sendJSON(t, c, m)
			if reply := readReply(t, c); reply.ID != m.ID || reply.Err == "" {
				t.Errorf("restore %+v: reply %+v", m, reply)
			}
		}
	})
	t.Run("a flood of requests", func(t *testing.T) {
		_, c, _ := hostileChild(t)
		// Turns held and never given back: the process gets at most one
		// (when the room's turns are free: other rooms' template builds
		// may hold them for a while on a busy machine); the rest wait for
		// it, and those past the open requests' bound are refused at once.
		// A granted request is no longer open, so when the grant comes
		// before the room has read the last requests, one more of them is
		// let in to wait: the refusals are four less the grants.
		for i := range maxOpenRequests + 4 {
			sendJSON(t, c, message{Type: msgTurn, ID: uint64(i + 1)})
		}
		refused, granted := 0, 0
		for refused+granted < 4 {
			switch reply := readReply(t, c); {
			case strings.Contains(reply.Err, "too many requests"):
				refused++
			case reply.Err == "":
				granted++
			default:
				t.Fatalf("a turn request was answered %q", reply.Err)
			}
		}
		if granted > 1 {
			t.Errorf("the process holds %d turns at once", granted)
		}
	})
}
