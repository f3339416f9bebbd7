package engine

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"os"
	"slices"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/aggregate"
	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// A cursor is a result being read batch by batch. It keeps what its
// command read from (collection snapshots, which no writer changes) and
// its position there (a plan executor or a pipeline), and produces each
// batch when a getMore asks for it. It holds no results of its own beyond
// the one document it reads ahead to know whether more follow; blocking
// stages ($sort without an index, $group) hold their own output.
type cursor struct {
	id    int64
	ns    string
	owner string // see request.owner
	// user opened the cursor ("" for no one): only that user may read
	// from it. lsid is the logical session it was opened in (nil for
	// none), which every getMore must name, as mongod requires.
	user   string
	lsid   []byte
	stream resultStream
	// ahead is a document (or the error) read past the last batch.
	ahead    bson.D
	aheadErr error
	hasAhead bool
	// leftover is what the opening command's maxTimeMS has not used yet:
	// mongod rolls it over to each getMore of a non-awaitData cursor.
	leftover time.Duration
	timed    bool
	lastUsed time.Time
	// born is when the cursor was registered and getMores how many
	// getMores have read from it, for serverStatus's metrics.cursor.
	born     time.Time
	getMores int
	// cancel interrupts the getMore using the cursor (nil when idle), so
	// that killing a cursor stops it at once.
	cancel context.CancelCauseFunc
	killed bool
	// indexes are the indexes the cursor's plan reads and uuid the
	// collection (for a find); planKilled is the error of its next
	// getMore once one of them is dropped.
	indexes    []string
	uuid       string
	planKilled error
	// origin is the command that opened the cursor, a getMore's
	// originatingCommand in the profile; counted are the keys and
	// documents examined that its batches so far reported.
	origin                   bson.D
	countedKeys, countedDocs int64
	// api is the Stable API parameters of the command that opened it.
	api apiParameters
	// What $currentOp's idleCursors reports of it (GenericCursor): the
	// documents and batches returned so far, its options, the lsid it was
	// opened in and the address it was opened on (rendered only when
	// reported).
	docsReturned, batchesReturned  int64
	noTimeout, tailable, awaitData bool
	lsidDoc                        bson.D
	listen                         string
}

// resultStream is where a cursor's documents come from.
type resultStream struct {
	next func() (bson.D, bool, error)
	// bind points the stream's interrupt checks at the context of the
	// command reading it now.
	bind func(ctx context.Context)
	// indexes, when set, names the indexes the stream reads from.
	indexes func() []string
	// uuid is the collection a find's plan reads ("" for other streams).
	uuid string
	// tail is set for a tailable cursor's stream (tailable.go).
	tail *tailState
	// exec is the plan the stream reads, when it reads one, and foreign
	// what a pipeline's reads of other collections examined, for the
	// operation's figures.
	exec    *planner.Executor
	foreign *aggregate.ScanStats
	// materialized marks a stream that holds every result already, as
	// mongod's QueuedDataStage holds listIndexes' and listCollections':
	// a drop or rename of the collection leaves its cursor readable.
	materialized bool
	// idleAtZero marks an aggregate's stream: given batchSize 0, mongod's
	// handleCursorCommand (run_aggregate.cpp) never calls getNext, so the
	// cursor stays open even when the pipeline would produce nothing.
	idleAtZero bool
}

// scans reports whether the stream reads a collection through a plan
// (which makes its operation report keys and documents examined).
func (s *resultStream) scans() bool { return s.exec != nil || s.tail != nil }

// examined is what the stream's reads have examined so far: its plan's
// keys and documents, a pipeline's reads of other collections
// (accumulatePipelinePlanSummaryStats) and a tailable cursor's records.
func (s *resultStream) examined() (keys, docs int64) {
	if s.exec != nil {
		keys, docs = s.exec.KeysExamined(), s.exec.DocsExamined()
	}
	if s.foreign != nil {
		keys += s.foreign.KeysExamined
		docs += s.foreign.DocsExamined
	}
	if s.tail != nil {
		docs += s.tail.docs
	}
	return keys, docs
}

// collectionScans is PlanSummaryStats.collectionScans of what the stream
// has run so far, and the collection it reads (nil when it reads none).
func (s *resultStream) collectionScans() (*catalog.Collection, int64) {
	var coll *catalog.Collection
	var n int64
	switch {
	case s.exec != nil:
		coll = s.exec.Collection()
		if s.exec.CollectionScan() {
			n++
		}
	case s.tail != nil && s.tail.snap != nil:
		coll = s.tail.snap
		n++
	}
	if s.foreign != nil {
		n += s.foreign.CollectionScans
	}
	return coll, n
}

// newlyExamined is what c's stream examined since its last batch.
func (c *cursor) newlyExamined() (keys, docs int64) {
	k, d := c.stream.examined()
	keys, docs = k-c.countedKeys, d-c.countedDocs
	c.countedKeys, c.countedDocs = k, d
	return keys, docs
}

func sliceStream(docs []bson.D) resultStream {
	i := 0
	return resultStream{
		next: func() (bson.D, bool, error) {
			if i >= len(docs) {
				return nil, false, nil
			}
			i++
			return docs[i-1], true, nil
		},
		bind:         func(context.Context) {},
		materialized: true,
	}
}

// defaultFirstBatch is the first batch of find and aggregate without a
// batchSize.
const defaultFirstBatch = 101

func (c *cursor) read() (bson.D, bool, error) {
	if c.hasAhead {
		c.hasAhead = false
		d, err := c.ahead, c.aheadErr
		c.ahead, c.aheadErr = nil, nil
		return d, err == nil, err
	}
	return c.stream.next()
}

func (c *cursor) unread(d bson.D, err error) {
	c.ahead, c.aheadErr, c.hasAhead = d, err, true
}

// fill reads the next batch, as mongod's FindCommon::haveSpaceForNext
// cuts it: at most n documents (n < 0: no count limit), and no more than
// 16 MiB of them, but always the first one that is due, whatever its
// size. A document larger than any BSON object mongod builds fails with
// BSONObjectTooLarge, as its reply builder does. exhausted reports that
// nothing follows the batch, which fill learns by reading one document
// ahead (an error found that way belongs to the next batch).
func (c *cursor) fill(n int) (batch bson.A, exhausted bool, err error) {
	batch = bson.A{}
	size := 0
	for n < 0 || len(batch) < n {
		d, ok, err := c.read()
		if err != nil {
			return nil, false, err
		}
		if !ok {
			return batch, true, nil
		}
		s := value.Size(d)
		if s > value.MaxInternalDocumentSize {
			return nil, false, value.ObjectTooLarge(d, s)
		}
		if len(batch) > 0 && size+s > value.MaxUserDocumentSize {
			c.unread(d, nil)
			return batch, false, nil
		}
		size += s
		batch = append(batch, d)
	}
	d, ok, err := c.read()
	if !ok && err == nil {
		return batch, true, nil
	}
	c.unread(d, err)
	return batch, false, nil
}

// DefaultMaxOpenCursors caps the cursors one user of the embedded server
// keeps open (the unauthenticated clients of a server without users count
// as one user). mongod has no such cap (it bounds cursors only by their
// idle timeout and by the sessions that own them); the embedded server
// adds one so that a client opening cursors in a loop cannot grow it
// without bound. Each open cursor pins the collection versions it reads,
// so the cap bounds memory; 10,000 is far more than a learner keeps open.
// Each user's cursors count against that user's cap only, so one
// student's loop never stops a classmate from opening a cursor.
const DefaultMaxOpenCursors = 10000

// defaultCursorIdleTimeout is mongod's cursorTimeoutMillis default.
const defaultCursorIdleTimeout = 10 * time.Minute

// cursorTable holds the open cursors and, for each owner (a session or a
// connection) that has some, the open connections they were used on.
type cursorTable struct {
	mu           sync.Mutex
	cursors      map[int64]*cursor
	userCursors  map[string]int
	ownerCursors map[string]int
	ownerConns   map[string]map[int64]struct{}
	connOwners   map[int64]map[string]struct{}
	max          int
	idle         time.Duration
	lastSweep    time.Time
	stats        cursorStats
}

func newCursorTable(max int, idle time.Duration) *cursorTable {
	if max <= 0 {
		max = DefaultMaxOpenCursors
	}
	if idle <= 0 {
		idle = defaultCursorIdleTimeout
	}
	return &cursorTable{
		cursors:      map[int64]*cursor{},
		userCursors:  map[string]int{},
		ownerCursors: map[string]int{},
		ownerConns:   map[string]map[int64]struct{}{},
		connOwners:   map[int64]map[string]struct{}{},
		max:          max,
		idle:         idle,
	}
}

func newCursorID() int64 {
	var b [8]byte
	for {
		_, _ = rand.Read(b[:])
		id := int64(binary.LittleEndian.Uint64(b[:]) & 0x3fffffffffffffff)
		if id != 0 {
			return id
		}
	}
}

// firstBatch answers a cursor-opening command: the reply's cursor document
// with the first batch of s, and a cursor registered for the rest when
// anything is left and the client wants more. batchSize 0 given
// explicitly returns an empty first batch, as mongod does. errContext is
// the context mongod adds to an execution error of this command.
func (e *Engine) firstBatch(req *request, namespace string, s resultStream, batchSize int64, hasBatchSize, singleBatch bool, errContext string) (bson.D, error) {
	n := defaultFirstBatch
	if hasBatchSize {
		n = int(batchSize)
	}
	c := &cursor{ns: namespace, owner: req.owner(), user: req.conn.user, lsid: req.lsid(), stream: s, origin: req.cmd, api: req.api}
	batch, exhausted := bson.A{}, false
	var keys, docs int64
	if n != 0 || !s.idleAtZero {
		var err error
		batch, exhausted, err = c.fill(n)
		coll, scans := s.collectionScans()
		e.collectionScanned(coll, scans, s.tail != nil)
		keys, docs = c.newlyExamined()
		e.metrics.examined(keys, docs)
		if err != nil {
			return nil, executorError(errContext, err)
		}
	}
	if req.name == "find" || req.name == "aggregate" {
		// OpDebug's nreturned, which recordCurOpMetrics adds to
		// metrics.document.returned, is set by the query commands.
		e.metrics.docReturned.Add(int64(len(batch)))
	}
	var id int64
	keep := !exhausted && !singleBatch
	if s.tail != nil {
		keep = s.tail.keepOpen()
	}
	if keep {
		c.docsReturned, c.batchesReturned = int64(len(batch)), 1
		c.noTimeout = req.name == "find" && expr.IsTrue(value.Get(req.cmd, "noCursorTimeout"))
		c.tailable, c.awaitData = s.tail != nil, s.tail != nil && s.tail.await
		c.lsidDoc, _ = lookupDoc(req.cmd, "lsid")
		c.listen = req.conn.ListenAddr
		if s.indexes != nil {
			c.indexes = s.indexes()
		}
		c.uuid = s.uuid
		// An awaitData cursor's getMores have their own time limit (the
		// wait); find's maxTimeMS does not carry over to them.
		if !req.deadline.IsZero() && (s.tail == nil || !s.tail.await) {
			c.timed, c.leftover = true, max(time.Until(req.deadline), 0)
		}
		var err error
		if id, err = e.cursors.open(c, req.conn); err != nil {
			return nil, err
		}
	}
	if req.prof != nil {
		req.prof.batch(len(batch), c, false, keys, docs)
		req.prof.cursor(id)
	}
	return bson.D{{Key: "cursor", Value: bson.D{
		{Key: "firstBatch", Value: batch},
		{Key: "id", Value: id},
		{Key: "ns", Value: namespace},
	}}}, nil
}

// getMore produces a cursor's next batch (batchSize 0: no count limit).
func (e *Engine) getMore(req *request, id int64, namespace string, batchSize int64) (bson.D, error) {
	ctx, cancel := context.WithCancelCause(req.ctx)
	defer cancel(nil)
	c, err := e.cursors.checkout(id, namespace, req, cancel)
	if err != nil {
		return nil, err
	}
	if c.timed {
		var stop context.CancelFunc
		ctx, stop = context.WithDeadlineCause(ctx, time.Now().Add(c.leftover), errMaxTimeMSExpired)
		defer stop()
	}
	// A panic below (recovered as InternalError by Run) must not leave
	// the cursor pinned for ever: it ends the cursor, as a failure does.
	pinned := true
	defer func() {
		if pinned {
			e.cursors.checkin(c, true)
		}
	}()
	if err := e.cursors.killedPlan(c); err != nil {
		// mongod restores the plan before the batch, outside the
		// batch's error context, and the failure ends the cursor.
		return nil, err
	}
	c.stream.bind(ctx)
	n := -1
	if batchSize > 0 {
		n = int(batchSize)
	}
	batch, exhausted, err := c.fill(n)
	if tail := c.stream.tail; tail != nil {
		if tail.await && err == nil && len(batch) == 0 {
			until := awaitDataDeadline(req)
			waitStart := time.Now()
			for len(batch) == 0 && err == nil && tail.awaitData(ctx, until) {
				batch, _, err = c.fill(n)
			}
			req.paused += time.Since(waitStart)
			if err == nil {
				// A wait cut short by killOp or killCursors fails the
				// getMore, as checkForInterrupt does in mongod's wait
				// for inserts; running out of time does not.
				if ierr := mongoerr.FromContext(ctx); ierr != nil {
					err = ierr
				}
			}
		}
		// A tailable cursor stays open at the end of its collection.
		exhausted = false
	}
	if d, ok := ctx.Deadline(); ok && c.timed {
		c.leftover = max(time.Until(d), 0)
	}
	// Whatever happened, the cursor is no longer in use; a failed batch
	// ends it, as mongod deletes a cursor whose getMore fails.
	keys, docs := c.newlyExamined()
	e.metrics.examined(keys, docs)
	if req.prof != nil {
		req.prof.batch(len(batch), c, true, keys, docs)
	}
	pinned = false
	outID := e.cursors.checkin(c, exhausted || err != nil)
	if req.prof != nil {
		req.prof.cursor(outID)
	}
	if err != nil {
		return nil, executorError("Executor error during getMore", err)
	}
	e.cursors.returned(c, len(batch))
	e.metrics.docReturned.Add(int64(len(batch)))
	return bson.D{{Key: "cursor", Value: bson.D{
		{Key: "nextBatch", Value: batch},
		{Key: "id", Value: outID},
		{Key: "ns", Value: namespace},
	}}}, nil
}

// open registers c, refusing when its user already has as many open
// cursors as it may keep, even after idle cursors have been expired.
func (t *cursorTable) open(c *cursor, conn *Conn) (int64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	limit := t.max
	if conn.maxCursors > 0 {
		limit = conn.maxCursors
	}
	now := time.Now()
	// Never a forced sweep: the table is shared, and a user opening
	// cursor after cursor at its cap must not make every open walk
	// everyone's cursors.
	t.sweepLocked(now)
	if n := t.userCursors[c.user]; n >= limit {
		if c.user == "" {
			return 0, mongoerr.Newf(mongoerr.ResourceExhausted,
				"Cannot open a new cursor: the embedded server already has %d open cursors, the most it keeps. Exhaust or close cursors you no longer need; idle ones expire after %v.",
				n, t.idle)
		}
		return 0, mongoerr.Newf(mongoerr.ResourceExhausted,
			"Cannot open a new cursor: user %s already has %d open cursors, the most one user may keep on this server. Exhaust or close cursors you no longer need; idle ones expire after %v.",
			c.user, n, t.idle)
	}
	c.id = newCursorID()
	for t.cursors[c.id] != nil {
		c.id = newCursorID()
	}
	c.lastUsed, c.born = now, now
	t.stats.totalOpened++
	t.cursors[c.id] = c
	t.userCursors[c.user]++
	t.ownerCursors[c.owner]++
	t.linkLocked(c.owner, conn.ID)
	return c.id, nil
}

// openCursors is how many cursors user has open.
func (t *cursorTable) openCursors(user string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.userCursors[user]
}

// OpenCursors is how many cursors user has open ("" for the clients of a
// server without users).
func (e *Engine) OpenCursors(user string) int { return e.cursors.openCursors(user) }

// checkout pins a cursor for one getMore, with the checks mongod makes
// before it touches the cursor, in its order (a failed check leaves the
// cursor as it was): it exists and has not expired, it belongs to the
// authenticated user, the namespace matches, the logical session matches,
// no maxTimeMS is set (which getMore accepts for awaitData cursors only),
// no other getMore is using it, and the getMore sends the API parameters
// the cursor was opened with.
func (t *cursorTable) checkout(id int64, namespace string, req *request, cancel context.CancelCauseFunc) (*cursor, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now()
	t.sweepLocked(now)
	c, ok := t.cursors[id]
	if ok && c.cancel == nil && now.Sub(c.lastUsed) > t.idle {
		t.stats.timedOut++
		t.removeLocked(c)
		ok = false
	}
	if !ok {
		return nil, mongoerr.Newf(mongoerr.CursorNotFound, "cursor id %d not found", id)
	}
	if c.user != "" && c.user != req.conn.user {
		return nil, mongoerr.Newf(mongoerr.Unauthorized, "cursor id %d was not created by the authenticated user", id)
	}
	if c.ns != namespace {
		return nil, mongoerr.Newf(mongoerr.Unauthorized,
			"Requested getMore on namespace '%s', but cursor belongs to a different namespace %s", namespace, c.ns)
	}
	if err := checkSession(id, c, req); err != nil {
		return nil, err
	}
	if hasMaxTimeMS(req.cmd) && (c.stream.tail == nil || !c.stream.tail.await) {
		return nil, mongoerr.New(mongoerr.BadValue, "cannot set maxTimeMS on getMore command for a non-awaitData cursor")
	}
	if c.cancel != nil {
		return nil, mongoerr.Newf(mongoerr.CursorInUse, "cursor id %d is already in use", id)
	}
	if err := checkCursorAPIParameters(c, req); err != nil {
		return nil, err
	}
	c.cancel = cancel
	c.getMores++
	t.linkLocked(c.owner, req.conn.ID)
	return c, nil
}

// checkSession is mongod's validateLSID (getmore_cmd.cpp): a getMore
// runs in the logical session its cursor was opened in, or in none if the
// cursor has none.
func checkSession(id int64, c *cursor, req *request) error {
	lsid := req.lsid()
	switch {
	case lsid != nil && c.lsid == nil:
		return mongoerr.Newf(50736, "Cannot run getMore on cursor %d, which was not created in a session, in session %s",
			id, sessionText(lsid, req.conn.user))
	case lsid == nil && c.lsid != nil:
		return mongoerr.Newf(50737, "Cannot run getMore on cursor %d, which was created in session %s, without an lsid",
			id, sessionText(c.lsid, c.user))
	case lsid != nil && string(lsid) != string(c.lsid):
		return mongoerr.Newf(50738, "Cannot run getMore on cursor %d, which was created in session %s, in session %s",
			id, sessionText(c.lsid, c.user), sessionText(lsid, req.conn.user))
	}
	return nil
}

// sessionText renders a logical session id as mongod's LogicalSessionId
// prints: the id, the digest of its user (SHA-256 of "db.user", of
// nothing without a user), then the empty transaction fields.
func sessionText(id []byte, user string) string {
	name := ""
	if user != "" {
		name = "admin." + user
	}
	digest := sha256.Sum256([]byte(name))
	return catalog.UUIDString(bson.Binary{Subtype: bson.TypeBinaryUUID, Data: id}) + " - " +
		base64.StdEncoding.EncodeToString(digest[:]) + " -  - "
}

// checkin ends a getMore's use of c and returns the id to report: 0 when
// the cursor is finished (done, or killed meanwhile).
func (t *cursorTable) checkin(c *cursor, done bool) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	c.cancel = nil
	c.lastUsed = time.Now()
	if done {
		t.removeLocked(c)
	}
	if c.killed {
		return 0
	}
	return c.id
}

// returned counts a getMore's batch of n documents.
func (t *cursorTable) returned(c *cursor, n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c.docsReturned += int64(n)
	c.batchesReturned++
}

// idleReport is $currentOp's idleCursors part for user ("" for everyone):
// a document for each cursor no getMore is using, in the order they were
// opened, as CommonMongodProcessInterface::getCurrentOps renders a
// GenericCursor: type, host, ns, lsid and planSummary at the top, the rest
// under cursor.
func (t *cursorTable) idleReport(user string) []bson.D {
	t.mu.Lock()
	defer t.mu.Unlock()
	idle := make([]*cursor, 0, len(t.cursors))
	for _, c := range t.cursors {
		if c.cancel == nil && !c.killed && visible(c.user, user) {
			idle = append(idle, c)
		}
	}
	slices.SortFunc(idle, func(a, b *cursor) int { return a.born.Compare(b.born) })
	hostname, _ := os.Hostname()
	out := make([]bson.D, 0, len(idle))
	for _, c := range idle {
		d := bson.D{{Key: "type", Value: "idleCursor"}, {Key: "host", Value: hostAndPort(hostname, c.listen)}, {Key: "ns", Value: c.ns}}
		if c.lsidDoc != nil {
			d = append(d, bson.E{Key: "lsid", Value: sessionID(c.lsidDoc, c.user)})
		}
		if exec := c.stream.exec; exec != nil {
			if summary := exec.Profile().Summary; summary != "" {
				d = append(d, bson.E{Key: "planSummary", Value: summary})
			}
		}
		out = append(out, append(d, bson.E{Key: "cursor", Value: bson.D{
			{Key: "cursorId", Value: c.id},
			{Key: "createdDate", Value: bson.NewDateTimeFromTime(c.born)},
			{Key: "lastAccessDate", Value: bson.NewDateTimeFromTime(c.lastUsed)},
			{Key: "nDocsReturned", Value: c.docsReturned},
			{Key: "nBatchesReturned", Value: c.batchesReturned},
			{Key: "noCursorTimeout", Value: c.noTimeout},
			{Key: "tailable", Value: c.tailable},
			{Key: "awaitData", Value: c.awaitData},
			{Key: "originatingCommand", Value: c.origin},
		}}))
	}
	return out
}

// removeLocked drops c from the table and interrupts a getMore using it
// with mongod's error for a killed cursor.
func (t *cursorTable) removeLocked(c *cursor) {
	if t.cursors[c.id] != c {
		return
	}
	delete(t.cursors, c.id)
	t.stats.died(c, time.Now())
	if t.userCursors[c.user]--; t.userCursors[c.user] == 0 {
		delete(t.userCursors, c.user)
	}
	c.killed = true
	if c.cancel != nil {
		c.cancel(mongoerr.New(mongoerr.CursorKilled, "operation was interrupted"))
	}
	if t.ownerCursors[c.owner]--; t.ownerCursors[c.owner] > 0 {
		return
	}
	// An owner without cursors needs no record of its connections.
	delete(t.ownerCursors, c.owner)
	for conn := range t.ownerConns[c.owner] {
		delete(t.connOwners[conn], c.owner)
		if len(t.connOwners[conn]) == 0 {
			delete(t.connOwners, conn)
		}
	}
	delete(t.ownerConns, c.owner)
}

// kill ends the cursors of ids, as killCursors does; the ids of no open
// cursor are reported not found. mongod's CursorManager looks a cursor up
// by its id alone: the namespace the command names is not compared with
// the cursor's (killcursors_cmd.cpp, cursor_manager.cpp). Killing another
// user's cursor needs a user that is not confined to a prefix (mongod's
// killAnyCursor), and is refused before anything is killed, the refusal
// naming the command's namespace ns as checkAuthForKillCursors does, so
// it says nothing of the cursor's.
func (t *cursorTable) kill(ids []int64, ns string, conn *Conn) (killed, notFound []int64, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, id := range ids {
		if c, ok := t.cursors[id]; ok && c.user != "" && c.user != conn.user && conn.prefix != "" {
			return nil, nil, mongoerr.Newf(mongoerr.Unauthorized, "not authorized to kill cursor on %s", ns)
		}
	}
	for _, id := range ids {
		if c, ok := t.cursors[id]; ok {
			t.removeLocked(c)
			killed = append(killed, id)
		} else {
			notFound = append(notFound, id)
		}
	}
	return killed, notFound, nil
}

// killNamespace drops the cursors of a dropped collection (or, with
// wholeDB, of every collection of a dropped database), as mongod
// invalidates them.
func (t *cursorTable) killNamespace(prefix string, wholeDB bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range t.cursors {
		if namespaceIn(c.ns, prefix, wholeDB) {
			t.removeLocked(c)
		}
	}
}

// namespaceIn reports whether ns is prefix, or with wholeDB a collection
// of the database prefix.
func namespaceIn(ns, prefix string, wholeDB bool) bool {
	return ns == prefix || wholeDB && len(ns) > len(prefix) && ns[:len(prefix)+1] == prefix+"."
}

// collectionGone ends the cursors of a dropped or renamed collection
// (renamedTo the new namespace), or with wholeDB of every collection of
// a dropped database. A find's plan fails its next getMore with the
// error mongod's collection scan and fetch raise when they restore
// (RequiresCollectionStage::doRestoreState), which ends it; every other
// cursor but one whose results are all in hand ends at once, as
// killNamespace ends them.
func (t *cursorTable) collectionGone(prefix string, wholeDB bool, renamedTo string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range t.cursors {
		if !namespaceIn(c.ns, prefix, wholeDB) {
			continue
		}
		switch {
		case c.stream.materialized:
		case c.uuid == "":
			t.removeLocked(c)
		case c.planKilled != nil:
			// The first reason stands, as the first failed restore does.
		case renamedTo != "":
			c.planKilled = mongoerr.Newf(mongoerr.QueryPlanKilled, "collection renamed from '%s' to '%s'. UUID %s", c.ns, renamedTo, c.uuid)
		default:
			c.planKilled = mongoerr.Newf(mongoerr.QueryPlanKilled, "collection dropped. UUID %s", c.uuid)
		}
	}
}

// killedPlan is the error c's next getMore fails with, nil while its plan
// stands. A drop may mark c while a getMore holds it, so it is read under
// the table's lock.
func (t *cursorTable) killedPlan(c *cursor) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return c.planKilled
}

// indexesDropped fails the next getMore of every cursor on ns whose plan
// reads one of the dropped indexes, with the error mongod's index scan
// raises when it restores (RequiresIndexStage::doRestoreStateRequiresCollection).
func (t *cursorTable) indexesDropped(ns string, dropped []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range t.cursors {
		if c.ns != ns || c.planKilled != nil {
			continue
		}
		for _, name := range c.indexes {
			if slices.Contains(dropped, name) {
				c.planKilled = mongoerr.Newf(mongoerr.QueryPlanKilled, "query plan killed :: index '%s' dropped", name)
				break
			}
		}
	}
}

// linkLocked records that owner's cursors are used on connection conn.
func (t *cursorTable) linkLocked(owner string, conn int64) {
	conns := t.ownerConns[owner]
	if conns == nil {
		conns = map[int64]struct{}{}
		t.ownerConns[owner] = conns
	}
	conns[conn] = struct{}{}
	owners := t.connOwners[conn]
	if owners == nil {
		owners = map[string]struct{}{}
		t.connOwners[conn] = owners
	}
	owners[owner] = struct{}{}
}

// connectionClosed kills the cursors of every owner that no other open
// connection has used.
func (t *cursorTable) connectionClosed(conn int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	orphaned := map[string]bool{}
	for owner := range t.connOwners[conn] {
		conns := t.ownerConns[owner]
		delete(conns, conn)
		if len(conns) == 0 {
			orphaned[owner] = true
		}
	}
	delete(t.connOwners, conn)
	if len(orphaned) == 0 {
		return
	}
	for _, c := range t.cursors {
		if orphaned[c.owner] {
			t.removeLocked(c)
		}
	}
}

// sweepLocked expires idle cursors, at most a few times per idle period
// and once a second: an expired cursor is refused by checkout in any case,
// so the sweep only bounds how long an abandoned one holds memory (and
// counts against its user's cap).
func (t *cursorTable) sweepLocked(now time.Time) {
	if now.Sub(t.lastSweep) < min(t.idle/4, time.Second) {
		return
	}
	t.lastSweep = now
	for _, c := range t.cursors {
		if c.cancel == nil && now.Sub(c.lastUsed) > t.idle {
			t.stats.timedOut++
			t.removeLocked(c)
		}
	}
}

// listingCursor reorders a first-batch reply the way listIndexes and
// listCollections build theirs (ListIndexesReplyCursor and
// ListCollectionsReplyCursor declare id, ns, firstBatch), unlike find and
// aggregate whose cursor starts with firstBatch.
func listingCursor(reply bson.D) bson.D {
	cur := reply[0].Value.(bson.D)
	reply[0].Value = bson.D{cur[1], cur[2], cur[0]}
	return reply
}
