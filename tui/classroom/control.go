package classroom

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schemalab/schemalab/lessons"
	room "github.com/schemalab/schemalab/lessons/classroom"
)

// The control channel joins a student's process to the room's: a Unix
// socket the child inherits as its file descriptor 3. Each message is a
// 4-byte big-endian length and a JSON object. The room trusts nothing the
// child says: a message from it is small (maxChildMessage), of a known
// type, and about the child's own student only, since the room knows
// whose process is at the other end and never reads a name from it.

// Message types, student to room:
const (
	msgActivity = "activity" // Kind, Lesson, Step, Passed, Exercises
	msgSeeds    = "seeds"    // ID, Lesson, Snapshot: the lesson's template, once it has that state, please
	msgRestore  = "restore"  // ID, Lesson, Snapshot, DB: copy a template state into DB
	msgTurn     = "turn"     // ID: a turn, please
	msgRun      = "run"      // ID, Lesson, Step, Widths: the room's run of a step, please
	msgTurnDone = "turn-done"
)

// Message types, room to student (and replies to the above, by ID):
const (
	msgSpec     = "spec"     // Spec: who the student is and how to reach the server; the first message
	msgAnnounce = "announce" // Lesson, Step (1-based; "" clears)
	msgStop     = "stop"     // Reason: the room ends the session
	msgReply    = "reply"    // ID, Err, Template or Result
)

// Stop reasons.
const (
	stopReplaced = "replaced"
	stopEnded    = "ended"
)

// Activity kinds (tui.Activity's, by name).
const (
	activityMoved   = "moved"
	activityRan     = "ran"
	activityAttempt = "attempt"
)

const (
	// maxChildMessage bounds what the room reads from a student's
	// process: an activity report or a request is a few hundred bytes.
	maxChildMessage = 16 << 10
	// maxRoomMessage bounds what a student's process reads from the
	// room: a lesson's template with its portable globals.
	maxRoomMessage = 256 << 20
	// controlWriteTimeout: a student's process that stops reading the
	// room's messages is stopped rather than waited for.
	controlWriteTimeout = 10 * time.Second
)

// message is every message of the control channel; each type uses some
// of the fields.
type message struct {
	Type      string          `json:"t"`
	ID        uint64          `json:"id,omitempty"`
	Kind      string          `json:"kind,omitempty"`
	Lesson    string          `json:"lesson,omitempty"`
	Step      int             `json:"step,omitempty"`
	Passed    bool            `json:"passed,omitempty"`
	Exercises *room.Exercises `json:"ex,omitempty"`
	Snapshot  string          `json:"snapshot,omitempty"`
	DB        string          `json:"db,omitempty"`
	Reason    string          `json:"reason,omitempty"`
	Err       string          `json:"err,omitempty"`
	Template  []byte          `json:"template,omitempty"`
	Widths    *lessons.Widths `json:"widths,omitempty"`
	Result    []byte          `json:"result,omitempty"`
	Spec      *StudentSpec    `json:"spec,omitempty"`
}

// StudentSpec is what a student's process is told at its start.
type StudentSpec struct {
	// Name is the student's name; Prefix their databases' prefix.
	Name, Prefix string
	// Dir keeps their progress.
	Dir string
	// Lang is the session's language.
	Lang    string
	NoColor bool
	// URI reaches the room's server; it may carry the student's own
	// credentials, which is why the spec travels over the control
	// channel and never on a command line.
	URI string
	// User and Password log the process in to the server, as the login
	// the room made for this session ("" when the server has none).
	User, Password string
	// Label names the sandbox on the status line.
	Label string
	// ScriptTimeout bounds one block; ScriptHeap is the memory the
	// session's scripts may take, in bytes (0: the shell's default).
	ScriptTimeout time.Duration
	ScriptHeap    int64
	// MemoryLimit is the process's soft memory limit (GOMEMLIMIT), below
	// the hard one the room set on it; MaxThreads and MaxStack bound its
	// threads and one goroutine's stack.
	MemoryLimit int64
	MaxThreads  int
	MaxStack    int
	// Warnings are shown on the catalog (broken lesson files).
	Warnings []string
	// Env is the environment the session's terminal asks for (TERM and
	// colour support, checked by the room), which the process sets
	// before it draws.
	Env []string
	// Embedded says the server is the room's embedded one (else a real
	// MongoDB the room uses); Seeded that the room shares lesson
	// templates (its server has snapshots).
	Embedded bool
	Seeded   bool
}

// errMessageTooLarge ends a channel whose peer sent more than it may.
var errMessageTooLarge = errors.New("control message too large")

// controlConn is one end of the control channel. Writes are safe for
// concurrent use; reads are not.
type controlConn struct {
	rw       io.ReadWriter
	maxRead  int
	deadline func(time.Time) error // the write deadline, when rw has one

	mu sync.Mutex
}

func (c *controlConn) send(m message) error {
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	frame := make([]byte, 4+len(body))
	binary.BigEndian.PutUint32(frame, uint32(len(body)))
	copy(frame[4:], body)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.deadline != nil {
		_ = c.deadline(time.Now().Add(controlWriteTimeout))
	}
	_, err = c.rw.Write(frame)
	return err
}

func (c *controlConn) receive() (message, error) {
	var head [4]byte
	if _, err := io.ReadFull(c.rw, head[:]); err != nil {
		return message{}, err
	}
	n := binary.BigEndian.Uint32(head[:])
	if int64(n) > int64(c.maxRead) {
		return message{}, fmt.Errorf("%w: %d bytes", errMessageTooLarge, n)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(c.rw, body); err != nil {
		return message{}, err
	}
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		return message{}, fmt.Errorf("control message: %w", err)
	}
	return m, nil
}
