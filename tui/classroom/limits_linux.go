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
	if err := set(unix.RLIMIT_CORE, 0, 0); err != nil {
		return err
	}
	return lowerPriority(pid)
}

// studentNice is the scheduling priority of a student's process. The
// room's server runs the work students share (a lesson's template, the
// room's run of a step) beside sixty students' processes, which draw
// their screens and run their own scripts: at equal priority the
// server's share of the processors is one in sixty, and a step everyone
// waits for crawls while their spinners turn.
const studentNice = 10

// lowerPriority gives every thread of process pid the nice value
// studentNice: Linux keeps it per thread, and a thread started later
// takes its starter's. The threads are listed twice, since the process
// may start one while the first pass runs.
func lowerPriority(pid int) error {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	for range 2 {
		tasks, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, t := range tasks {
			tid, err := strconv.Atoi(t.Name())
			if err != nil {
				continue
			}
			// A thread that has ended since the listing is no error.
			if err := unix.Setpriority(unix.PRIO_PROCESS, tid, studentNice); err != nil && err != unix.ESRCH {
				return err
			}
		}
	}
	return nil
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
