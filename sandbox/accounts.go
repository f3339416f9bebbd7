package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"errors"

	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/wire"
)

// roomUser is the login of an accounts server's own clients (Config.
// Accounts): unconfined, with a password made at start and known to this
// process only.
const roomUser = "schemalab-room"

func ownLogin(srv *wire.Server) (*options.Credential, error) {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	password := hex.EncodeToString(b)
	if err := srv.AddUser(roomUser, password, wire.Account{}); err != nil {
		return nil, err
	}
	return &options.Credential{AuthMechanism: "SCRAM-SHA-256", AuthSource: "admin", Username: roomUser, Password: password}, nil
}

var errNoAccounts = errors.New("this sandbox has no logins of its own: only an embedded one started with Config.Accounts does")

// AddUser makes a login on the backend's embedded server (Config.Accounts)
// that another process connects with (Attach), confined to a.Prefix on
// the server and within a's quotas.
func (b *Backend) AddUser(name, password string, a wire.Account) error {
	if b.server == nil || b.login == nil {
		return errNoAccounts
	}
	return b.server.AddUser(name, password, a)
}

// RemoveUser removes a login of AddUser and closes its connections.
func (b *Backend) RemoveUser(name string) {
	if b.server != nil {
		b.server.RemoveUser(name)
	}
}

// Usage is what a login of AddUser is using now (storage, cursors,
// connections).
func (b *Backend) Usage(name string) wire.Usage {
	if b.server == nil {
		return wire.Usage{}
	}
	return b.server.Usage(name)
}
