package classroom

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
)

// TemplatePrefix starts the names of the template databases
// ("_classroom_tpl_bucket"). A student name never starts with "_", so no
// student's prefix covers them.
const TemplatePrefix = "_classroom_tpl_"

// Templates are the shared starting points of the students' lesson
// databases. Each lesson runs once, in its own template database, and the
// state before every step is saved as a snapshot; a student's database is
// then an O(1) copy-on-write clone of one of them (the embedded engine's
// schemalabSnapshot restore with fromDb), so thirty students on the
// bucket lesson share its 144,000 readings until they write.
//
// A real MongoDB has no snapshot command; there Seed reports false and
// the caller replays the lesson's steps as it would for a single learner.
// Templates is safe for concurrent use.
type Templates struct {
	// client and connect are trusted: they reach the template databases,
	// which no student's client may. connect opens the client of the
	// runner that builds a template.
	client  *mongo.Client
	connect lessons.ConnectFunc

	mu      sync.Mutex
	byID    map[string]*template
	support error // nil until probed; errNoSnapshots on a real server
	probed  bool
}

type template struct {
	mu    sync.Mutex // held while the template is built
	built bool
	// saved counts the snapshots "before-0" … "before-(saved-1)"; a step
	// that failed to run ends the template there.
	saved int
	err   error
}

// errNoSnapshots marks a server without the snapshot command.
var errNoSnapshots = errors.New("the server has no snapshot command")

// NewTemplates prepares templates built through client and connect, which
// must not be confined to a student's prefix.
func NewTemplates(client *mongo.Client, connect lessons.ConnectFunc) *Templates {
	return &Templates{client: client, connect: connect, byID: map[string]*template{}}
}

// Database is the template database of lesson id.
func Database(lessonID string) string { return TemplatePrefix + lessonID }

func snapshotName(step int) string { return "before-" + strconv.Itoa(step) }

// supported probes the server for the snapshot command once.
func (t *Templates) supported(ctx context.Context) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.probed {
		return t.support
	}
	err := t.client.Database(TemplatePrefix+"probe").RunCommand(ctx,
		bson.D{{Key: lessons.SnapshotCommand, Value: "list"}}).Err()
	var ce mongo.CommandError
	switch {
	case err == nil:
	case errors.As(err, &ce) && ce.Code == mongoerr.CommandNotFound:
		err = errNoSnapshots
	default:
		return fmt.Errorf("classroom templates: %w", err)
	}
	t.probed, t.support = true, err
	return err
}

// Build runs lesson l once in its template database and saves the state
// before each step. Concurrent callers wait for the one build; a build
// cut short by ctx is tried again by the next caller. On a server without
// snapshots it does nothing.
func (t *Templates) Build(ctx context.Context, l *lessons.Lesson) error {
	if err := t.supported(ctx); err != nil {
		if errors.Is(err, errNoSnapshots) {
			return nil
		}
		return err
	}
	t.mu.Lock()
	tpl := t.byID[l.ID]
	if tpl == nil {
		tpl = &template{}
		t.byID[l.ID] = tpl
	}
	t.mu.Unlock()

	tpl.mu.Lock()
	defer tpl.mu.Unlock()
	if tpl.built {
		return tpl.err
	}
	saved, err := t.build(ctx, l)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	tpl.built, tpl.saved, tpl.err = true, saved, err
	return err
}

func (t *Templates) build(ctx context.Context, l *lessons.Lesson) (int, error) {
	db := Database(l.ID)
	// The runner is not closed: closing drops every snapshot of its
	// database, the template's own among them. Its client lives as long
	// as the classroom, one per lesson.
	r := lessons.NewRunner(&lessons.Sandbox{Connect: t.connect, Prefix: TemplatePrefix}, l, lessons.RunnerOptions{})
	if err := r.Reset(ctx); err != nil {
		return 0, fmt.Errorf("classroom template of %s: %w", l.ID, err)
	}
	// Snapshots of an earlier build of the same lesson would pin old data.
	if err := t.snapshot(ctx, db, bson.D{{Key: lessons.SnapshotCommand, Value: "drop"}}); err != nil {
		return 0, err
	}
	save := func(step int) error {
		return t.snapshot(ctx, db, bson.D{{Key: lessons.SnapshotCommand, Value: "save"}, {Key: "name", Value: snapshotName(step)}})
	}
	if err := save(0); err != nil {
		return 0, err
	}
	for i := range l.Steps {
		res, err := r.RunStep(ctx, i)
		if err != nil {
			return i + 1, fmt.Errorf("classroom template of %s: step %d: %w", l.ID, i+1, err)
		}
		if broken := codeFailures(res); broken != "" {
			// Later steps depend on this one's data: the template ends
			// here, and students replay from this point.
			return i + 1, fmt.Errorf("classroom template of %s: step %d: %s", l.ID, i+1, broken)
		}
		if err := save(i + 1); err != nil {
			return i + 1, err
		}
	}
	return len(l.Steps) + 1, nil
}

// codeFailures is the first failure of a step that is not an expectation
// (code that broke), or "".
func codeFailures(res *lessons.StepResult) string {
	for _, f := range res.Failures {
		if !f.Expect {
			return f.String()
		}
	}
	return ""
}

func (t *Templates) snapshot(ctx context.Context, db string, cmd bson.D) error {
	if err := t.client.Database(db).RunCommand(ctx, cmd).Err(); err != nil {
		return fmt.Errorf("classroom template %s: %s: %w", db, cmd[0].Value, err)
	}
	return nil
}

// Seed makes db the state of lesson l just before step (0-based), as a
// copy-on-write clone of the template, building the template first if
// needed. ok is false when it could not: on a server without snapshots, or
// past a step the template could not run; the caller then replays the
// earlier steps itself. This is the hook a lesson session calls before
// its first step in a classroom.
func (t *Templates) Seed(ctx context.Context, l *lessons.Lesson, db string, step int) (ok bool, err error) {
	if step < 0 || step > len(l.Steps) {
		return false, fmt.Errorf("lesson %s has no step %d", l.ID, step+1)
	}
	if err := t.Build(ctx, l); err != nil && !t.hasSnapshot(l.ID, step) {
		return false, err
	}
	if !t.hasSnapshot(l.ID, step) {
		return false, nil
	}
	err = t.client.Database(db).RunCommand(ctx, bson.D{{Key: lessons.SnapshotCommand, Value: "restore"},
		{Key: "name", Value: snapshotName(step)}, {Key: "fromDb", Value: Database(l.ID)}}).Err()
	if err != nil {
		return false, fmt.Errorf("start %s from the classroom template of %s: %w", db, l.ID, err)
	}
	return true, nil
}

func (t *Templates) hasSnapshot(id string, step int) bool {
	t.mu.Lock()
	tpl := t.byID[id]
	t.mu.Unlock()
	if tpl == nil {
		return false
	}
	tpl.mu.Lock()
	defer tpl.mu.Unlock()
	return tpl.built && step < tpl.saved
}
