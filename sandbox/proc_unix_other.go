//go:build unix && !linux

package sandbox

import (
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// setMongodProcAttr puts mongod in its own process group, so the terminal's
// Ctrl+C reaches only us.
func setMongodProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// commandLineMentions reports whether process pid was started with dir in
// its arguments (ps shows them joined by spaces; the directory's random
// suffix makes a false match unlikely), proving an orphan mongod is one of
// ours before stopping it (pids are reused).
func commandLineMentions(pid int, dir string) bool {
	out, err := exec.Command("ps", "-p", strconv.Itoa(pid), "-o", "command=").Output()
	if err != nil {
		return false
	}
	for arg := range strings.FieldsSeq(string(out)) {
		if arg == dir {
			return true
		}
	}
	return false
}

// hasDeathSignal: without Pdeathsig a mongod outlives a crashed schemalab
// until the next start finds and stops it.
const hasDeathSignal = false
