package classroom

import (
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// setLimits sets the hard (and soft) limits of a student's process from
// outside it, so that it cannot raise them. The processor time's hard
// limit is a few seconds past the soft one: the soft one sends SIGXCPU,
// on which the process says why it stops and exits; the hard one kills
// it if it does not.
func setLimits(pid int, lim Limits) error {
	set := func(resource int, soft, hard uint64) error {
		return unix.Prlimit(pid, resource, &unix.Rlimit{Cur: soft, Max: hard}, nil)
	}
	if lim.Memory > 0 {
		if err := set(unix.RLIMIT_DATA, uint64(lim.Memory), uint64(lim.Memory)); err != nil {
			return err
		}
	}
	if lim.CPU > 0 {
		secs := uint64(max(lim.CPU.Seconds(), 1))
		if err := set(unix.RLIMIT_CPU, secs, secs+5); err != nil {
			return err
		}
	}
	if lim.Files > 0 {
		if err := set(unix.RLIMIT_NOFILE, uint64(lim.Files), uint64(lim.Files)); err != nil {
			return err
		}
	}
	// No core files of a student's process, whose memory is theirs.
	return set(unix.RLIMIT_CORE, 0, 0)
}

// setDeathSignal has the kernel kill a student's process if the room's
// dies without closing it (the control channel's end stops it too, but
// only once it reads).
func setDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }

// residentBytes is process pid's resident memory (0 if it cannot be read).
func residentBytes(pid int) int64 {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(raw))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// dupTo makes newfd a copy of oldfd.
func dupTo(oldfd, newfd int) error { return unix.Dup3(oldfd, newfd, 0) }

// pendingInput is the number of bytes waiting to be read from fd.
func pendingInput(fd int) (int, error) { return unix.IoctlGetInt(fd, unix.TIOCINQ) }
