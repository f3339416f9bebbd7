package wire

import (
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/xdg-go/scram"
	"github.com/xdg-go/stringprep"
)

// Account is what one login may do on the server.
type Account struct {
	// Prefix confines the login to the databases named <Prefix>*, with
	// the same decision and the same refusals as the client-side guard
	// (Options.Confine). "" leaves it unconfined: the room's own login.
	Prefix string
	// MaxStorageBytes bounds the data size plus index size of its
	// databases, as dbStats reports them; a write past it fails with
	// Atlas's over-quota error (code 8000). 0 means no quota. It needs a
	// Prefix.
	MaxStorageBytes int64
	// MaxCursors caps its open cursors, counted apart from every other
	// login's; 0 means the engine's MaxOpenCursors.
	MaxCursors int
	// MaxConnections caps its authenticated connections; 0 means no
	// limit. A login past it fails.
	MaxConnections int
}

// Usage is what one login is using now, for an instructor's dashboard.
type Usage struct {
	// StorageBytes is the data size plus index size of its databases
	// (of every database for an unconfined login), as dbStats reports.
	StorageBytes int64
	OpenCursors  int
	Connections  int
}

// user is one login of the server: its account and the SCRAM-SHA-256
// credentials made from its password, as mongod stores them.
type user struct {
	name    string
	account Account
	creds   scram.StoredCredentials
	// conns are its authenticated connections, guarded by Server.usersMu.
	conns map[*clientConn]struct{}
	// removed is set by RemoveUser: its connections run nothing more,
	// even before they notice they are closed.
	removed atomic.Bool
}

// SCRAM-SHA-256 parameters of the credentials AddUser makes: mongod's
// scramSHA256IterationCount default, and its salt of the hash length
// less four bytes.
const (
	scramIterations = 15000
	scramSaltLength = 28
)

// authDB is the database every user of this server belongs to, the
// authSource clients name.
const authDB = "admin"

// AddUser adds a login name with password, which clients authenticate as
// with SCRAM-SHA-256 against the admin database
// (mongodb://NAME:PASSWORD@HOST/?authSource=admin), and what it may do. A
// user with a Prefix needs Options.Confine, and its prefix may not
// overlap another user's (one a prefix of the other).
func (s *Server) AddUser(name, password string, a Account) error {
	if name == "" {
		return errors.New("wire: a user needs a name")
	}
	prepped, err := stringprep.SASLprep.Prepare(name)
	if err != nil || prepped != name {
		return fmt.Errorf("wire: user name %q cannot be used with SCRAM-SHA-256 as it is (SASLprep)", name)
	}
	if a.MaxStorageBytes < 0 || a.MaxCursors < 0 || a.MaxConnections < 0 {
		return errors.New("wire: account limits cannot be negative")
	}
	if a.Prefix != "" && s.opts.Confine == nil {
		return errors.New("wire: confining a user to a prefix needs Options.Confine")
	}
	if a.Prefix == "" && a.MaxStorageBytes > 0 {
		return errors.New("wire: a storage quota needs a prefix")
	}
	client, err := scram.SHA256.NewClient(name, password, "")
	if err != nil {
		return fmt.Errorf("wire: password of %s: %w", name, err)
	}
	salt := make([]byte, scramSaltLength)
	_, _ = rand.Read(salt)
	creds, err := client.GetStoredCredentialsWithError(scram.KeyFactors{Salt: string(salt), Iters: scramIterations})
	if err != nil {
		return err
	}

	s.usersMu.Lock()
	defer s.usersMu.Unlock()
	if _, exists := s.users[name]; exists {
		return fmt.Errorf("wire: user %s already exists", name)
	}
	if a.Prefix != "" {
		for _, other := range s.users {
			p := other.account.Prefix
			if p != "" && (strings.HasPrefix(p, a.Prefix) || strings.HasPrefix(a.Prefix, p)) {
				return fmt.Errorf("wire: prefix %q of %s overlaps prefix %q of %s", a.Prefix, name, p, other.name)
			}
		}
	}
	s.users[name] = &user{name: name, account: a, creds: creds, conns: map[*clientConn]struct{}{}}
	if a.MaxStorageBytes > 0 {
		s.eng.SetStorageQuota(a.Prefix, a.MaxStorageBytes)
	}
	s.authOn.Store(true)
	return nil
}

// RemoveUser removes a login and closes its connections (their cursors
// die with them). Its databases stay, without a quota.
func (s *Server) RemoveUser(name string) {
	s.usersMu.Lock()
	u := s.users[name]
	delete(s.users, name)
	var conns []*clientConn
	if u != nil {
		u.removed.Store(true)
		for c := range u.conns {
			conns = append(conns, c)
		}
	}
	s.usersMu.Unlock()
	if u == nil {
		return
	}
	if u.account.MaxStorageBytes > 0 {
		s.eng.SetStorageQuota(u.account.Prefix, 0)
	}
	for _, c := range conns {
		c.nc.Close()
	}
}

// Usage is what user name is using now; the zero Usage for an unknown
// name.
func (s *Server) Usage(name string) Usage {
	s.usersMu.Lock()
	u := s.users[name]
	var out Usage
	if u != nil {
		out.Connections = len(u.conns)
	}
	s.usersMu.Unlock()
	if u == nil {
		return Usage{}
	}
	out.OpenCursors = s.eng.OpenCursors(name)
	out.StorageBytes = s.eng.StorageUsed(u.account.Prefix)
	return out
}

// lookupUser finds the user a client names in db ("admin.alice" in
// saslSupportedMechs, the SCRAM user name with the saslStart's $db).
func (s *Server) lookupUser(db, name string) *user {
	if db != authDB {
		return nil
	}
	s.usersMu.Lock()
	defer s.usersMu.Unlock()
	return s.users[name]
}

// errTooManyConnections is a login refused by Account.MaxConnections.
type errTooManyConnections struct {
	user string
	max  int
}

func (e errTooManyConnections) Error() string {
	return fmt.Sprintf("user %s already has %d authenticated connections open, the most it may have on this server; close a client (or a shell) first", e.user, e.max)
}

// bind makes c a connection of u, within u's connection limit. A
// connection authenticates once: a later login as another user fails.
func (s *Server) bind(c *clientConn, u *user) error {
	s.usersMu.Lock()
	defer s.usersMu.Unlock()
	if s.users[u.name] != u {
		return errAuthFailed // removed while it logged in
	}
	if c.user != nil {
		if c.user == u {
			return nil
		}
		return errAuthFailed
	}
	if m := u.account.MaxConnections; m > 0 && len(u.conns) >= m {
		return errTooManyConnections{user: u.name, max: m}
	}
	u.conns[c] = struct{}{}
	c.user = u
	c.conn.Authenticated(u.name, u.account.Prefix, u.account.MaxCursors)
	return nil
}

// unbind forgets a closed connection's user.
func (s *Server) unbind(c *clientConn) {
	if c.user == nil {
		return
	}
	s.usersMu.Lock()
	delete(c.user.conns, c)
	s.usersMu.Unlock()
}
