package engine

import (
	"crypto/rand"
	"encoding/binary"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// A cursor holds the rest of a result set between getMore calls. Results
// are materialised when the command runs (under the read lock); stored
// documents are immutable, so the cursor needs no lock on the catalog.
type cursor struct {
	id       int64
	ns       string
	docs     []bson.D
	pos      int
	lastUsed time.Time
}

// cursorIdleTimeout matches mongod's cursorTimeoutMillis default (10 min).
const cursorIdleTimeout = 10 * time.Minute

// maxBatchBytes is mongod's cap on one reply batch (16 MiB of documents).
const maxBatchBytes = value.MaxUserDocumentSize

type cursorTable struct {
	mu      sync.Mutex
	cursors map[int64]*cursor
}

func newCursorTable() *cursorTable {
	return &cursorTable{cursors: map[int64]*cursor{}}
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

// firstBatch builds the reply's cursor document for a freshly computed
// result, registering a cursor when documents remain. batchSize 0 means
// "default": 101 documents for the first batch.
func (t *cursorTable) firstBatch(namespace string, docs []bson.D, batchSize int64, hasBatchSize bool, singleBatch bool) bson.D {
	limit := int64(101)
	if hasBatchSize {
		limit = batchSize
	}
	batch, rest := splitBatch(docs, limit, hasBatchSize)
	var id int64
	if len(rest) > 0 && !singleBatch {
		id = newCursorID()
		t.mu.Lock()
		t.expireLocked()
		t.cursors[id] = &cursor{id: id, ns: namespace, docs: rest, lastUsed: time.Now()}
		t.mu.Unlock()
	}
	return bson.D{{Key: "cursor", Value: bson.D{
		{Key: "firstBatch", Value: docsToArray(batch)},
		{Key: "id", Value: id},
		{Key: "ns", Value: namespace},
	}}}
}

// splitBatch cuts a batch of at most n documents (all of them when n is
// 0 and explicit... as mongod: batchSize 0 returns an empty first batch)
// and at most maxBatchBytes, always at least one document if any is due.
func splitBatch(docs []bson.D, n int64, explicit bool) ([]bson.D, []bson.D) {
	if explicit && n == 0 {
		return nil, docs
	}
	size := 0
	i := 0
	for i < len(docs) && (n <= 0 || int64(i) < n) {
		s := value.Size(docs[i])
		if i > 0 && size+s > maxBatchBytes {
			break
		}
		size += s
		i++
	}
	return docs[:i], docs[i:]
}

func docsToArray(docs []bson.D) bson.A {
	a := make(bson.A, len(docs))
	for i, d := range docs {
		a[i] = d
	}
	return a
}

func (t *cursorTable) getMore(id int64, namespace string, batchSize int64) (bson.D, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c, ok := t.cursors[id]
	if !ok {
		return nil, mongoerr.Newf(mongoerr.CursorNotFound, "cursor id %d not found", id)
	}
	if c.ns != namespace {
		return nil, mongoerr.Newf(mongoerr.Unauthorized,
			"Requested getMore on namespace '%s', but cursor belongs to a different namespace %s", namespace, c.ns)
	}
	batch, rest := splitBatch(c.docs, batchSize, false)
	c.docs = rest
	c.lastUsed = time.Now()
	outID := id
	if len(rest) == 0 {
		delete(t.cursors, id)
		outID = 0
	}
	return bson.D{{Key: "cursor", Value: bson.D{
		{Key: "nextBatch", Value: docsToArray(batch)},
		{Key: "id", Value: outID},
		{Key: "ns", Value: namespace},
	}}}, nil
}

func (t *cursorTable) kill(ids []int64) (killed, notFound []int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, id := range ids {
		if _, ok := t.cursors[id]; ok {
			delete(t.cursors, id)
			killed = append(killed, id)
		} else {
			notFound = append(notFound, id)
		}
	}
	return killed, notFound
}

// killNamespace drops the cursors of a dropped collection, as mongod
// invalidates them.
func (t *cursorTable) killNamespace(prefix string, wholeDB bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, c := range t.cursors {
		if c.ns == prefix || (wholeDB && len(c.ns) > len(prefix) && c.ns[:len(prefix)+1] == prefix+".") {
			delete(t.cursors, id)
		}
	}
}

func (t *cursorTable) expireLocked() {
	now := time.Now()
	for id, c := range t.cursors {
		if now.Sub(c.lastUsed) > cursorIdleTimeout {
			delete(t.cursors, id)
		}
	}
}

func (t *cursorTable) open() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.cursors)
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
