//go:build !linux

package classroom

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// setLimits sets nothing where prlimit is not available: the process's
// own limits (StudentSpec) and the room's watch of its memory still hold
// on Linux only.
func setLimits(int, Limits) error { return nil }

// residentBytes is unknown here.
func residentBytes(int) int64 { return 0 }

// setDeathSignal has no equivalent here.
func setDeathSignal(*syscall.SysProcAttr) {}

func dupTo(oldfd, newfd int) error { return unix.Dup2(oldfd, newfd) }

// pendingInput is unknown here: the drain waits its fixed moment only.
func pendingInput(int) (int, error) { return 0, nil }
