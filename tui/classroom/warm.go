package classroom

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// A student's process takes a few hundred milliseconds to start (the
// program, then the course's lessons parsed), which a student would wait
// for between their login and their first frame. So the room keeps a
// few started ahead, warm: each has loaded the course and waits, with no
// terminal, for the room to hand it one. At a login the room takes a
// warm process, passes it the session's pty over the control channel
// (SCM_RIGHTS), and starts another for the next login.

// warmProcesses is how many students' processes the room keeps started
// ahead; each costs the memory of an idle one (about 40 MB).
const warmProcesses = 2

// child is a started student's process, before and after it has a
// student.
type child struct {
	cmd    *exec.Cmd
	conn   *net.UnixConn
	stderr *boundedBuffer
	// exited is closed when the process has ended (its state in cmd).
	exited chan struct{}
}

// warmPool keeps processes started ahead.
type warmPool struct {
	s     *Server
	ready chan *child
	// refills are the starts under way, which close waits for: a
	// stopped room leaves no process of its own behind.
	refills sync.WaitGroup

	mu     sync.Mutex
	closed bool
}

func newWarmPool(s *Server) *warmPool {
	w := &warmPool{s: s, ready: make(chan *child, warmProcesses)}
	for range warmProcesses {
		w.startRefill()
	}
	return w
}

// startRefill starts one process for the pool in the background, unless
// the pool is closed.
func (w *warmPool) startRefill() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.refills.Go(w.refill)
	}
}

// take returns a warm process, or starts one if none is ready.
func (w *warmPool) take() (*child, error) {
	for {
		select {
		case c := <-w.ready:
			w.startRefill()
			select {
			case <-c.exited:
				continue // died while it waited: take another
			default:
				return c, nil
			}
		default:
			return w.s.startChild()
		}
	}
}

// refill starts one process for the pool.
func (w *warmPool) refill() {
	c, err := w.s.startChild()
	if err != nil {
		w.s.log.Printf("a student's process could not start ahead: %v", err)
		return
	}
	// close drains the pool after every refill has returned, so a
	// process put in now is stopped there.
	select {
	case w.ready <- c:
	default:
		c.stop()
	}
}

// close stops the processes waiting in the pool and those being started,
// and returns when they have ended.
func (w *warmPool) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.refills.Wait()
	for {
		select {
		case c := <-w.ready:
			c.stop()
		default:
			return
		}
	}
}

// startChild starts a student's process, without a terminal yet, under
// the room's limits.
func (s *Server) startChild() (*child, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		return nil, err
	}
	unix.CloseOnExec(fds[0])
	unix.CloseOnExec(fds[1])
	roomEnd, childEnd := os.NewFile(uintptr(fds[0]), "control"), os.NewFile(uintptr(fds[1]), "control")
	fc, err := net.FileConn(roomEnd)
	roomEnd.Close()
	if err != nil {
		childEnd.Close()
		return nil, err
	}
	conn := fc.(*net.UnixConn)
	cmd := s.cfg.Student()
	if cmd.Env == nil {
		// Nothing of the room's environment (a connection string with
		// credentials, say) is the student's to see.
		cmd.Env = []string{}
	}
	c := &child{cmd: cmd, conn: conn, stderr: &boundedBuffer{max: 64 << 10}, exited: make(chan struct{})}
	cmd.Stderr = c.stderr
	cmd.ExtraFiles = []*os.File{childEnd}
	// A session of its own, whose controlling terminal the session's
	// pty becomes when the room hands it over: the process then gets the
	// window's resizes, and a hangup when the student's connection goes.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	setDeathSignal(cmd.SysProcAttr)
	err = cmd.Start()
	childEnd.Close()
	if err != nil {
		conn.Close()
		return nil, err
	}
	if err := setLimits(cmd.Process.Pid, s.cfg.Limits); err != nil {
		s.log.Printf("limits on a student's process: %v", err)
	}
	go func() {
		_ = cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

func (c *child) kill() {
	_ = c.cmd.Process.Kill()
	c.conn.Close()
}

// stop kills the process and waits until it has ended.
func (c *child) stop() {
	c.kill()
	<-c.exited
}

// handTerminal passes the session's pty to the process: a one-byte
// message carrying the descriptor, before any other.
func (c *child) handTerminal(tty *os.File) error {
	raw, err := tty.SyscallConn()
	if err != nil {
		return err
	}
	var werr error
	err = raw.Control(func(fd uintptr) {
		_, _, werr = c.conn.WriteMsgUnix([]byte{'T'}, unix.UnixRights(int(fd)), nil)
	})
	return errors.Join(err, werr)
}

// receiveTerminal is the student's side of handTerminal: it waits for
// the pty, makes it this process's controlling terminal, and its
// standard input and output.
func receiveTerminal(conn *net.UnixConn) error {
	buf, oob := make([]byte, 1), make([]byte, unix.CmsgSpace(4))
	n, oobn, _, _, err := conn.ReadMsgUnix(buf, oob)
	if err != nil {
		return err
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || n != 1 || buf[0] != 'T' || len(msgs) != 1 {
		return fmt.Errorf("the room sent no terminal (%v)", err)
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		return fmt.Errorf("the room sent no terminal (%v)", err)
	}
	tty := fds[0]
	defer unix.Close(tty)
	if err := unix.IoctlSetInt(tty, unix.TIOCSCTTY, 0); err != nil {
		return fmt.Errorf("take the terminal: %w", err)
	}
	for _, std := range []int{0, 1} {
		if err := dupTo(tty, std); err != nil {
			return fmt.Errorf("take the terminal: %w", err)
		}
	}
	return nil
}
