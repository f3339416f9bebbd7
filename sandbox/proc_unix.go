//go:build unix

package sandbox

import (
	"os"
	"syscall"
)

// processAlive reports whether pid exists; a process of another user
// counts as alive.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

// terminate asks a process to shut down cleanly; mongod handles SIGTERM
// like the shutdown command.
func terminate(p *os.Process) { _ = p.Signal(syscall.SIGTERM) }
