package planner

import "testing"

// A record comes out of a multikey scan or an OR once, whatever its id:
// the first in a page, across pages, and beyond the pages' reach.
func TestRidSetAdmitsEachRecordOnce(t *testing.T) {
	var s ridSet
	ids := []int64{1, 63, 64, 32767, 32768, 1 << 20, 1<<31 - 1, 1 << 31, 1 << 40, -5}
	for _, id := range ids {
		if !s.add(id) {
			t.Fatalf("record %d was refused the first time", id)
		}
	}
	for _, id := range ids {
		if s.add(id) {
			t.Fatalf("record %d came out twice", id)
		}
	}
	for _, id := range []int64{2, 65, 32769, 1<<20 + 1, 1<<40 + 1} {
		if !s.add(id) {
			t.Fatalf("record %d, never added, was taken for a duplicate", id)
		}
	}
}
