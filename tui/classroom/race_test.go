//go:build race

package classroom

// The race detector maps terabytes of shadow memory, which RLIMIT_DATA
// counts: under it a student's process gets no memory limit.
var testLimits = Limits{Memory: 1 << 50}

const raceEnabled = true

// waitSlack stretches the tests' waits for a screen: under the race
// detector every process of the room, the students' too, runs three to
// five times slower, and CI runs other packages' tests beside these.
const waitSlack = 4
