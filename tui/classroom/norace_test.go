//go:build !race

package classroom

var testLimits = DefaultLimits

const raceEnabled = false

const waitSlack = 1
