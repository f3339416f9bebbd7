package catalog

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// A snapshot is written as a stream: a BSON header {db, collections},
// then for each collection a BSON header {name, kind, uuid, options,
// nextId, records, indexes} followed by its records, each an 8-byte
// little-endian record id and the document, then each index's entries in
// index order, a uint64 count and for each entry its record's position
// and which of the record's keys it is (uint32 each). Keys are not
// written: they are computed from the documents again, so they cannot
// disagree with them, and the order lets reading append each entry to
// its index instead of searching for its place (index.AppendInOrder).
// Integrity (a checksum, the format's version) is the file's business,
// not this stream's.

// maxStoredDocument bounds a document read back: mongod's 16 MiB limit
// plus the room an update may leave a stored document.
const maxStoredDocument = 16*1024*1024 + 16*1024

// ErrNotPersistable marks a snapshot that cannot be written: one that
// holds a kind of collection whose state lives outside its records.
var ErrNotPersistable = errors.New("the snapshot cannot be written to a file")

// Encode writes s to w.
func (s *Snapshot) Encode(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	names := make([]string, 0, len(s.colls))
	for name, c := range s.colls {
		if c.Kind != KindCollection && c.Kind != KindView {
			return fmt.Errorf("%w: %s is a %s", ErrNotPersistable, c.ns, c.Kind)
		}
		names = append(names, name)
	}
	slices.Sort(names)
	buf, err := value.AppendDoc(nil, bson.D{{Key: "db", Value: s.DB}, {Key: "collections", Value: int64(len(names))}})
	if err != nil {
		return err
	}
	if _, err := bw.Write(buf); err != nil {
		return err
	}
	for _, name := range names {
		c := s.colls[name]
		specs := make(bson.A, len(c.indexes))
		for i, ix := range c.indexes {
			specs[i] = ix.Spec.Document()
		}
		buf, err = value.AppendDoc(buf[:0], bson.D{
			{Key: "name", Value: c.Name}, {Key: "kind", Value: c.Kind}, {Key: "uuid", Value: c.UUID}, {Key: "options", Value: c.Options},
			{Key: "nextId", Value: c.nextID}, {Key: "records", Value: int64(c.records.Len())}, {Key: "indexes", Value: specs},
		})
		if err != nil {
			return err
		}
		if _, err := bw.Write(buf); err != nil {
			return err
		}
		position := make(map[int64]uint32, c.records.Len())
		c.docs.ready()
		c.records.Ascend(func(ref recordRef) bool {
			r := ref.r
			position[r.ID] = uint32(len(position))
			buf = binary.LittleEndian.AppendUint64(buf[:0], uint64(r.ID))
			if buf, err = value.AppendDoc(buf, r.Doc); err == nil {
				_, err = bw.Write(buf)
			}
			return err == nil
		})
		for _, ix := range c.indexes {
			if err != nil {
				break
			}
			err = encodeEntries(bw, c, ix, position)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", c.ns, err)
		}
	}
	return bw.Flush()
}

// encodeEntries writes ix's entries in order, each as its record's
// position and the number of its key among the record's keys.
func encodeEntries(bw *bufio.Writer, c *Collection, ix *index.Index, position map[int64]uint32) error {
	buf := binary.LittleEndian.AppendUint64(nil, uint64(ix.Len()))
	// A record with several keys (an array in a multikey index) has its
	// entries in its keys' order, not together: each such record's keys
	// are sorted once, and its n-th entry is its n-th smallest key.
	type multikey struct {
		order []int
		next  int
	}
	multi := map[int64]*multikey{}
	var err error
	ix.Ascend(func(e index.Entry) bool {
		k := 0
		if m := multi[e.RID]; m != nil {
			if m.next >= len(m.order) {
				err = fmt.Errorf("index %s: record %d has more entries than keys", ix.Spec.Name, e.RID)
				return false
			}
			k = m.order[m.next]
			m.next++
		} else {
			doc, _ := c.Get(e.RID)
			var ks index.KeySet
			if ks, err = ix.Keys(doc); err != nil {
				return false
			}
			if len(ks.Keys) > 1 {
				m := &multikey{order: make([]int, len(ks.Keys)), next: 1}
				for i := range m.order {
					m.order[i] = i
				}
				slices.SortFunc(m.order, func(a, b int) int { return ix.CompareKeys(ks.Keys[a], ks.Keys[b]) })
				multi[e.RID] = m
				k = m.order[0]
			}
		}
		buf = binary.LittleEndian.AppendUint32(buf, position[e.RID])
		buf = binary.LittleEndian.AppendUint32(buf, uint32(k))
		if len(buf) >= 1<<16 {
			_, err = bw.Write(buf)
			buf = buf[:0]
		}
		return err == nil
	})
	if err != nil {
		return err
	}
	_, err = bw.Write(buf)
	return err
}

// DecodeSnapshot reads a snapshot Encode wrote, as a snapshot of db taken
// at taken: its collections get new UUIDs unless db is the database it
// was written from; their documents are decoded and each index filled,
// from the entry order the file gives and checked as it goes, when first
// read (deferredDocs, index.Deferred). compileValidator compiles a
// collection's options.validator.
func (c *Catalog) DecodeSnapshot(data []byte, db string, taken time.Time,
	compileValidator func(options bson.D) (*validation.Validator, error)) (*Snapshot, error) {
	sr := &streamReader{data: data}
	head, err := sr.doc()
	if err != nil {
		return nil, fmt.Errorf("snapshot header: %w", err)
	}
	from, _ := value.Get(head, "db").(string)
	n, ok := value.Get(head, "collections").(int64)
	if from == "" || !ok || n < 0 {
		return nil, errors.New("snapshot header: no database or collection count")
	}
	s := &Snapshot{DB: db, Taken: taken, colls: map[string]*Collection{}}
	for range n {
		col, err := c.decodeCollection(sr, db, from == db, compileValidator)
		if err != nil {
			return nil, err
		}
		if s.colls[col.Name] != nil {
			return nil, fmt.Errorf("collection %s appears twice", col.Name)
		}
		s.colls[col.Name] = col
	}
	if len(sr.data) > 0 {
		return nil, errors.New("snapshot: data after its last collection")
	}
	return s, nil
}

func (c *Catalog) decodeCollection(sr *streamReader, db string, sameDB bool,
	compileValidator func(bson.D) (*validation.Validator, error)) (*Collection, error) {
	head, err := sr.doc()
	if err != nil {
		return nil, fmt.Errorf("collection header: %w", err)
	}
	name, _ := value.Get(head, "name").(string)
	kind, _ := value.Get(head, "kind").(string)
	uuid, _ := value.Get(head, "uuid").(bson.Binary)
	options, _ := value.Get(head, "options").(bson.D)
	nextID, _ := value.Get(head, "nextId").(int64)
	count, _ := value.Get(head, "records").(int64)
	specs, _ := value.Get(head, "indexes").(bson.A)
	if err := ValidateNamespace(db, name); err != nil || count < 0 || nextID < 1 || len(specs) == 0 ||
		(kind != KindCollection && kind != KindView) {
		return nil, fmt.Errorf("collection header %v is not valid", head)
	}
	col := newCollection(db, name, options, c.compile)
	col.Kind = kind
	if sameDB && uuid.Subtype == bson.TypeBinaryUUID && len(uuid.Data) == 16 {
		col.UUID = uuid
	}
	if col.Validator, err = compileValidator(col.Options); err != nil {
		return nil, fmt.Errorf("%s: validator: %w", col.ns, err)
	}
	records, docs, err := sr.records(count, nextID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", col.ns, err)
	}
	col.docs = docs
	col.records = newRecordTree()
	for _, r := range records {
		col.records.ReplaceOrInsert(recordRef{id: r.ID, r: r})
		col.dataSize += int64(r.Size)
	}
	col.nextID = nextID
	col.indexes = nil
	for _, sd := range specs {
		d, ok := sd.(bson.D)
		if !ok {
			return nil, fmt.Errorf("%s: an index spec is not a document", col.ns)
		}
		spec, err := index.ParseSpec(d, false)
		if err != nil {
			return nil, fmt.Errorf("%s: index %v: %w", col.ns, d, err)
		}
		ix, err := col.newIndex(spec)
		if err == nil && ix == nil {
			err = errors.New("it appears twice")
		}
		var entries []byte
		if err == nil {
			entries, err = sr.entries()
		}
		if err != nil {
			return nil, fmt.Errorf("%s: index %s: %w", col.ns, spec.Name, err)
		}
		col.indexes = append(col.indexes, ix.Deferred(
			func(empty *index.Index) error { docs.ready(); return fillIndex(empty, entries, records) },
			func(empty *index.Index) { docs.ready(); rebuildIndex(empty, records) }))
	}
	if requiresIDIndex(col.Name) && (len(col.indexes) == 0 || !col.indexes[0].Spec.IsID()) {
		return nil, fmt.Errorf("%s: no _id index first", col.ns)
	}
	col.live = nil
	return col, nil
}

// recordDecoders is how many goroutines decode a collection's records:
// the machines schemalab runs on have a few cores, and a lesson's state
// is read while the learner waits.
const recordDecoders = 4

// records reads count records with ids in increasing order below nextID,
// checking each document's bytes as mongod checks a message's. The
// documents themselves are decoded by the deferredDocs returned, when the
// collection is first read.
func (sr *streamReader) records(count, nextID int64) ([]*Record, *deferredDocs, error) {
	if count > int64(len(sr.data))/13 { // an id and the smallest document
		return nil, nil, fmt.Errorf("%d records cannot fit in %d bytes", count, len(sr.data))
	}
	records := make([]*Record, count)
	raws := make([][]byte, count)
	last := int64(0)
	var validator value.Validator
	for i := range records {
		id, err := sr.uint64()
		if err != nil {
			return nil, nil, err
		}
		raw, err := sr.raw()
		if err != nil {
			return nil, nil, err
		}
		rid := int64(id)
		if rid <= last || rid >= nextID {
			return nil, nil, fmt.Errorf("record id %d out of order", rid)
		}
		if err := validator.Validate(raw); err != nil {
			return nil, nil, fmt.Errorf("record %d: %w", rid, err)
		}
		last = rid
		records[i], raws[i] = &Record{ID: rid, Size: len(raw)}, raw
	}
	return records, &deferredDocs{decode: func() { decodeRecords(records, raws) }}, nil
}

// decodeRecords decodes raws into records in parts side by side. Bytes
// that passed value.Validate decode, but for one binData form Validate
// accepts and Decode does not (see value.Validate); such a record, which no
// document of ours encodes to, reads as an empty document rather than
// stopping the server.
func decodeRecords(records []*Record, raws [][]byte) {
	var wg sync.WaitGroup
	per := (len(records) + recordDecoders - 1) / recordDecoders
	for from := 0; from < len(records); from += per {
		to := min(from+per, len(records))
		wg.Go(func() {
			var dec value.Decoder
			for i := from; i < to; i++ {
				doc, err := dec.Decode(raws[i])
				if err != nil {
					doc = bson.D{}
				}
				records[i].Doc = doc
			}
		})
	}
	wg.Wait()
}

// entries reads the entries encodeEntries wrote of one index.
func (sr *streamReader) entries() ([]byte, error) {
	n, err := sr.uint64()
	if err != nil {
		return nil, err
	}
	if n > uint64(len(sr.data))/8 {
		return nil, fmt.Errorf("%d entries cannot fit in %d bytes", n, len(sr.data))
	}
	entries := sr.data[:8*n]
	sr.data = sr.data[8*n:]
	return entries, nil
}

// fillIndex fills ix with entries, checking that each names a key its
// record gives, that they come in order, and that none is missing. In
// strictly increasing order no entry comes twice, so the entries are all
// of their records' keys when they number as many as those keys, and a
// record they never name gives none (a sparse or partial index's).
func fillIndex(ix *index.Index, entries []byte, records []*Record) error {
	var (
		ks   index.KeySet
		last = -1
		err  error
		// named marks the records the entries name; keys counts their
		// keys, and filled the entries.
		named        = make([]bool, len(records))
		keys, filled int
		// multi keeps, by record position, the keys of records with
		// several, whose entries are apart: computing them again for
		// each would be quadratic.
		multi []index.KeySet
	)
	for ; len(entries) >= 8; entries = entries[8:] {
		pair := entries[:8]
		at := int(binary.LittleEndian.Uint32(pair[:4]))
		if at >= len(records) {
			return fmt.Errorf("an entry names record %d of %d", at, len(records))
		}
		r := records[at]
		if at != last {
			if at < len(multi) && multi[at].Keys != nil {
				ks = multi[at]
			} else {
				if ks, err = ix.Keys(r.Doc); err != nil {
					return err
				}
				if !named[at] {
					named[at] = true
					keys += len(ks.Keys)
				}
				if len(ks.Keys) > 1 {
					if multi == nil {
						multi = make([]index.KeySet, len(records))
					}
					multi[at] = ks
				}
			}
			last = at
		}
		if err := ix.AppendInOrder(ks, int(binary.LittleEndian.Uint32(pair[4:])), r.ID); err != nil {
			return fmt.Errorf("index %s: %w", ix.Spec.Name, err)
		}
		filled++
	}
	if filled != keys {
		return fmt.Errorf("index %s: %d entries for %d keys", ix.Spec.Name, filled, keys)
	}
	for at, r := range records {
		if named[at] {
			continue
		}
		if ks, err := ix.Keys(r.Doc); err != nil || len(ks.Keys) > 0 {
			return fmt.Errorf("index %s: record %d has no entry", ix.Spec.Name, r.ID)
		}
	}
	return nil
}

// rebuildIndex fills ix from its records, for a file whose entries do
// not match them: the records hold the data, and the index is theirs.
func rebuildIndex(ix *index.Index, records []*Record) {
	for _, r := range records {
		if ks, err := ix.Keys(r.Doc); err == nil {
			ix.Add(ks, r.ID)
		}
	}
}

// streamReader reads the stream Encode writes, from memory.
type streamReader struct{ data []byte }

func (sr *streamReader) uint64() (uint64, error) {
	if len(sr.data) < 8 {
		return 0, io.ErrUnexpectedEOF
	}
	v := binary.LittleEndian.Uint64(sr.data)
	sr.data = sr.data[8:]
	return v, nil
}

// raw reads one BSON document's bytes.
func (sr *streamReader) raw() ([]byte, error) {
	if len(sr.data) < 4 {
		return nil, io.ErrUnexpectedEOF
	}
	n := int(binary.LittleEndian.Uint32(sr.data))
	if n < 5 || n > maxStoredDocument {
		return nil, fmt.Errorf("a document of %d bytes", n)
	}
	if n > len(sr.data) {
		return nil, io.ErrUnexpectedEOF
	}
	raw := sr.data[:n:n]
	sr.data = sr.data[n:]
	return raw, nil
}

func (sr *streamReader) doc() (bson.D, error) {
	raw, err := sr.raw()
	if err != nil {
		return nil, err
	}
	return value.Decode(raw)
}
