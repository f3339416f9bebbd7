//go:build linux

package sandbox

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// setMongodProcAttr puts mongod in its own process group, so the terminal's
// Ctrl+C reaches only us, and has the kernel send it SIGTERM if we die
// without stopping it.
func setMongodProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}

// commandLineMentions reports whether process pid was started with dir in
// its arguments, proving an orphan mongod is one of ours before stopping
// it (pids are reused).
func commandLineMentions(pid int, dir string) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return false
	}
	for arg := range bytes.SplitSeq(data, []byte{0}) {
		if string(arg) == dir {
			return true
		}
	}
	return false
}

// hasDeathSignal: a mongod dies with a crashed schemalab.
const hasDeathSignal = true
