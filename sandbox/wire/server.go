// Package wire serves the embedded engine over the MongoDB wire protocol, so
// that the official drivers, mongosh and Compass connect to it exactly as to
// a mongod 8.0 standalone. It frames and decodes messages (OP_MSG, and the
// legacy OP_QUERY handshake) and hands every command to the engine, which
// answers them all.
package wire

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// Options configure Start.
type Options struct {
	// Port to listen on; 0 picks a free port.
	Port int
	// Bind is the address to listen on; empty means 127.0.0.1.
	Bind string
	// AllowNonLoopback must be set to bind anything but a loopback
	// address: without RequireAuth the server has no authentication.
	AllowNonLoopback bool
	// Engine executes the data commands; nil means a new empty engine.
	Engine *engine.Engine
	// CommandLog, when set, receives one line per command received
	// (connection id, database, command name). Useful to see what a client
	// such as mongosh sends.
	CommandLog io.Writer
	// ErrorLog receives the reasons connections were dropped, and is the
	// server log of the engine Start creates. nil discards them.
	ErrorLog io.Writer

	// RequireAuth makes every connection authenticate (SCRAM-SHA-256,
	// as a user of AddUser) before it runs anything but the handshake
	// and authentication commands mongod runs without authentication
	// (those whose requiresAuth() is false, engine.RequiresAuth: hello,
	// isMaster, ping, buildInfo, listCommands, connectionStatus,
	// authenticate, saslStart, saslContinue); anything else gets
	// mongod's Unauthorized (13)
	// "Command X requires authentication". It also bounds the
	// connections that have not authenticated (admission.go). Without
	// it, users may still authenticate, and unauthenticated clients may
	// do anything, as on a mongod without --auth.
	RequireAuth bool
	// Confine decides whether a user confined to prefix (Account.Prefix)
	// may run cmd, the command document as received ($db included): nil,
	// or the refusal, which the client gets as Unauthorized (13) with
	// its message. It is the sandbox guard's own check, passed in by
	// package sandbox, so that the client-side guard and the server
	// refuse exactly the same commands with the same words.
	Confine func(prefix string, cmd bson.D) error
	// MaxUnauthenticated, MaxUnauthenticatedPerAddress and AuthGraceTime
	// bound the connections that have not authenticated when
	// RequireAuth is set (admission.go); 0 means their Default.
	MaxUnauthenticated           int
	MaxUnauthenticatedPerAddress int
	AuthGraceTime                time.Duration

	// partialMessageTimeout overrides the default in tests.
	partialMessageTimeout time.Duration
}

// ErrNonLoopbackBind is returned by Start for a non-loopback Bind without
// AllowNonLoopback.
var ErrNonLoopbackBind = errors.New("refusing to listen on a non-loopback address without AllowNonLoopback: the sandbox has no authentication")

// How long a client may take to send the rest of a message once its first
// byte has arrived, and to read a reply. Idle connections have no limit.
const (
	partialMessageTimeout = 30 * time.Second
	writeTimeout          = 60 * time.Second
)

// Server is a running wire protocol server.
type Server struct {
	opts Options
	eng  *engine.Engine
	ln   net.Listener
	uri  string

	// ctx is every command's context: Close cancels it, with mongod's
	// InterruptedAtShutdown as the cause, which stops whatever commands
	// are running at their next interrupt check.
	ctx    context.Context
	cancel context.CancelCauseFunc

	mu           sync.Mutex
	conns        map[*clientConn]struct{}
	lastReplyID  atomic.Int32
	wg           sync.WaitGroup
	closeOnce    sync.Once
	closeErr     error
	errorLogMu   sync.Mutex
	commandLogMu sync.Mutex

	// authOn is set once authentication matters (RequireAuth, or a user
	// added): until then a command costs nothing more than without it.
	authOn  atomic.Bool
	usersMu sync.Mutex
	users   map[string]*user
	// admission bounds the unauthenticated connections (RequireAuth).
	admission *admission
	// refusedLogged rate-limits the log of refused connections.
	refusedLogged atomic.Int64
}

// clientConn is one client connection: its socket and what the engine
// knows of it.
type clientConn struct {
	nc   net.Conn
	conn *engine.Conn
	// state is its progress towards authentication (admission.go).
	state atomic.Int32
	// user is whom it authenticated as (nil: no one); sasl its
	// authentication in progress. Both change only on its own goroutine.
	user *user
	sasl *saslConversation
	// pending, host and graceTimer are its place among the
	// unauthenticated connections, guarded by admission.mu.
	pending    bool
	host       string
	graceTimer *time.Timer
	// watch, when set, delivers the end of a read of the next message's
	// first byte that an awaitable hello started (stream.go).
	watch chan error
}

// Start listens and serves in the background until ctx is done or Close is
// called.
func Start(ctx context.Context, opts Options) (*Server, error) {
	bind := opts.Bind
	if bind == "" {
		bind = "127.0.0.1"
	}
	if !opts.AllowNonLoopback && !isLoopback(bind) {
		return nil, fmt.Errorf("%w (bind %q)", ErrNonLoopbackBind, bind)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(bind, strconv.Itoa(opts.Port)))
	if err != nil {
		return nil, err
	}
	eng := opts.Engine
	if eng == nil {
		eng = engine.New(engine.Options{Log: opts.ErrorLog})
	}
	eng.Listening(ln.Addr().String())
	sctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	s := &Server{
		opts:      opts,
		eng:       eng,
		ln:        ln,
		ctx:       sctx,
		cancel:    cancel,
		conns:     make(map[*clientConn]struct{}),
		users:     map[string]*user{},
		admission: newAdmission(opts),
	}
	s.authOn.Store(opts.RequireAuth)
	addr := ln.Addr().(*net.TCPAddr)
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	s.uri = "mongodb://" + net.JoinHostPort(host, strconv.Itoa(addr.Port)) + "/"

	s.wg.Add(2)
	go s.acceptLoop()
	go func() {
		defer s.wg.Done()
		select {
		case <-ctx.Done():
			go s.Close()
		case <-sctx.Done():
		}
	}()
	return s, nil
}

func isLoopback(bind string) bool {
	if bind == "localhost" {
		return true
	}
	ip := net.ParseIP(bind)
	return ip != nil && ip.IsLoopback()
}

// URI is the connection string, "mongodb://127.0.0.1:PORT/".
func (s *Server) URI() string { return s.uri }

// Close stops listening, interrupts every running command (which fails
// with InterruptedAtShutdown at its next check, within microseconds),
// closes every connection and waits for all connection goroutines to
// finish. It is safe to call more than once.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.cancel(mongoerr.New(mongoerr.InterruptedAtShutdown, "interrupted at shutdown"))
		s.closeErr = s.ln.Close()
		s.mu.Lock()
		for c := range s.conns {
			c.nc.Close()
		}
		s.mu.Unlock()
		s.wg.Wait()
	})
	return s.closeErr
}

func (s *Server) acceptLoop() {
	defer s.wg.Done()
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			if s.ctx.Err() != nil {
				return
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			if errors.Is(err, net.ErrClosed) {
				return
			}
			s.logError("accept: %v", err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		s.mu.Lock()
		if s.ctx.Err() != nil {
			s.mu.Unlock()
			nc.Close()
			return
		}
		c := &clientConn{nc: nc}
		if !s.admission.admit(c) {
			s.mu.Unlock()
			nc.Close()
			s.logRefused(nc.RemoteAddr())
			continue
		}
		c.conn = s.eng.OpenConnection(nc.RemoteAddr().String(), s.ln.Addr().String())
		s.conns[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go s.serveConn(c)
	}
}

func (s *Server) serveConn(c *clientConn) {
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		c.nc.Close()
		s.admission.closed(c)
		s.unbind(c)
		s.eng.ConnectionClosed(c.conn)
	}()
	br := bufio.NewReaderSize(c.nc, 32<<10)
	var buf, out []byte
	for {
		if c.watch != nil {
			// An awaitable hello is still reading ahead (stream.go).
			err := <-c.watch
			c.watch = nil
			if err != nil {
				return
			}
		}
		msg, err := readMessage(c.nc, br, buf[:0], s.partialTimeout())
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) && s.ctx.Err() == nil {
				s.logError("conn%d: %v; closing connection", c.conn.ID, err)
			}
			return
		}
		if cap(msg) <= 1<<20 {
			buf = msg // keep small buffers for the next message
		}
		req, err := decodeMessage(msg)
		if err != nil {
			s.logError("conn%d: %v; closing connection", c.conn.ID, err)
			return
		}
		c.state.CompareAndSwap(stateSilent, stateSpoke)
		if req.awaitableHello() {
			if !s.serveAwaitableHello(c, br, req) {
				return
			}
			continue
		}
		out = s.handle(c, req, out[:0])
		if len(out) == 0 {
			continue
		}
		c.nc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if _, err := c.nc.Write(out); err != nil {
			return
		}
		if cap(out) > 1<<20 {
			out = nil
		}
	}
}

// readMessage reads one framed message into buf. An idle connection may wait
// forever for the first byte; once a message has started, the rest must
// arrive within partialMessageTimeout so a half-sent message cannot pin a
// goroutine.
func readMessage(nc net.Conn, br *bufio.Reader, buf []byte, partialTimeout time.Duration) ([]byte, error) {
	nc.SetReadDeadline(time.Time{})
	if _, err := br.Peek(1); err != nil {
		return nil, err
	}
	nc.SetReadDeadline(time.Now().Add(partialTimeout))
	var lenBuf [4]byte
	if _, err := io.ReadFull(br, lenBuf[:]); err != nil {
		return nil, fmt.Errorf("reading message length: %w", err)
	}
	length := int32(binary.LittleEndian.Uint32(lenBuf[:]))
	if length < headerSize || length > vocab.MaxMessageSize {
		return nil, fmt.Errorf("recv(): message msgLen %d is invalid. Min %d Max: %d", length, headerSize, vocab.MaxMessageSize)
	}
	if cap(buf) < int(length) {
		buf = make([]byte, length)
	}
	buf = buf[:length]
	copy(buf, lenBuf[:])
	if _, err := io.ReadFull(br, buf[4:]); err != nil {
		return nil, fmt.Errorf("reading message body: %w", err)
	}
	return buf, nil
}

func (s *Server) partialTimeout() time.Duration {
	if s.opts.partialMessageTimeout > 0 {
		return s.opts.partialMessageTimeout
	}
	return partialMessageTimeout
}

// handle runs one request and appends the reply message to out (nothing
// when no reply is due).
func (s *Server) handle(c *clientConn, req *request, out []byte) []byte {
	h := req.header
	replyID := s.lastReplyID.Add(1)
	switch h.opCode {
	case opMsg:
		reply := req.replyErr
		if reply == nil {
			reply = s.dispatch(c, req.cmd, req.sequences...)
		}
		if req.moreToCome() {
			return out
		}
		return appendOpMsg(out, replyID, h.requestID, encodeReplyDoc(reply), req.checksummed(), false)
	case opQuery:
		flags, doc := s.opQueryReply(c, req)
		return appendOpReply(out, replyID, h.requestID, flags, doc)
	case opGetMore:
		return appendOpReply(out, replyID, h.requestID, replyFlagErrSet, encodeReplyDoc(req.replyErr))
	}
	return out
}

// opQueryReply answers a legacy OP_QUERY. mongod 8.0 keeps it only for the
// connection handshake (and a few deprecated commands).
func (s *Server) opQueryReply(c *clientConn, req *request) (int32, []byte) {
	ns := req.fullCollectionName
	db, isCmd := cutSuffix(ns, ".$cmd")
	if !isCmd {
		return replyFlagErrSet, encodeReplyDoc(legacyOpcodeError("OP_QUERY is no longer supported"))
	}
	if req.replyErr != nil {
		return 0, encodeReplyDoc(req.replyErr)
	}
	cmd := req.cmd
	if len(cmd) == 0 {
		return 0, encodeReplyDoc(wireError(mongoerr.UnsupportedOpQueryCommand, unsupportedOpQuery("")))
	}
	switch cmd[0].Key {
	case "hello", "isMaster", "ismaster", "_isSelf", "authenticate", "buildinfo", "buildInfo", "saslContinue", "saslStart":
	default:
		return 0, encodeReplyDoc(wireError(mongoerr.UnsupportedOpQueryCommand, unsupportedOpQuery(cmd[0].Key)))
	}
	full := make(bson.D, 0, len(cmd)+1)
	for _, e := range cmd {
		if e.Key != "$db" {
			full = append(full, e)
		}
	}
	full = append(full, bson.E{Key: "$db", Value: db})
	return 0, encodeReplyDoc(s.dispatch(c, full))
}

func unsupportedOpQuery(cmd string) string {
	return "Unsupported OP_QUERY command: " + cmd + ". The client driver may require an upgrade. For more details see https://dochub.mongodb.org/core/legacy-opcode-removal"
}

func cutSuffix(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}

func (s *Server) logError(format string, args ...any) {
	if s.opts.ErrorLog == nil {
		return
	}
	s.errorLogMu.Lock()
	defer s.errorLogMu.Unlock()
	fmt.Fprintf(s.opts.ErrorLog, "schemalab wire: "+format+"\n", args...)
}

// logRefused logs a connection refused by the admission limits, at most
// once a second: a flood must not flood the log too.
func (s *Server) logRefused(addr net.Addr) {
	now := time.Now().UnixNano()
	last := s.refusedLogged.Load()
	if now-last < int64(time.Second) || !s.refusedLogged.CompareAndSwap(last, now) {
		return
	}
	s.logError("refusing a connection from %v: too many connections have not authenticated", addr)
}

func (s *Server) logCommand(c *clientConn, db string, cmd bson.D) {
	if s.opts.CommandLog == nil {
		return
	}
	s.commandLogMu.Lock()
	defer s.commandLogMu.Unlock()
	text := cmd.String()
	if !isMissing(value.Get(cmd, "payload")) || !isMissing(value.Get(cmd, "speculativeAuthenticate")) {
		// As mongod redacts them: SASL payloads are secrets.
		text = "(authentication payload not shown)"
	}
	if len(text) > 500 {
		text = text[:500] + "…"
	}
	fmt.Fprintf(s.opts.CommandLog, "conn%d %s.%s %s\n", c.conn.ID, db, cmd[0].Key, text)
}
