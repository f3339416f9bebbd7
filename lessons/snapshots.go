package lessons

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/shell"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

var (
	msgNoSnapshotCommand = &locale.Message{ID: "replay.noSnapshotCommand", Other: "it has no snapshot command"}
	msgSnapshotFailed    = &locale.Message{ID: "replay.snapshotFailed", Other: "saving a snapshot failed: {{.Err}}"}
	msgReplaying         = &locale.Message{ID: "replay.replaying", Other: "This server cannot save database snapshots ({{.Why}}): steps are replayed to restore a state, which takes as long as running them."}
	msgReplayingSteps    = &locale.Message{ID: "replay.steps", One: "Replaying step 1 of {{.Lesson}} to restore its state: this server has no snapshots.", Other: "Replaying steps 1–{{.Count}} of {{.Lesson}} to restore their state: this server has no snapshots."}
	msgReplayFailed      = &locale.Message{ID: "replay.failed", Other: `{{.Lesson}}: running step {{.N}} "{{.Title}}" first: line {{.Line}}: {{.Failure}}`}
)

// snapshotSupport is whether the server can save and restore databases.
type snapshotSupport int

const (
	snapshotsUnknown snapshotSupport = iota // until the first save answers
	snapshotsOn
	snapshotsOff // a real MongoDB, or `schemalab serve --strict`
)

// The states a session saves, by step: before it (after the steps before
// it), and after its setup blocks (where its own code and the stage
// preview start). The state before step i+1 is also where every attempt
// at the exercise of step i starts. They are exported for the template's
// builders and readers, which ask for the states a run needs.
func StateBefore(i int) string { return "s" + strconv.Itoa(i) }
func StateSetup(i int) string  { return "p" + strconv.Itoa(i) }

// stateGoal names the state the reference solution of step i's exercise
// leaves (goal.go): kept only when the collections it writes are too
// large to keep in memory.
func stateGoal(i int) string { return "g" + strconv.Itoa(i) }

// goalStep returns i for the state "g<i>".
func goalStep(state string) (int, bool) { return stateStep(state, 'g') }

// ScratchDatabases are the databases a session of the lesson in
// database db restores states into: db, the copy of the state before an
// exercise's attempt that the attempt's reads are explained on, and the
// copy of the state the reference solution left, compared with an
// attempt.
func ScratchDatabases(db string) []string {
	return []string{db, beforeAttemptDatabase(db), goalDatabase(db)}
}

func beforeAttemptDatabase(db string) string { return db + "__before" }
func goalDatabase(db string) string          { return db + "__goal" }

// beforeStep returns k for the state "s<k>".
func beforeStep(state string) (int, bool) { return stateStep(state, 's') }

// setupStep returns i for the state "p<i>".
func setupStep(state string) (int, bool) { return stateStep(state, 'p') }

func stateStep(state string, kind byte) (int, bool) {
	if len(state) < 2 || state[0] != kind {
		return 0, false
	}
	k, err := strconv.Atoi(state[1:])
	return k, err == nil
}

// stepOfState is the step a session at state is on: the one the state
// is before (the last one for the state after them), or whose setup it
// follows.
func stepOfState(state string) int {
	if k, ok := beforeStep(state); ok {
		return max(k-1, 0)
	}
	k, _ := setupStep(state)
	return k
}

// snapshotCmd runs the snapshot command on the lesson database.
func (s *state) snapshotCmd(ctx context.Context, action, name string, extra ...bson.E) error {
	cmd := bson.D{{Key: vocab.SnapshotCommand, Value: action}, {Key: "db", Value: s.database()}}
	if name != "" {
		cmd = append(cmd, bson.E{Key: "name", Value: name})
	}
	cmd = append(cmd, extra...)
	was := s.rec.pause()
	defer s.rec.resume(was)
	return s.client.Database(s.database()).RunCommand(ctx, cmd).Err()
}

// save records the session as state name: a database snapshot, when the
// server has them, and a checkpoint of the globals. A state the session's
// shared template has (seed.go) gets no snapshot of its own: the lessons'
// data is deterministic, so the template's is the same data, and a
// student's own copy (the buckets they built) is then freed as soon as
// their database moves on, instead of being pinned for every student.
func (s *state) save(ctx context.Context, name string) error {
	if s.snapshots == snapshotsOn && s.seeds != nil && !s.seeds.OwnStates && s.seeds.Template.state(name) != nil {
		s.saved[name] = s.sh.SaveGlobals()
		s.shared[name] = true
		return nil
	}
	delete(s.shared, name)
	if s.snapshots != snapshotsOff {
		err := s.snapshotCmd(ctx, "save", name)
		switch {
		case err == nil:
			s.snapshots = snapshotsOn
		case s.snapshots == snapshotsUnknown:
			s.snapshots = snapshotsOff
			why := s.say(msgNoSnapshotCommand, nil)
			var ce mongo.CommandError
			if !errors.As(err, &ce) || ce.Code != mongoerr.CommandNotFound {
				why = s.say(msgSnapshotFailed, map[string]any{"Err": err.Error()})
			}
			s.note(s.say(msgReplaying, map[string]any{"Why": why}))
		default:
			return fmt.Errorf("save a snapshot of %s: %w", s.database(), err)
		}
	}
	s.saved[name] = s.sh.SaveGlobals()
	if s.onSave != nil {
		s.onSave(name)
	}
	return nil
}

// saveOnce saves state name unless it was saved before: the same code on
// the same state leaves the same state, and keeping the first keeps the
// states saved after it consistent with it.
func (s *state) saveOnce(ctx context.Context, name string) error {
	if s.saved[name] != nil {
		return nil
	}
	return s.save(ctx, name)
}

// restore brings the session back to a saved state (snapshots only).
func (s *state) restore(ctx context.Context, name string) error {
	if s.shared[name] {
		return s.restoreShared(ctx, name)
	}
	if err := s.snapshotCmd(ctx, "restore", name); err != nil {
		return fmt.Errorf("restore the snapshot %s of %s: %w", name, s.database(), err)
	}
	s.sh.RestoreGlobals(s.saved[name])
	s.live = liveState{state: name, step: stepOfState(name)}
	return nil
}

// restoreInto copies saved state name into another database, for
// explaining an attempt's reads on the data as it was before.
func (s *state) restoreInto(ctx context.Context, name, db string) error {
	if s.shared[name] {
		return s.seeds.Restore(ctx, name, db)
	}
	cmd := bson.D{{Key: vocab.SnapshotCommand, Value: "restore"}, {Key: "db", Value: db}, {Key: "name", Value: name},
		{Key: "fromDb", Value: s.database()}}
	was := s.rec.pause()
	defer s.rec.resume(was)
	return s.client.Database(db).RunCommand(ctx, cmd).Err()
}

// dropSnapshots frees what the server keeps for this session.
func (s *state) dropSnapshots(ctx context.Context) {
	if s.snapshots == snapshotsOn {
		_ = s.snapshotCmd(ctx, "drop", "")
	}
	s.saved, s.shared = map[string]*shell.Globals{}, map[string]bool{}
}

// ensureBefore brings the session to the state before step k (k may be
// len(steps), the end of the lesson). With snapshots it restores the
// nearest saved state at or before k and runs the steps in between once,
// saving theirs; without, it replays from the start unless the session
// is already on the way.
func (s *state) ensureBefore(ctx context.Context, k int) error {
	want := StateBefore(k)
	if s.live.state == want {
		return nil
	}
	from := 0
	if s.snapshots == snapshotsOn {
		from = k
		for from > 0 && s.saved[StateBefore(from)] == nil {
			from--
		}
		// A shared template's state nearer to k than the session's own
		// saves the steps in between.
		seeded := false
		for j := k; j > from && !seeded; j-- {
			ok, err := s.seed(ctx, StateBefore(j))
			if err != nil {
				return err
			}
			if ok {
				from, seeded = j, true
			}
		}
		if !seeded {
			if err := s.restore(ctx, StateBefore(from)); err != nil {
				return err
			}
		}
	} else if j, ok := beforeStep(s.live.state); ok && j <= k {
		from = j
	} else {
		if err := s.reset(ctx); err != nil {
			return err
		}
		if k > 0 {
			s.note(s.opts.Locale.N(msgReplayingSteps, k, map[string]any{"Lesson": s.lesson.ID}))
		}
	}
	for j := from; j < k; j++ {
		if err := s.replay(ctx, j); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// ensureSetup brings the session to the state after step i's setup.
func (s *state) ensureSetup(ctx context.Context, i int) error {
	st := &s.lesson.Steps[i]
	if !hasSetup(st) {
		return s.ensureBefore(ctx, i)
	}
	name := StateSetup(i)
	if s.live.state == name {
		return nil
	}
	if s.snapshots == snapshotsOn && s.saved[name] != nil {
		return s.restore(ctx, name)
	}
	if ok, err := s.seed(ctx, name); ok || err != nil {
		return err
	}
	if err := s.ensureBefore(ctx, i); err != nil {
		return err
	}
	for _, b := range st.Code(Setup) {
		if _, err := s.sh.Eval(ctx, b.Text); err != nil {
			s.live = liveState{step: i}
			return fmt.Errorf("%s step %d setup (line %d): %w", s.lesson.ID, i+1, b.Line, err)
		}
	}
	if err := s.saveOnce(ctx, name); err != nil {
		return err
	}
	s.live = liveState{state: name, step: i}
	return nil
}

// settle puts the session back on a saved state after an attempt that
// was interrupted, so that the learner's next look at the database does
// not find it half-changed. Without snapshots the next operation
// replays anyway.
func (s *state) settle(ctx context.Context, state string) {
	if s.snapshots != snapshotsOn || s.saved[state] == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeoutForRestore)
	defer cancel()
	_ = s.restore(ctx, state)
}
