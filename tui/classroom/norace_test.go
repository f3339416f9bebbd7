//go:build !race

package classroom

var testLimits = DefaultLimits
