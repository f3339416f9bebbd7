package classroom

// Quotas bound what one student may hold on the room's server, and the
// memory of their scripts. The server enforces the first three for the
// student's login (Logins): a write past the storage quota fails with
// Atlas's over-quota error, a cursor or a connection past its cap is
// refused, and one student's count never touches another's.
type Quotas struct {
	// Storage is the data plus index size of the student's databases, in
	// bytes, as dbStats counts it.
	Storage int64
	// Cursors and Connections are the most the student may have open.
	Cursors, Connections int
	// ScriptHeap is the memory the student's scripts may take in a
	// session, in bytes (the shell's heap limit).
	ScriptHeap int64
}

// DefaultQuotas fit every built-in lesson with room to spare: the bucket
// lesson, the largest, holds about 40 MB of a student's storage, and a
// session opens a few cursors and connections per lesson.
var DefaultQuotas = Quotas{Storage: 512 << 20, Cursors: 100, Connections: 32, ScriptHeap: 512 << 20}

func (q Quotas) withDefaults() Quotas {
	d := DefaultQuotas
	if q.Storage == 0 {
		q.Storage = d.Storage
	}
	if q.Cursors == 0 {
		q.Cursors = d.Cursors
	}
	if q.Connections == 0 {
		q.Connections = d.Connections
	}
	if q.ScriptHeap == 0 {
		q.ScriptHeap = d.ScriptHeap
	}
	return q
}

// Logins make and remove the server's login of each student's process,
// and say what it uses.
type Logins struct {
	// Add makes the login name with password, confined to prefix within
	// the quotas.
	Add func(name, password, prefix string, q Quotas) error
	// Remove removes it and closes its connections.
	Remove func(name string)
	// Usage is what it uses now.
	Usage func(name string) Usage
}

// Usage is what a student's login uses on the server.
type Usage struct {
	Storage              int64
	Cursors, Connections int
}

// studentUsage is a student's usage as the dashboard shows it: on the
// server, and their process's resident memory; ok is false for a
// student without a process.
func (s *Server) studentUsage(name string) (u Usage, memory int64, ok bool) {
	s.mu.Lock()
	ls := s.live[name]
	s.mu.Unlock()
	if ls == nil {
		return Usage{}, 0, false
	}
	ls.mu.Lock()
	p := ls.proc
	ls.mu.Unlock()
	if p == nil {
		return Usage{}, 0, false
	}
	if s.cfg.Logins != nil {
		u = s.cfg.Logins.Usage(name)
	}
	return u, residentBytes(p.child.cmd.Process.Pid), true
}
