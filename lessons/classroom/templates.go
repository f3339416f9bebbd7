package classroom

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/lessons/templatecache"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// TemplatePrefix starts the names of the template databases
// ("_classroom_tpl_bucket"). A student name never starts with "_", so no
// student's prefix covers them.
const TemplatePrefix = "_classroom_tpl_"

// buildTimeout bounds one lesson's template build, which runs on a
// context of its own: the student whose first step asked for it may
// leave, and the others waiting for it should not have to start again.
const buildTimeout = 10 * time.Minute

// roomBlockTimeout bounds one block of the room's own sessions, its
// builds and its runs: the lessons' code, which a room loaded by sixty
// students may slow far past a learner's 60 s. A step that fails there
// fails for the whole room, and every state after it goes unshared.
const roomBlockTimeout = 5 * time.Minute

// roomHeapLimit is the heap cap of the room's own sessions
// (lessons.Sandbox.HeapLimit). They run the lessons' code, not a
// student's, in the process of the embedded server, where the heap a
// script is measured by also holds what every student writes meanwhile:
// under a learner's 512 MB, a room of sixty stopped the bucket lesson's
// time series step for its classmates' inserts. The cap stays, so that a
// lesson that runs away still stops.
const roomHeapLimit = 4 << 30

// Templates are the shared starting points of the students' lessons.
// Each lesson runs once, in its own template database
// (lessons.BuildTemplate), and keeps the state before every step and
// after every step's setup: a database snapshot and a portable checkpoint
// of the session's globals. A student's runner then takes those states
// (Seeds, the hook of lessons.Sandbox) instead of running the code that
// leads to them: its database becomes an O(1) copy-on-write clone of the
// template's snapshot, so thirty students on the bucket lesson share its
// 144,000 readings until they write, and its setup runs once for the
// room.
//
// A real MongoDB has no snapshot command; there Seeds gives nothing and
// every student's runner replays the lesson's steps as it would for a
// single learner (Available says so). Templates is safe for concurrent
// use.
type Templates struct {
	// client and connect are trusted: they reach the template databases,
	// which no student's client may. connect opens the client of the
	// runner that builds a template.
	client  *mongo.Client
	connect lessons.ConnectFunc
	// report gets a line for every build that failed or cannot share a
	// lesson in full (nil: no one is told).
	report func(line string)
	// dbPrefix starts the template databases' names (lessons.DatabaseName).
	dbPrefix string
	// solo marks one learner's templates (NewSolo): no room runs,
	// sessions keep their own states, and no session waits for a build.
	solo bool
	// cache, if set (solo), keeps built templates on disk across runs.
	cache *templatecache.Dir
	// buildDelay is how long a solo build waits before it starts.
	buildDelay time.Duration

	mu      sync.Mutex
	byID    map[string]*template
	runs    map[runsKey]*sharedRuns
	support error // nil until probed; errNoSnapshots on a real server
	probed  bool
}

// template is one build of a lesson's template. Its fields but done are
// guarded by Templates.mu.
type template struct {
	done chan struct{} // closed when the build has ended
	// decided is closed once the disk cache has been read: cached is
	// then set if the template came from it.
	decided chan struct{}
	// latest is the template as built so far (nil before its first
	// step), and once done, as built: complete, or as far as a failed
	// build (err) got.
	latest *lessons.Template
	// cached is set when latest was read from the disk cache: its
	// snapshots are read in as sessions ask for them.
	cached *templatecache.Cached
	// progress is closed, and replaced, when a newer latest is published.
	progress chan struct{}
	err      error
}

// errNoSnapshots marks a server without the snapshot command.
var errNoSnapshots = fmt.Errorf("%w: every student's session runs the lessons' setup code itself", lessons.ErrNoSnapshots)

// NewTemplates prepares templates built through client and connect, which
// must not be confined to a student's prefix; report (if not nil) gets a
// line for each lesson whose template failed or is incomplete.
func NewTemplates(client *mongo.Client, connect lessons.ConnectFunc, report func(line string)) *Templates {
	return &Templates{client: client, connect: connect, report: report, dbPrefix: TemplatePrefix,
		byID: map[string]*template{}, runs: map[runsKey]*sharedRuns{}}
}

// soloBuildDelay is how long a learner's first look at a lesson that is
// not cached has the machine to itself before the lesson's template is
// built for the next run: the learner's first step runs as fast as it
// would with no cache at all.
const soloBuildDelay = 3 * time.Second

// NewSolo prepares the templates of one learner's course on the embedded
// server, whose snapshot directory is cache's: a lesson's template is
// read from the cache, or built in the background (in a database named
// prefix+"_tpl_"+id, inside the learner's own prefix) and written to it,
// so that the next run opens the lesson from its saved states. A
// session never waits for a build: until the lesson is cached it runs
// the lesson's code itself, as it would with no cache. client is the
// course's own client.
func NewSolo(client *mongo.Client, connect lessons.ConnectFunc, prefix string, cache *templatecache.Dir) *Templates {
	return &Templates{client: client, connect: connect, dbPrefix: prefix + "_tpl_", solo: true, cache: cache,
		buildDelay: soloBuildDelay, byID: map[string]*template{}, runs: map[runsKey]*sharedRuns{}}
}

// Available reports whether lessons can be shared: nil on the embedded
// server, an error wrapping lessons.ErrNoSnapshots on a server without
// snapshots, or what probing the server failed with.
func (t *Templates) Available(ctx context.Context) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.probed {
		return t.support
	}
	err := t.client.Database(t.dbPrefix+"probe").RunCommand(ctx,
		bson.D{{Key: vocab.SnapshotCommand, Value: "list"}}).Err()
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

// Build runs lesson l once in its template database and keeps its
// states, or waits for the build another caller started; a build that
// failed is tried again by the next caller. It returns nil and no error
// on a server without snapshots, where there is nothing to share. A
// template whose lesson failed part-way is returned with its Problems:
// the states before the failure are shared.
func (t *Templates) Build(ctx context.Context, l *lessons.Lesson) (*lessons.Template, error) {
	b, err := t.start(ctx, l)
	if b == nil {
		return nil, err
	}
	select {
	case <-b.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if b.err != nil {
		return nil, b.err
	}
	return b.latest, nil
}

// start gives lesson l's build, begun now unless it was before. It is
// nil on a server without snapshots, and on an error probing the server.
func (t *Templates) start(ctx context.Context, l *lessons.Lesson) (*template, error) {
	if err := t.Available(ctx); err != nil {
		if errors.Is(err, lessons.ErrNoSnapshots) {
			return nil, nil
		}
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.byID[l.ID]
	if b == nil {
		b = &template{done: make(chan struct{}), decided: make(chan struct{}), progress: make(chan struct{})}
		t.byID[l.ID] = b
		go t.build(b, l)
	}
	return b, nil
}

// reached waits until build b has state (a name lessons.Sandbox.Seeds
// was given) or has ended, and gives the template it has then: nil when
// the build failed before its first step.
func (t *Templates) reached(ctx context.Context, b *template, state string) (*lessons.Template, error) {
	for {
		t.mu.Lock()
		latest, progress := b.latest, b.progress
		t.mu.Unlock()
		if latest != nil && (latest.Complete() || latest.Has(state)) {
			return latest, nil
		}
		select {
		case <-b.done:
			t.mu.Lock()
			latest, err := b.latest, b.err
			t.mu.Unlock()
			if latest == nil {
				return nil, err
			}
			return latest, nil
		case <-progress:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (t *Templates) build(b *template, l *lessons.Lesson) {
	defer close(b.done)
	decide := sync.OnceFunc(func() { close(b.decided) })
	defer decide()
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	publish := func(tpl *lessons.Template, cached *templatecache.Cached, err error) {
		t.mu.Lock()
		defer t.mu.Unlock()
		b.cached = cached
		if tpl != nil {
			b.latest = tpl
			close(b.progress)
			b.progress = make(chan struct{})
		}
		if b.err = err; err != nil && t.byID[l.ID] == b {
			// The next caller builds it again.
			delete(t.byID, l.ID)
		}
	}
	// Snapshots of an earlier build of the same lesson would pin old data.
	db := lessons.DatabaseName(t.dbPrefix, l.ID)
	if err := t.client.Database(db).RunCommand(ctx, bson.D{{Key: vocab.SnapshotCommand, Value: "drop"}}).Err(); err != nil {
		publish(nil, nil, fmt.Errorf("classroom template %s: drop its old snapshots: %w", db, err))
		return
	}
	if t.cache != nil {
		if cached := t.loadCached(ctx, l, db); cached != nil {
			publish(cached.Template, cached, nil)
			decide()
			// A lesson is most often opened at its start: its first
			// states are read in before a session asks for them.
			for _, state := range []string{lessons.StateBefore(0), lessons.StateSetup(0)} {
				if cached.Template.Has(state) {
					_ = cached.Ensure(ctx, state)
				}
			}
			return
		}
	}
	decide()
	// A learner alone never waits for this build, so its templates are
	// published only once it has ended; a classroom's students wait for
	// each step.
	var publishEach func(*lessons.Template)
	if t.solo {
		select {
		case <-time.After(t.buildDelay):
		case <-ctx.Done():
		}
	} else {
		publishEach = func(tpl *lessons.Template) { publish(tpl, nil, nil) }
	}
	built, err := lessons.BuildTemplate(ctx, &lessons.Sandbox{Connect: t.connect, Prefix: t.dbPrefix, HeapLimit: roomHeapLimit}, l,
		lessons.TemplateOptions{Session: lessons.SessionOptions{Timeout: roomBlockTimeout}, Goals: !t.solo, Publish: publishEach})
	if err != nil {
		err = fmt.Errorf("classroom template of %s: %w", l.ID, err)
		t.tell(err.Error())
		publish(nil, nil, err)
		return
	}
	for _, p := range built.Problems() {
		t.tell(fmt.Sprintf("classroom template of %s: %s", l.ID, p))
	}
	// Only a lesson that ran to its end is kept: a step that failed may
	// have failed for a reason of this run's (a timeout under load).
	if t.cache != nil && len(built.Problems()) == 0 {
		err := t.cache.Save(ctx, t.client, built)
		if err != nil {
			t.tell(err.Error())
		} else if cached := t.loadCached(ctx, l, db); cached != nil {
			// From now on sessions read the states they need from the
			// files, as the next run will, and the build's copies of
			// every state leave memory.
			if err := t.client.Database(db).RunCommand(ctx, bson.D{{Key: vocab.SnapshotCommand, Value: "drop"}}).Err(); err == nil {
				publish(cached.Template, cached, nil)
				return
			}
		}
	}
	publish(built, nil, nil)
}

// loadCached reads lesson l's template from the disk cache, or gives nil.
func (t *Templates) loadCached(ctx context.Context, l *lessons.Lesson, db string) *templatecache.Cached {
	cached, err := t.cache.Load(l, t.client, db)
	if err != nil {
		t.tell(err.Error())
	}
	return cached
}

func (t *Templates) tell(line string) {
	if t.report != nil {
		t.report(line)
	}
}

// Prepare builds the templates of ls, one after the other, so that their
// students do not wait for them.
func (t *Templates) Prepare(ctx context.Context, ls []*lessons.Lesson) {
	if err := t.Available(ctx); err != nil {
		if !errors.Is(err, lessons.ErrNoSnapshots) {
			t.tell(err.Error())
		}
		return
	}
	for _, l := range ls {
		// A failed build has told the report already.
		if _, err := t.Build(ctx, l); err != nil && ctx.Err() != nil {
			return
		}
	}
}

// Start begins building lesson l's template unless it is built or being
// built, and returns at once: a student who opens a lesson reads its
// introduction while the room's copy is made, and the room holds the
// data of the lessons its students open, not of every lesson.
func (t *Templates) Start(l *lessons.Lesson) {
	go t.start(context.Background(), l)
}

// Seeds is the hook of lessons.Sandbox: the template of lesson l once it
// has reached state, or as far as it got, and the copy of its snapshots
// into a student's database, made through the trusted client, since a
// student's own client cannot read the template database. It is nil on
// a server without snapshots.
func (t *Templates) Seeds(ctx context.Context, l *lessons.Lesson, state string) (*lessons.Seeds, error) {
	b, err := t.start(ctx, l)
	if b == nil {
		return nil, err
	}
	if t.solo {
		select {
		case <-b.decided:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		t.mu.Lock()
		ready := b.latest != nil && b.latest.Complete()
		t.mu.Unlock()
		if !ready {
			return nil, nil
		}
	}
	tpl, err := t.reached(ctx, b, state)
	if tpl == nil {
		return nil, err
	}
	seeds := t.seedsOf(b, tpl)
	seeds.OwnStates = t.solo
	if !t.solo {
		seeds.Run = func(ctx context.Context, step int, w lessons.Widths) (*lessons.Result, error) {
			return t.run(ctx, b, l, step, w)
		}
	}
	return seeds, nil
}

// seedsOf is tpl, of build b, as a session starts from it, without the
// room's runs. A template read from the disk cache reads each snapshot in
// when a session first asks for it; one that fails its checks makes the
// next caller build the lesson again.
func (t *Templates) seedsOf(b *template, tpl *lessons.Template) *lessons.Seeds {
	t.mu.Lock()
	cached := b.cached
	t.mu.Unlock()
	return &lessons.Seeds{Template: tpl, Restore: func(ctx context.Context, snapshot, db string) error {
		if cached != nil {
			if err := cached.Ensure(ctx, snapshot); err != nil {
				t.mu.Lock()
				if t.byID[tpl.Lesson().ID] == b {
					delete(t.byID, tpl.Lesson().ID)
				}
				t.mu.Unlock()
				return err
			}
		}
		return t.restore(ctx, tpl, snapshot, db)
	}}
}

func (t *Templates) restore(ctx context.Context, tpl *lessons.Template, snapshot, db string) error {
	err := t.client.Database(db).RunCommand(ctx, bson.D{{Key: vocab.SnapshotCommand, Value: "restore"},
		{Key: "name", Value: snapshot}, {Key: "fromDb", Value: tpl.Database()}}).Err()
	if err != nil {
		return fmt.Errorf("start %s from the classroom template of %s: %w", db, tpl.Lesson().ID, err)
	}
	return nil
}

// RunPrefix starts the names of the databases where the room runs its
// students' steps once for them all ("_classroom_run_bucket").
const RunPrefix = "_classroom_run_"

// maxSharedRuns bounds the runs a lesson keeps: one per step for each
// layout (the widths of the students' terminals) that asked for it.
const maxSharedRuns = 256

// sharedRuns are the room's runs of one lesson's steps (lessons.Seeds.Run):
// a session of the lesson seeded from its template, in a database of its
// own, which runs a step from the template's state before it, once for
// every layout asked for. The session runs one step at a time; students
// who ask for a run that is under way wait for it rather than repeat it,
// and those asking for a run that is kept get it at once, whatever the
// session is running meanwhile (the next step ahead, say).
type sharedRuns struct {
	sess *lessons.Session
	// turn is the session's: held by the run under way.
	turn chan struct{}

	mu      sync.Mutex
	results map[runKey]*lessons.Result
	// failed holds each layout's last failed run and when it ended.
	// Students who were waiting for that run get its failure rather than
	// starting the run again, or each running the step alone: when the
	// room is too loaded to finish a step once, sixty more runs of it
	// would only bury it deeper.
	failed map[runKey]failedRun
	// running is closed when the run under way of a step and layout ends.
	running map[runKey]chan struct{}
	// ahead marks the runs runAhead began (guarded by Templates.mu).
	ahead map[runKey]bool
}

type failedRun struct {
	res   *lessons.Result
	ended time.Time
}

type runsKey struct {
	build *template
	// lesson is the lesson in the students' language, whose verdicts
	// and notes the run speaks.
	lesson *lessons.Lesson
}

type runKey struct {
	step   int
	widths lessons.Widths
}

func (t *Templates) run(ctx context.Context, b *template, l *lessons.Lesson, step int, w lessons.Widths) (*lessons.Result, error) {
	r := t.sharedRunsOf(b, l)
	res, err := r.result(ctx, step, w)
	if err == nil && res.OK() {
		t.runAhead(b, l, r, step, w)
	}
	return res, err
}

// sharedRunsOf is the room's runs of lesson l (in its students'
// language) from build b.
func (t *Templates) sharedRunsOf(b *template, l *lessons.Lesson) *sharedRuns {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := runsKey{b, l}
	r := t.runs[k]
	if r == nil {
		sb := &lessons.Sandbox{Connect: t.connect, Prefix: RunPrefix, HeapLimit: roomHeapLimit,
			Seeds: func(ctx context.Context, _ *lessons.Lesson, state string) (*lessons.Seeds, error) {
				tpl, err := t.reached(ctx, b, state)
				if tpl == nil {
					return nil, err
				}
				return t.seedsOf(b, tpl), nil
			}}
		r = &sharedRuns{sess: lessons.NewSession(sb, l, lessons.SessionOptions{Timeout: roomBlockTimeout, Locale: locale.For(l.Lang)}),
			turn: make(chan struct{}, 1), results: map[runKey]*lessons.Result{}, failed: map[runKey]failedRun{},
			running: map[runKey]chan struct{}{}, ahead: map[runKey]bool{}}
		t.runs[k] = r
	}
	return r
}

// result is the room's run of step for layout w: the one kept, the
// failure of a run that ended while the caller waited, or a run made now.
// A run made now is the room's, not the caller's: it goes on, for the
// others waiting for it, when the caller stops waiting.
func (r *sharedRuns) result(ctx context.Context, step int, w lessons.Widths) (*lessons.Result, error) {
	asked := time.Now()
	key := runKey{step, w}
	outcome := func() *lessons.Result {
		if res := r.results[key]; res != nil {
			return res
		}
		if f, ok := r.failed[key]; ok && f.ended.After(asked) {
			return f.res
		}
		return nil
	}
	r.mu.Lock()
	if res := outcome(); res != nil {
		r.mu.Unlock()
		return res, nil
	}
	ended := r.running[key]
	if ended == nil {
		ended = make(chan struct{})
		r.running[key] = ended
		go r.run(key, ended)
	}
	r.mu.Unlock()
	select {
	case <-ended:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if res := outcome(); res != nil {
		return res, nil
	}
	return nil, fmt.Errorf("the room's run of step %d ended without a result", step+1)
}

// run makes the room's run of key, then closes ended.
func (r *sharedRuns) run(key runKey, ended chan struct{}) {
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	var res *lessons.Result
	select {
	case r.turn <- struct{}{}:
		var err error
		if res, err = r.sess.Do(ctx, lessons.Request{Op: lessons.OpRun, Step: key.step, Widths: key.widths}); err != nil {
			res = nil
		}
		<-r.turn
	case <-ctx.Done():
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.running, key)
	close(ended)
	if res == nil {
		return
	}
	if len(r.results)+len(r.failed) >= maxSharedRuns {
		clear(r.results)
		clear(r.failed)
	}
	if !res.OK() {
		// Kept only for those already waiting: a student who asks
		// after this starts a fresh run.
		r.failed[key] = failedRun{res: res, ended: time.Now()}
		return
	}
	delete(r.failed, key)
	r.results[key] = res
}

// runAhead begins, in the background, the room's run of the next step
// with code after step, for the same layout, unless one was begun
// before: the student who ran step reads the next one while it runs,
// so that the first of the room to press enter on it does not wait for
// a run the whole room then shares (the bucket lesson's time series step
// takes seconds). It runs one step ahead of the room's front-most
// student, never further: a step no one reaches is never run.
func (t *Templates) runAhead(b *template, l *lessons.Lesson, r *sharedRuns, step int, w lessons.Widths) {
	next := step + 1
	for next < len(l.Steps) && !l.Steps[next].HasCode() {
		next++
	}
	if next == len(l.Steps) {
		return
	}
	key := runKey{next, w}
	t.mu.Lock()
	begun := r.ahead[key]
	if !begun {
		if len(r.ahead) >= maxSharedRuns {
			clear(r.ahead)
		}
		r.ahead[key] = true
	}
	t.mu.Unlock()
	if begun {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
		defer cancel()
		// The room's build may not have reached the step yet: the run
		// waits for it, as a student's would, rather than be skipped.
		tpl, err := t.reached(ctx, b, lessons.StateBefore(next+1))
		if tpl == nil || err != nil || !tpl.SharesRun(next) {
			return
		}
		_, _ = r.result(ctx, next, w)
	}()
}
