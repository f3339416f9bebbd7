//go:build race

package classroom

// The race detector maps terabytes of shadow memory, which RLIMIT_DATA
// counts: under it a student's process gets no memory limit.
var testLimits = Limits{Memory: 1 << 50}

const raceEnabled = true
