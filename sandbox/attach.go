package sandbox

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// Attach connects to the embedded server another schemalab process runs
// (a classroom's, whose students each run in a process of their own), as
// one student: every client of the backend, its own included, is
// confined to prefix by the guard, and closing it disconnects only them.
// user and password, when user is set, log every one of its clients in
// (a login the room made for this student with AddUser, which the server
// confines to the same prefix).
func Attach(ctx context.Context, uri, prefix, user, password string, scriptHeap int64) (*Backend, error) {
	if err := ValidatePrefix(prefix); err != nil {
		return nil, err
	}
	b := &Backend{Kind: KindEmbedded, Host: "embedded sandbox", uri: uri, prefix: prefix, confined: true, scriptHeap: scriptHeap}
	if user != "" {
		b.login = &options.Credential{AuthMechanism: "SCRAM-SHA-256", AuthSource: "admin", Username: user, Password: password}
	}
	client, err := newClient(uri, b.clientSettings())
	if err == nil {
		if err = client.Ping(ctx, nil); err != nil {
			_ = client.Disconnect(context.Background())
		}
	}
	if err != nil {
		return nil, fmt.Errorf("connect to the classroom's sandbox: %s", redactText(err.Error(), uri))
	}
	b.Client = client
	b.describe(ctx)
	return b, nil
}
