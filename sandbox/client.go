package sandbox

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// ClientOptions configure a client of the backend made by NewClient.
type ClientOptions struct {
	Prefix  string                // "" = the backend's own prefix
	Monitor *event.CommandMonitor // receives every command the client sends
}

// NewClient connects one more driver client to the backend, so that each
// lesson session owns its client and its command monitor. The caller
// disconnects it.
func (b *Backend) NewClient(ctx context.Context, o ClientOptions) (*mongo.Client, error) {
	uri := b.uri
	if uri == "" {
		uri = b.URI()
	}
	opts := options.Client().ApplyURI(uri).SetServerSelectionTimeout(serverSelectionTimeout).SetAppName("schemalab")
	if b.Kind == KindEmbedded {
		// As for the backend's own client: an in-process server needs no
		// streaming hello, which would hold up Disconnect.
		opts.SetServerMonitoringMode(options.ServerMonitoringModePoll)
	}
	if o.Monitor != nil {
		opts.SetMonitor(o.Monitor)
	}
	client, err := mongo.Connect(opts)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %v", b.Host, redactErr(err, uri))
	}
	return client, nil
}
