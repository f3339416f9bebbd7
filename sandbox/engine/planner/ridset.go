package planner

// ridSet is the set of record ids that a multikey index scan or an OR has
// returned, so that each record comes out once, as mongod's deduplication
// makes it. A collection's record ids count up from 1, so a bitmap in pages
// of 32,768 ids holds each in one bit, where a map spent tens of bytes and
// a hash per record (3 MB for one count over a 50,000-document subtree).
type ridSet struct {
	pages [][]uint64
	// far holds ids beyond the pages' reach: those of a collection that
	// has seen billions of inserts.
	far map[int64]struct{}
}

const (
	ridPageShift = 15
	ridPageWords = (1 << ridPageShift) / 64
	// ridMaxPages bounds the list of pages at 65,536 (ids below 2^31).
	ridMaxPages = 1 << 16
)

// add records rid and reports whether it was not there yet.
func (s *ridSet) add(rid int64) bool {
	p := rid >> ridPageShift
	if rid < 0 || p >= ridMaxPages {
		if _, dup := s.far[rid]; dup {
			return false
		}
		if s.far == nil {
			s.far = map[int64]struct{}{}
		}
		s.far[rid] = struct{}{}
		return true
	}
	if int(p) >= len(s.pages) {
		s.pages = append(s.pages, make([][]uint64, int(p)+1-len(s.pages))...)
	}
	page := s.pages[p]
	if page == nil {
		page = make([]uint64, ridPageWords)
		s.pages[p] = page
	}
	word, bit := (rid&(1<<ridPageShift-1))>>6, uint64(1)<<(rid&63)
	if page[word]&bit != 0 {
		return false
	}
	page[word] |= bit
	return true
}
