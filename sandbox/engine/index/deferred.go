package index

import (
	"go.mongodb.org/mongo-driver/v2/bson"
	"maps"

	"slices"
	"sync"
	"sync/atomic"
)

// Deferred returns an empty copy of ix (same spec and partial filter)
// whose entries are filled on first use. A lesson's state read from the
// cache holds every collection of the lesson, and the step a learner opens
// queries one or two of them: filling the indexes of all of them was most
// of the time a cached lesson took to open. fill puts the entries into an
// empty index no one else sees; if it fails (entries that do not match
// their records), the index is built from its documents by rebuild
// instead, so that a bad file costs time, never a wrong answer. They run
// once, for the copy (Clone) first used, and every other copy clones the
// result.
func (ix *Index) Deferred(fill func(*Index) error, rebuild func(*Index)) *Index {
	d := New(ix.Spec, ix.partial)
	d.pending = &pendingFill{shared: &sharedFill{spec: ix.Spec, partial: ix.partial, fill: fill, rebuild: rebuild}}
	return d
}

// sharedFill is the one filling of a Deferred index and its clones.
type sharedFill struct {
	spec    Spec
	partial func(bson.D) bool
	fill    func(*Index) error
	rebuild func(*Index)

	once   sync.Once
	filled *Index
	// mu serialises the clones of filled, because google/btree's Clone
	// writes to the tree it clones.
	mu sync.Mutex
}

// pendingFill is one copy's wait for the shared filling.
type pendingFill struct {
	shared *sharedFill
	once   sync.Once
	done   atomic.Bool
}

// ready fills ix from the shared filling if it has not been yet. Every
// method that reads or writes the entries or the multikey paths calls it
// first.
func (ix *Index) ready() {
	p := ix.pending
	if p == nil || p.done.Load() {
		return
	}
	p.once.Do(func() {
		s := p.shared
		s.once.Do(func() {
			filled := New(s.spec, s.partial)
			if s.fill(filled) != nil {
				filled = New(s.spec, s.partial)
				s.rebuild(filled)
			}
			// The functions hold the file's bytes and its records.
			s.filled, s.fill, s.rebuild = filled, nil, nil
		})
		s.mu.Lock()
		ix.tree = s.filled.tree.Clone()
		s.mu.Unlock()
		ix.arrays = slices.Clone(s.filled.arrays)
		if s.filled.multikeyPaths != nil {
			ix.multikeyPaths = maps.Clone(s.filled.multikeyPaths)
		}
		p.done.Store(true)
	})
}
