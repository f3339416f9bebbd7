//go:build !linux

package classroom

// setLimits sets nothing where prlimit is not available: the process's
// own limits (StudentSpec) and the room's watch of its memory still hold
// on Linux only.
func setLimits(int, Limits) error { return nil }

// residentBytes is unknown here.
func residentBytes(int) int64 { return 0 }
