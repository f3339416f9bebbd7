// Package classroom is the shared state of a classroom, apart from how
// students reach it (SSH) and how it is drawn (the TUI): who is in the
// room, where each student is in the course, who is stuck, and what the
// instructor announced. It also prepares the shared lesson templates that
// every student's lesson database starts from.
package classroom

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Defaults for Options.
const (
	DefaultStuckAttempts = 3
	DefaultStuckAfter    = 10 * time.Minute
)

// Options configure a Room.
type Options struct {
	// Now is the clock; nil means time.Now. Tests pass a fake one.
	Now func() time.Time
	// StuckAttempts failed attempts in a row at the same exercise mark a
	// student as stuck; 0 means DefaultStuckAttempts.
	StuckAttempts int
	// StuckAfter on one step marks a student as stuck; 0 means
	// DefaultStuckAfter.
	StuckAfter time.Duration
}

// Position is where a student is in the course.
type Position struct {
	Lesson      string
	LessonTitle string
	// Step is 0-based; Steps is the lesson's number of steps.
	Step      int
	Steps     int
	StepTitle string
}

// Exercises counts a student's exercises in the lesson they are on, as
// their progress store has them.
type Exercises struct {
	Passed, Attempted, Total int
}

// Announcement is the instructor's "now: bucket, step 4". The zero value
// means nothing is announced.
type Announcement struct {
	Position
	At time.Time
}

// IsZero reports whether nothing is announced.
func (a Announcement) IsZero() bool { return a.Lesson == "" }

// String is the one-line notice, "now: bucket, step 4".
func (a Announcement) String() string {
	if a.IsZero() {
		return ""
	}
	return fmt.Sprintf("now: %s, step %d", a.Lesson, a.Step+1)
}

// Row is one student as the instructor's dashboard shows them.
type Row struct {
	Name string
	// Fingerprint identifies the key they logged in with ("password" or
	// "open" for those logins).
	Fingerprint string
	Online      bool
	// HasPosition is false until the student opens a lesson.
	HasPosition bool
	Position
	Exercises
	// OnStep is the time spent on the current step (frozen when the
	// student left).
	OnStep time.Duration
	// FailedInARow counts failed attempts at the current step's exercise
	// since the last pass or move.
	FailedInARow int
	Stuck        bool
	// StuckFailed says why: FailedInARow failed attempts at the step's
	// exercise; else OnStep, the time spent on the step.
	StuckFailed bool
}

type student struct {
	name, fingerprint string
	sessions          int
	left              time.Time
	hasPosition       bool
	pos               Position
	since             time.Time
	exercises         Exercises
	failedInARow      int
}

// Room is safe for concurrent use. Students are kept after they leave, so
// the dashboard still shows them (offline) and a student who comes back
// continues their row.
type Room struct {
	now           func() time.Time
	stuckAttempts int
	stuckAfter    time.Duration

	mu           sync.Mutex
	students     map[string]*student
	announcement Announcement
	subscribers  map[chan struct{}]bool
}

// New makes an empty room.
func New(o Options) *Room {
	r := &Room{now: o.Now, stuckAttempts: o.StuckAttempts, stuckAfter: o.StuckAfter,
		students: map[string]*student{}, subscribers: map[chan struct{}]bool{}}
	if r.now == nil {
		r.now = time.Now
	}
	if r.stuckAttempts <= 0 {
		r.stuckAttempts = DefaultStuckAttempts
	}
	if r.stuckAfter <= 0 {
		r.stuckAfter = DefaultStuckAfter
	}
	return r
}

// studentLocked returns the named student, adding them if new.
func (r *Room) studentLocked(name string) *student {
	s := r.students[name]
	if s == nil {
		s = &student{name: name}
		r.students[name] = s
	}
	return s
}

// Join records that a student opened a session. A student may hold more
// than one session; they are online while any is open.
func (r *Room) Join(name, fingerprint string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.studentLocked(name)
	s.fingerprint = fingerprint
	s.sessions++
	if s.sessions == 1 && s.hasPosition && !s.left.IsZero() {
		// Time away does not count as time on the step.
		s.since = s.since.Add(r.now().Sub(s.left))
	}
	s.left = time.Time{}
	r.notifyLocked()
}

// Leave records that one of a student's sessions ended.
func (r *Room) Leave(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.students[name]
	if s == nil || s.sessions == 0 {
		return
	}
	s.sessions--
	if s.sessions == 0 {
		s.left = r.now()
	}
	r.notifyLocked()
}

// Moved records that a student is now on pos (opened a lesson, or went to
// another step). Time on the step and the failure count start over only
// when the step changes.
func (r *Room) Moved(name string, pos Position, ex Exercises) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.studentLocked(name)
	if !s.hasPosition || s.pos.Lesson != pos.Lesson || s.pos.Step != pos.Step {
		s.since = r.now()
		s.failedInARow = 0
	}
	s.hasPosition, s.pos, s.exercises = true, pos, ex
	r.notifyLocked()
}

// Attempted records an attempt at the exercise of the student's current
// step; ex are their counts after it.
func (r *Room) Attempted(name string, passed bool, ex Exercises) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.studentLocked(name)
	if passed {
		s.failedInARow = 0
	} else {
		s.failedInARow++
	}
	s.exercises = ex
	r.notifyLocked()
}

// Rows lists every student who joined, stuck ones first, then the online
// ones, each group by name.
func (r *Room) Rows() []Row {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	rows := make([]Row, 0, len(r.students))
	for _, s := range r.students {
		row := Row{Name: s.name, Fingerprint: s.fingerprint, Online: s.sessions > 0,
			HasPosition: s.hasPosition, Position: s.pos, Exercises: s.exercises, FailedInARow: s.failedInARow}
		if s.hasPosition {
			end := now
			if !row.Online {
				end = s.left
			}
			row.OnStep = max(end.Sub(s.since), 0)
		}
		if row.Online && s.hasPosition {
			switch {
			case s.failedInARow >= r.stuckAttempts:
				row.Stuck, row.StuckFailed = true, true
			case row.OnStep >= r.stuckAfter:
				row.Stuck = true
			}
		}
		rows = append(rows, row)
	}
	slices.SortFunc(rows, func(a, b Row) int {
		if a.Stuck != b.Stuck {
			return boolFirst(a.Stuck)
		}
		if a.Online != b.Online {
			return boolFirst(a.Online)
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return rows
}

func boolFirst(aIsTrue bool) int {
	if aIsTrue {
		return -1
	}
	return 1
}

// Online counts the students with an open session.
func (r *Room) Online() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, s := range r.students {
		if s.sessions > 0 {
			n++
		}
	}
	return n
}

// Announce makes pos the current announcement, replacing any earlier one.
func (r *Room) Announce(pos Position) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.announcement = Announcement{Position: pos, At: r.now()}
	r.notifyLocked()
}

// ClearAnnouncement withdraws the announcement.
func (r *Room) ClearAnnouncement() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.announcement = Announcement{}
	r.notifyLocked()
}

// Announcement is the current announcement (zero when there is none).
func (r *Room) Announcement() Announcement {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.announcement
}

// Subscribe returns a channel that receives a value after any change to
// the room (an announcement, a student moving or joining). Changes that
// come while the last one is unread are folded into it, so a slow reader
// never blocks the room and always finds the latest state when it reads.
// stop ends the subscription.
func (r *Room) Subscribe() (changes <-chan struct{}, stop func()) {
	ch := make(chan struct{}, 1)
	r.mu.Lock()
	r.subscribers[ch] = true
	r.mu.Unlock()
	return ch, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.subscribers, ch)
	}
}

func (r *Room) notifyLocked() {
	for ch := range r.subscribers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}
