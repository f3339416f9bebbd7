package main

import (
	"strconv"
	"strings"
	"testing"
)

// error_codes.yml spreads some entries over several lines and keeps removed
// codes as comments; both must be read the way mongod's own generator does.
func TestParseReadsMultiLineEntriesAndSkipsComments(t *testing.T) {
	var yml strings.Builder
	yml.WriteString("error_codes:\n  - {code: 0, name: OK}\n  - {code: 3, name: OBSOLETE_DuplicateKey}\n")
	yml.WriteString("  - {\n      code: 50,\n      name: MaxTimeMSExpired,\n      categories: [Interruption],\n    }\n")
	yml.WriteString("  # - {code: 254,name: FreeMonHttpTemporaryFailure} # Removed in 7.1\n")
	for i := 100; i < 200; i++ {
		yml.WriteString("  - {code: " + strconv.Itoa(i) + ", name: Code" + strconv.Itoa(i) + "}\n")
	}
	codes, err := parse([]byte(yml.String()))
	if err != nil {
		t.Fatal(err)
	}
	if codes[0] != (code{50, "MaxTimeMSExpired"}) {
		t.Errorf("first code %v, want MaxTimeMSExpired = 50", codes[0])
	}
	for _, c := range codes {
		if c.num == 254 || c.num == 3 || c.num == 0 {
			t.Errorf("code %v should have been skipped", c)
		}
	}
	if len(codes) != 101 {
		t.Errorf("%d codes, want 101", len(codes))
	}
	if _, err := parse([]byte("  - {code: 5, name: A}\n  - {code: 5, name: B}\n")); err == nil {
		t.Error("a code named twice was accepted")
	}
}
