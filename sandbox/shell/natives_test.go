package shell

import (
	"regexp"
	"sort"
	"testing"
)

// A prelude method that calls a native no table lists fails only when a
// script reaches it ("n.x is not a function"), and a native no prelude
// file calls is dead: both are caught here, and so is a name listed twice,
// which would silently replace the first.
func TestPreludeCallsExactlyTheNatives(t *testing.T) {
	listed := map[string]bool{}
	for _, table := range nativeTables() {
		for _, nv := range table {
			if listed[nv.name] {
				t.Errorf("native %q is listed twice", nv.name)
			}
			listed[nv.name] = true
		}
	}
	values := map[string]bool{"typeSymbol": true, "promiseSymbol": true}
	called := map[string]bool{}
	files, err := preludeFS.ReadDir("prelude")
	if err != nil {
		t.Fatal(err)
	}
	nativeRef := regexp.MustCompile(`\bn\.(\w+)`)
	for _, f := range files {
		src, err := preludeFS.ReadFile("prelude/" + f.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range nativeRef.FindAllStringSubmatch(string(src), -1) {
			called[m[1]] = true
			if !listed[m[1]] && !values[m[1]] {
				t.Errorf("%s calls n.%s, which no native table lists", f.Name(), m[1])
			}
		}
	}
	var unused []string
	for name := range listed {
		if !called[name] {
			unused = append(unused, name)
		}
	}
	sort.Strings(unused)
	if len(unused) > 0 {
		t.Errorf("natives no prelude file calls: %v", unused)
	}
}
