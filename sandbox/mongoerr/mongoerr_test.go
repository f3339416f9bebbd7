package mongoerr

import "testing"

// Clients see codeName in every error reply; mongosh prints it.
func TestCodeNameMatchesMongod(t *testing.T) {
	for code, want := range map[int32]string{
		2:     "BadValue",
		34:    "CannotBackfillArray",
		55:    "InvalidDBRef",
		121:   "DocumentValidationFailure",
		292:   "QueryExceededMemoryLimitNoDiskUseAllowed",
		11000: "DuplicateKey",
		40415: "IDLUnknownField",
		40201: "Location40201", // a location code: mongod names it by number
		3:     "Location3",     // OBSOLETE_DuplicateKey is never sent
	} {
		if got := CodeName(code); got != want {
			t.Errorf("CodeName(%d) = %q, want %q", code, got, want)
		}
	}
}
