//go:build race

package acceptance

// The race detector makes allocation-heavy scripts several times slower
// (every write to a 64 MB string is checked), so time bounds stretch.
const timeSlack = 4
