package templatecache

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The cache stays within its limit: the entries used longest ago go
// first, whole (a template and its snapshots together), the entry just
// written stays even when it alone is over the limit, and files the
// cache did not write are left alone.
func TestPruneDropsTheLeastRecentlyUsedEntries(t *testing.T) {
	dir := t.TempDir()
	d := New(dir, 250)
	write := func(key string, age time.Duration, sizes ...int) {
		for i, size := range sizes {
			name := key + ".tpl"
			if i > 0 {
				name = key + "-s" + string(rune('0'+i)) + ".snap"
			}
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, make([]byte, size), 0o600); err != nil {
				t.Fatal(err)
			}
			when := time.Now().Add(-age)
			if err := os.Chtimes(path, when, when); err != nil {
				t.Fatal(err)
			}
		}
	}
	oldest, older, newest := strings.Repeat("a", 32), strings.Repeat("b", 32), strings.Repeat("c", 32)
	write(oldest, 3*time.Hour, 10, 90)
	write(older, 2*time.Hour, 10, 90)
	write(newest, time.Hour, 10, 90)
	if err := os.WriteFile(filepath.Join(dir, "readme.txt"), make([]byte, 1000), 0o600); err != nil {
		t.Fatal(err)
	}
	d.prune(oldest)
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	want := []string{oldest + "-s1.snap", oldest + ".tpl", newest + "-s1.snap", newest + ".tpl", "readme.txt"}
	if strings.Join(left, " ") != strings.Join(want, " ") {
		t.Fatalf("after pruning the cache holds\n%v\nwant\n%v", left, want)
	}
}

// Only names the cache writes belong to an entry.
func TestEntryKey(t *testing.T) {
	key := strings.Repeat("0f", 16)
	for name, want := range map[string]string{
		key + ".tpl": key, key + "-p3.snap": key, "readme.txt": "", key[:31] + ".tpl": "", key + ".tpl.tmp-1": key,
	} {
		if got := entryKey(name); got != want {
			t.Errorf("entryKey(%q) = %q, want %q", name, got, want)
		}
	}
}
