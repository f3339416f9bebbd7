//go:build !unix

package sandbox

import (
	"os"
	"os/exec"
)

func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}

// terminate kills: there is no SIGTERM to send.
func terminate(p *os.Process) { _ = p.Kill() }

func setMongodProcAttr(*exec.Cmd) {}

func commandLineMentions(int, string) bool { return false }

const hasDeathSignal = false
