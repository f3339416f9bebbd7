// Package sandbox owns the database a learner works in: which backend
// serves it (the embedded server, a mongod it starts, or a real MongoDB
// given by a URI), how the app connects to it through the official driver,
// the lifecycle of both, and the rules that keep a shared server's other
// databases out of reach.
package sandbox

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/vocab"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// The backend kinds, as --sandbox spells them.
const (
	KindEmbedded = "embedded"
	KindMongod   = "mongod"
	KindURI      = "uri"
)

// Config chooses and configures a backend; the CLI and the TUI fill it from
// the global flags.
type Config struct {
	// URI is --uri / MONGODB_URI.
	URI string
	// Kind is --sandbox: "embedded", "mongod" or "uri". Empty means "uri"
	// when URI is set and "embedded" otherwise. An explicit "embedded" or
	// "mongod" wins over a URI (MONGODB_URI may be set for other tools).
	Kind string
	// MongodPath is --mongod; empty means "mongod" on PATH.
	MongodPath string
	// DBPrefix is --db-prefix; empty means vocab.DefaultPrefix.
	DBPrefix string
	// UnsafeAnyDB is --unsafe-any-db: the backend's own clients are not
	// confined to the prefix on a real server.
	UnsafeAnyDB bool
	// ScriptHeap is --script-heap in bytes: the memory one script run
	// against this backend may take (shell.Options.HeapLimit); 0 means
	// the shell's default.
	ScriptHeap int64
	// Accounts makes the embedded server require a login of every
	// connection and confine each login to its account's prefix
	// (AddUser), as a classroom's does; the backend's own clients log in
	// as an unconfined login of their own.
	Accounts bool
	// SnapshotDir is where the embedded server keeps the snapshot files
	// of the lesson template cache (engine.Options.SnapshotDir); empty,
	// it keeps none. Only a learner's own course sets it.
	SnapshotDir string
}

// Backend is a connected sandbox. Client is the official driver's client;
// every database access of the app goes through it or through a client
// from NewClient. On a real server without --unsafe-any-db it is confined
// to the prefix by the guard (guard.go).
type Backend struct {
	Client *mongo.Client
	// Kind is KindEmbedded, KindMongod or KindURI.
	Kind string
	// Host is what may be shown to the user: host:port of the server
	// without credentials, or "embedded sandbox".
	Host string
	// Version is the server's version from buildInfo, e.g. "8.0.4" ("" if
	// the server would not say).
	Version string
	// Topology is "standalone", "replica set rs0" or "sharded cluster",
	// from hello ("" if the server would not say).
	Topology string

	prefix      string
	unsafeAnyDB bool
	scriptHeap  int64
	// confined is set on a backend made by ForPrefix: every client it
	// makes is confined to its prefix, whatever the server and
	// --unsafe-any-db say.
	confined bool
	// uri connects further clients (NewClient); it may hold credentials
	// and is never shown.
	uri string
	// login, when set, logs every client of the backend in.
	login *options.Credential

	server *wire.Server
	cancel context.CancelFunc
	mongod *mongodProcess

	closeOnce sync.Once
	closeErr  error

	// owned holds the databases this process created or verified as
	// schemalab's, so that their marker is checked once, before the first
	// drop: the learner may drop and refill them in between.
	mu    sync.Mutex
	owned map[string]bool
}

// firstContactTimeout bounds how long the first contact with a real server
// may take before the user gets a clear error, unless the URI sets
// serverSelectionTimeoutMS. It bounds that first ping only: once the
// server has answered, a busy or distant one is waited for as the driver
// and mongosh wait (30 s), rather than failing a learner's step.
const firstContactTimeout = 5 * time.Second

// Open starts or connects the backend cfg asks for.
func Open(ctx context.Context, cfg Config) (*Backend, error) {
	prefix := cfg.DBPrefix
	if prefix == "" {
		prefix = vocab.DefaultPrefix
	}
	if err := ValidatePrefix(prefix); err != nil {
		return nil, err
	}
	kind := cfg.Kind
	if kind == "" {
		kind = KindEmbedded
		if cfg.URI != "" {
			kind = KindURI
		}
	}
	b := &Backend{prefix: prefix, unsafeAnyDB: cfg.UnsafeAnyDB, scriptHeap: cfg.ScriptHeap}
	var err error
	switch kind {
	case KindEmbedded:
		err = startEmbedded(ctx, b, cfg.Accounts, cfg.SnapshotDir)
	case KindMongod:
		err = startMongodBackend(ctx, b, cfg.MongodPath)
	case KindURI:
		if cfg.URI == "" {
			return nil, errors.New("--sandbox uri needs a connection string: pass --uri or set MONGODB_URI")
		}
		err = connectURI(ctx, b, cfg.URI)
	default:
		return nil, fmt.Errorf("--sandbox must be embedded, mongod or uri, not %q", kind)
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

func startEmbedded(ctx context.Context, b *Backend, accounts bool, snapshotDir string) error {
	sctx, cancel := context.WithCancel(context.Background())
	opts := wire.Options{Engine: engine.New(engine.Options{SnapshotDir: snapshotDir})}
	if accounts {
		opts.RequireAuth, opts.Confine = true, ConfineCommand
	}
	srv, err := wire.Start(sctx, opts)
	if err != nil {
		cancel()
		return fmt.Errorf("start the embedded sandbox: %w", err)
	}
	if accounts {
		if b.login, err = ownLogin(srv); err != nil {
			_ = srv.Close()
			cancel()
			return fmt.Errorf("start the embedded sandbox: %w", err)
		}
	}
	b.Kind, b.Host, b.uri, b.server, b.cancel = KindEmbedded, "embedded sandbox", srv.URI(), srv, cancel
	client, err := newClient(b.uri, b.clientSettings())
	if err == nil {
		if err = client.Ping(ctx, nil); err != nil {
			_ = client.Disconnect(context.Background())
		}
	}
	if err != nil {
		_ = srv.Close()
		cancel()
		return fmt.Errorf("connect to the embedded sandbox: %w", err)
	}
	b.Client = client
	b.describe(ctx)
	return nil
}

func connectURI(ctx context.Context, b *Backend, uri string) error {
	host := RedactURI(uri)
	b.Kind, b.Host, b.uri = KindURI, host, uri
	client, err := newClient(uri, b.clientSettings())
	if err != nil {
		return fmt.Errorf("could not use the connection string for %s: %v\nhint: check the URI (mongodb://host:27017/ or mongodb+srv://cluster.example.net/)",
			host, redactErr(err, uri))
	}
	within := firstContactTimeout
	if t := options.Client().ApplyURI(uri).ServerSelectionTimeout; t != nil {
		within = *t
	}
	pingCtx, cancel := context.WithTimeout(ctx, within)
	err = client.Ping(pingCtx, nil)
	cancel()
	if err != nil {
		_ = client.Disconnect(context.Background())
		return fmt.Errorf("could not reach MongoDB at %s within %s: %s\nhint: %s",
			host, within, redactText(selectionCause(err), uri), connectHint(err, host))
	}
	b.Client = client
	b.describe(ctx)
	return nil
}

// selectionCause shortens the driver's server selection error, which
// dumps the whole topology, to the last error of the first server.
func selectionCause(err error) string {
	msg := err.Error()
	_, last, ok := strings.Cut(msg, "Last error: ")
	if !ok {
		return msg
	}
	if i := strings.Index(last, " }"); i >= 0 {
		last = last[:i]
	}
	return last
}

// connectHint picks the one hint most likely to help.
func connectHint(err error, host string) string {
	msg := strings.ToLower(err.Error())
	switch {
	case strings.Contains(msg, "auth"):
		return "check the user name and password in the URI"
	case strings.Contains(msg, "connection refused") && isLocalHost(host):
		return "start mongod (or `docker run -d -p 27017:27017 mongo:8`), or drop --uri to use the embedded sandbox"
	case strings.Contains(msg, "no such host"):
		return "check the host name in the URI"
	}
	return "check the URI and that the server is running and reachable, or drop --uri to use the embedded sandbox"
}

func isLocalHost(host string) bool {
	return strings.HasPrefix(host, "localhost") || strings.HasPrefix(host, "127.") || strings.HasPrefix(host, "[::1]")
}

// describe fills Version and Topology. Servers that refuse buildInfo or
// hello to the user are still usable, so failures leave them empty.
func (b *Backend) describe(ctx context.Context) {
	admin := b.Client.Database("admin")
	var info struct {
		Version string `bson:"version"`
	}
	if err := admin.RunCommand(ctx, bson.D{{Key: "buildInfo", Value: 1}}).Decode(&info); err == nil {
		b.Version = info.Version
	}
	var hello struct {
		SetName string `bson:"setName"`
		Msg     string `bson:"msg"`
	}
	if err := admin.RunCommand(ctx, bson.D{{Key: "hello", Value: 1}}).Decode(&hello); err == nil {
		switch {
		case hello.Msg == "isdbgrid":
			b.Topology = "sharded cluster"
		case hello.SetName != "":
			b.Topology = "replica set " + hello.SetName
		default:
			b.Topology = "standalone"
		}
	}
}

// Status is the one-line description for the status line and doctor, e.g.
// "embedded sandbox (MongoDB 8.0.4-compatible)",
// "mongod 8.0.4, standalone, temporary on 127.0.0.1:40123" or
// "MongoDB 8.0.4, replica set rs0, at cluster0.example.mongodb.net".
// It never holds credentials.
func (b *Backend) Status() string {
	version := b.Version
	if version == "" {
		version = "(version unknown)"
	}
	topology := ""
	if b.Topology != "" {
		topology = ", " + b.Topology
	}
	switch b.Kind {
	case KindEmbedded:
		return fmt.Sprintf("embedded sandbox (MongoDB %s-compatible)", version)
	case KindMongod:
		return fmt.Sprintf("mongod %s%s, temporary on %s%s", version, topology, b.Host, b.oldVersionNote())
	}
	return fmt.Sprintf("MongoDB %s%s, at %s%s", version, topology, b.Host, b.oldVersionNote())
}

// oldVersionNote warns that lessons assume MongoDB 6.0 or later.
func (b *Backend) oldVersionNote() string {
	major, _, _ := strings.Cut(b.Version, ".")
	if n, err := strconv.Atoi(major); err == nil && n < 6 {
		return " (older than 6.0: some steps may fail)"
	}
	return ""
}

// ScriptHeap is the memory one script may take, in bytes, for the
// shells run against this backend (Config.ScriptHeap; 0 for the shell's
// default).
func (b *Backend) ScriptHeap() int64 { return b.scriptHeap }

// URI is the connection string of a sandbox this process started (embedded
// or mongod), for `mongosh URI`; "" for a server given by URI, whose
// connection string may hold credentials.
func (b *Backend) URI() string {
	switch {
	case b.server != nil:
		return b.server.URI()
	case b.mongod != nil:
		return b.mongod.uri()
	}
	return ""
}

// Close disconnects, stops the embedded server or the mongod this process
// started, and deletes the mongod's data directory. It is safe to call more
// than once, also concurrently (from a signal handler's goroutine).
func (b *Backend) Close() error {
	b.closeOnce.Do(func() {
		dctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		b.closeErr = b.Client.Disconnect(dctx)
		if b.server != nil {
			if err := b.server.Close(); b.closeErr == nil {
				b.closeErr = err
			}
		}
		if b.cancel != nil {
			b.cancel()
		}
		if b.mongod != nil {
			if err := b.mongod.stop(); b.closeErr == nil {
				b.closeErr = err
			}
		}
	})
	return b.closeErr
}

// ForPrefix is a backend on the same server for the databases named
// prefix* (a classroom student's), with its own client from NewClient.
// Closing it disconnects only that client; the server stays up.
func (b *Backend) ForPrefix(ctx context.Context, prefix string) (*Backend, error) {
	if err := ValidatePrefix(prefix); err != nil {
		return nil, err
	}
	client, err := b.NewClient(ctx, ClientOptions{Prefix: prefix})
	if err != nil {
		return nil, err
	}
	return &Backend{Client: client, Kind: b.Kind, Host: b.Host, Version: b.Version, Topology: b.Topology,
		prefix: prefix, confined: true, unsafeAnyDB: b.unsafeAnyDB, scriptHeap: b.scriptHeap, uri: b.uri, login: b.login}, nil
}
