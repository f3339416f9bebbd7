package sandbox

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// Connector is NewClient with the backend's own prefix, in the shape a
// lesson session takes (lessons.ConnectFunc): each session opens its own
// client, watched by its own command monitor.
func (b *Backend) Connector() func(ctx context.Context, monitor *event.CommandMonitor) (*mongo.Client, error) {
	return func(ctx context.Context, monitor *event.CommandMonitor) (*mongo.Client, error) {
		return b.NewClient(ctx, ClientOptions{Monitor: monitor})
	}
}
