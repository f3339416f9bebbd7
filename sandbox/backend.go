// Package sandbox owns the database a learner works in: which backend
// serves it (the embedded server, or a real MongoDB), how the app connects
// to it through the official driver, and the lifecycle of both.
package sandbox

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// Backend is a connected sandbox. Client is the official driver's client;
// every database access of the app goes through it.
type Backend struct {
	Client *mongo.Client
	// Kind is "embedded" or "uri".
	Kind string
	// Host is what may be shown to the user: the host of a URI without
	// credentials, or "embedded sandbox".
	Host   string
	server *wire.Server
	cancel context.CancelFunc
}

// serverSelectionTimeout bounds how long connecting to a real server may
// take before the user gets a clear error.
const serverSelectionTimeout = 5 * time.Second

// StartEmbedded starts the in-process server on a free loopback port and
// connects the driver to it.
func StartEmbedded(ctx context.Context) (*Backend, error) {
	sctx, cancel := context.WithCancel(context.Background())
	srv, err := wire.Start(sctx, wire.Options{Engine: engine.New()})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("start the embedded sandbox: %w", err)
	}
	client, err := mongo.Connect(options.Client().ApplyURI(srv.URI()).SetServerSelectionTimeout(serverSelectionTimeout))
	if err != nil {
		_ = srv.Close()
		cancel()
		return nil, fmt.Errorf("connect to the embedded sandbox: %w", err)
	}
	if err := client.Ping(ctx, nil); err != nil {
		_ = client.Disconnect(context.Background())
		_ = srv.Close()
		cancel()
		return nil, fmt.Errorf("connect to the embedded sandbox: %w", err)
	}
	return &Backend{Client: client, Kind: "embedded", Host: "embedded sandbox", server: srv, cancel: cancel}, nil
}

// Connect connects to a real MongoDB given by uri.
func Connect(ctx context.Context, uri string) (*Backend, error) {
	host := RedactURI(uri)
	client, err := mongo.Connect(options.Client().ApplyURI(uri).SetServerSelectionTimeout(serverSelectionTimeout))
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", host, redactErr(err, uri))
	}
	if err := client.Ping(ctx, nil); err != nil {
		_ = client.Disconnect(context.Background())
		return nil, fmt.Errorf("could not reach MongoDB at %s within %s: %w\nhint: start mongod, check the URI, or drop --uri to use the embedded sandbox",
			host, serverSelectionTimeout, redactErr(err, uri))
	}
	return &Backend{Client: client, Kind: "uri", Host: host}, nil
}

// URI is the embedded server's connection string ("" for a real server,
// whose URI may hold credentials).
func (b *Backend) URI() string {
	if b.server != nil {
		return b.server.URI()
	}
	return ""
}

// Close disconnects and stops the embedded server, if any.
func (b *Backend) Close() error {
	err := b.Client.Disconnect(context.Background())
	if b.server != nil {
		if cerr := b.server.Close(); err == nil {
			err = cerr
		}
	}
	if b.cancel != nil {
		b.cancel()
	}
	return err
}

// RedactURI returns the host part of a MongoDB URI, never its
// credentials or query parameters.
func RedactURI(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Host == "" {
		return "the given URI"
	}
	return u.Host
}

func redactErr(err error, uri string) error {
	u, perr := url.Parse(uri)
	if perr != nil || u.User == nil {
		return err
	}
	msg := err.Error()
	if pw, ok := u.User.Password(); ok && pw != "" {
		msg = strings.ReplaceAll(msg, pw, "****")
	}
	return fmt.Errorf("%s", msg)
}
