package sandbox

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/ocsp"
)

// ClientOptions configure a client of the backend.
type ClientOptions struct {
	// Prefix confines the client to databases named <Prefix>*; "" means the backend's own prefix (--db-prefix).
	//
	// With "", the client is confined exactly when the backend's own
	// Client is: on a real server without --unsafe-any-db. A Prefix given
	// here confines the client on every backend, the embedded one and
	// with --unsafe-any-db too: that is how a classroom keeps each student
	// (alice_, bob_) to their own databases on one shared server.
	Prefix string
	// Monitor, when set, receives every command the client sends.
	Monitor *event.CommandMonitor
	// Username and Password, when Username is set, log the client in
	// (SCRAM-SHA-256, authSource admin): a classroom's student process
	// logs in to the room's server with credentials made for it.
	Username, Password string
	// ReadOnly runs the client under the read-only policy (readonly.go):
	// only reads pass, each bounded by maxTimeMS. Since it cannot write,
	// it may read any database, whatever --unsafe-any-db says; only a
	// Prefix, or a backend made by ForPrefix, still confines it.
	ReadOnly bool
}

// NewClient connects a new client to the backend's server. Every client
// the app uses is made here (Backend.Client too), so that none escapes the
// guard. The caller disconnects it.
func (b *Backend) NewClient(ctx context.Context, o ClientOptions) (*mongo.Client, error) {
	s := b.clientSettings()
	s.monitor = o.Monitor
	if o.Username != "" {
		s.credential = &options.Credential{
			AuthMechanism: "SCRAM-SHA-256", AuthSource: "admin",
			Username: o.Username, Password: o.Password,
		}
	}
	if o.Prefix != "" {
		if err := ValidatePrefix(o.Prefix); err != nil {
			return nil, err
		}
		s.guard = &policy{prefix: o.Prefix}
	}
	if o.ReadOnly {
		prefix := o.Prefix
		if prefix == "" && b.confined {
			prefix = b.prefix
		}
		s.guard = &policy{prefix: prefix, readOnly: true}
	}
	client, err := newClient(b.uri, s)
	if err != nil {
		return nil, err
	}
	if err := client.Ping(ctx, nil); err != nil {
		_ = client.Disconnect(context.Background())
		return nil, err
	}
	return client, nil
}

// clientSettings are how this backend's clients connect.
func (b *Backend) clientSettings() clientSettings {
	s := clientSettings{credential: b.login}
	switch b.Kind {
	case KindMongod:
		s.direct, s.appName = true, "schemalab"
	case KindURI:
		s.appName = "schemalab"
	}
	if b.Enforced() {
		s.guard = &policy{prefix: b.prefix, unlockable: !b.confined}
	}
	return s
}

type clientSettings struct {
	direct  bool
	appName string
	monitor *event.CommandMonitor
	// credential, when set, logs the client in.
	credential *options.Credential
	// guard, when set, confines the client: every message it sends passes
	// the policy first (guard.go).
	guard *policy
}

// newClient is the one place a driver client is made.
func newClient(uri string, s clientSettings) (*mongo.Client, error) {
	opts := options.Client().ApplyURI(uri)
	// Every client polls its server unless the URI asks otherwise. A
	// streaming monitor holds an awaitable hello open for the whole
	// heartbeat (10 s), and the driver's Disconnect can miss its signal
	// to cut it short: a failed login then took 10 s to come back under
	// load. Streaming also keeps a second connection per client for
	// round-trip times, one more per student in a classroom.
	if opts.ServerMonitoringMode == nil {
		opts.SetServerMonitoringMode(options.ServerMonitoringModePoll)
	}
	if s.direct {
		opts.SetDirect(true)
	}
	if s.appName != "" {
		opts.SetAppName(s.appName)
	}
	if s.monitor != nil {
		opts.SetMonitor(s.monitor)
	}
	if s.credential != nil {
		opts.SetAuth(*s.credential)
	}
	if s.guard != nil {
		d := &guardDialer{policy: *s.guard, tls: opts.TLSConfig, ocspCache: ocsp.NewCache()}
		d.verifyRevocation = opts.DisableCertificateRevocationCheck == nil || !*opts.DisableCertificateRevocationCheck
		d.disableOCSPEndpoints = opts.DisableOCSPEndpointCheck != nil && *opts.DisableOCSPEndpointCheck
		// The guard makes the TLS connection itself (see guardDialer),
		// and a URI's compressors= is dropped: the guard must read every
		// command, so a confined client never negotiates compression.
		opts.TLSConfig = nil
		opts.SetCompressors(nil)
		opts.SetDialer(d)
	}
	return mongo.Connect(opts)
}
