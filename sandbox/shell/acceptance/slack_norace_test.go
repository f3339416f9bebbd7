//go:build !race

package acceptance

const timeSlack = 1
