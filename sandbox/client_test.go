package sandbox

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/sandboxtest"
	"github.com/schemalab/schemalab/sandbox/vocab"
	"github.com/schemalab/schemalab/sandbox/wire"
)

func newClientT(t *testing.T, b *Backend, o ClientOptions) *mongo.Client {
	t.Helper()
	c, err := b.NewClient(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Disconnect(context.Background()) })
	return c
}

func insertErr(c *mongo.Client, db string) error {
	_, err := c.Database(db).Collection("c").InsertOne(context.Background(), bson.D{{Key: "x", Value: int32(1)}})
	return err
}

// A classroom shares one embedded engine among students; each student's
// client is confined to their own prefix.
func TestClassroomClientsKeepToTheirPrefix(t *testing.T) {
	b := openURI(t, Config{})
	alice := newClientT(t, b, ClientOptions{Prefix: "alice_"})
	bob := newClientT(t, b, ClientOptions{Prefix: "bob_"})
	if err := insertErr(alice, "alice_tree"); err != nil {
		t.Fatalf("alice in her own database: %v", err)
	}
	if err := insertErr(bob, "bob_tree"); err != nil {
		t.Fatalf("bob in his own database: %v", err)
	}
	err := alice.Database("bob_tree").Drop(context.Background())
	var ce mongo.CommandError
	if !errors.As(err, &ce) || ce.Code != mongoerr.Unauthorized || ce.Name != "Unauthorized" {
		t.Fatalf("alice dropping bob's database: %v", err)
	}
	// --unsafe-any-db would not lift a student's prefix, so the refusal
	// does not suggest it.
	if want := "schemalab: refusing `dropDatabase` on database `bob_tree`: outside the sandbox prefix `alice_`"; ce.Message != want {
		t.Errorf("refusal %q, want %q", ce.Message, want)
	}
	if n, err := b.Client.Database("bob_tree").Collection("c").CountDocuments(context.Background(), bson.D{}); err != nil || n != 1 {
		t.Errorf("bob_tree after alice's attempt: %d, %v", n, err)
	}
	// The backend's own client on the embedded server is not confined.
	if err := insertErr(b.Client, "anything"); err != nil {
		t.Errorf("embedded backend client: %v", err)
	}
	if _, err := b.NewClient(context.Background(), ClientOptions{Prefix: "a.b"}); err == nil {
		t.Error("NewClient accepted prefix a.b")
	}
}

func TestClientsOfARealServer(t *testing.T) {
	uri, seed := sharedServer(t)
	b := openURI(t, Config{URI: uri})
	for name, c := range map[string]*mongo.Client{"Client": b.Client, "NewClient": newClientT(t, b, ClientOptions{})} {
		if err := insertErr(c, "schemalab_x"); err != nil {
			t.Errorf("%s in the sandbox: %v", name, err)
		}
		if err := insertErr(c, "shop"); !errors.Is(err, ErrOutsideSandbox) && !strings.Contains(errString(err), "outside the sandbox prefix `schemalab_` (pass --unsafe-any-db to allow)") {
			t.Errorf("%s outside the prefix: %v", name, err)
		}
	}
	assertUntouched(t, seed, "shop")

	unsafe := openURI(t, Config{URI: uri, UnsafeAnyDB: true})
	if err := insertErr(unsafe.Client, "elsewhere"); err != nil {
		t.Errorf("--unsafe-any-db: %v", err)
	}
	if err := insertErr(newClientT(t, unsafe, ClientOptions{Prefix: "alice_"}), "elsewhere"); err == nil {
		t.Error("--unsafe-any-db lifted an explicit prefix")
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestClientMonitorSeesEveryCommand(t *testing.T) {
	b := openURI(t, Config{})
	var mu sync.Mutex
	var seen []string
	mon := &event.CommandMonitor{Started: func(_ context.Context, e *event.CommandStartedEvent) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, e.DatabaseName+"."+e.CommandName)
	}}
	c := newClientT(t, b, ClientOptions{Prefix: "alice_", Monitor: mon})
	_ = insertErr(c, "alice_x")
	_ = insertErr(c, "bob_x")
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(seen, " ") != "admin.ping alice_x.insert bob_x.insert" {
		t.Errorf("monitor saw %v", seen)
	}
}

// A confined client must never compress: the guard could not read its
// commands. Whatever the URI asks for, its handshake offers nothing.
func TestConfinedClientNeverOffersCompression(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	hello := make(chan wire.ClientMessage, 1)
	go func() {
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		defer nc.Close()
		var size [4]byte
		if _, err := io.ReadFull(nc, size[:]); err != nil {
			return
		}
		msg := make([]byte, int(size[0])|int(size[1])<<8|int(size[2])<<16|int(size[3])<<24)
		copy(msg, size[:])
		if _, err := io.ReadFull(nc, msg[4:]); err != nil {
			return
		}
		m, _ := wire.DecodeClientMessage(msg)
		hello <- m
	}()
	b := &Backend{Kind: KindURI, prefix: vocab.DefaultPrefix}
	c, err := newClient("mongodb://"+ln.Addr().String()+"/?compressors=zstd,zlib,snappy", b.clientSettings())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Disconnect(context.Background())
	pingCtx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_ = c.Ping(pingCtx, nil)
	select {
	case m := <-hello:
		for _, e := range m.Command {
			if a, ok := e.Value.(bson.A); e.Key == "compression" && (!ok || len(a) > 0) {
				t.Errorf("the handshake offers compression: %v", e.Value)
			}
		}
		if len(m.Command) == 0 {
			t.Errorf("no handshake read: %+v", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no handshake")
	}
}

// The guard makes a URI's TLS connection itself (the driver would
// otherwise encrypt before the guard could read): tls and tlsCAFile from
// the URI still apply.
func TestConfinedClientOverTLS(t *testing.T) {
	srv := sandboxtest.Start(t)
	caFile, cert := selfSignedCert(t)
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", srv.Address())
			if err != nil {
				in.Close()
				return
			}
			go func() { _, _ = io.Copy(out, in); out.Close() }()
			go func() { _, _ = io.Copy(in, out); in.Close() }()
		}
	}()
	uri := "mongodb://" + ln.Addr().String() + "/?tls=true&tlsCAFile=" + caFile
	b := openURI(t, Config{URI: uri})
	if err := insertErr(b.Client, "schemalab_x"); err != nil {
		t.Fatalf("through TLS: %v", err)
	}
	if err := insertErr(b.Client, "shop"); !errors.Is(err, ErrOutsideSandbox) && !strings.Contains(errString(err), "outside the sandbox prefix") {
		t.Errorf("through TLS, outside the prefix: %v", err)
	}
	// A wrong CA fails the handshake: the URI's verification is kept.
	otherCA, _ := selfSignedCert(t)
	c, err := newClient("mongodb://"+ln.Addr().String()+"/?tls=true&tlsCAFile="+otherCA, b.clientSettings())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Disconnect(context.Background())
	pingCtx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := c.Ping(pingCtx, nil); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("a certificate from another CA: %v", err)
	}
}

func selfSignedCert(t *testing.T) (caFile string, cert tls.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "schemalab test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	caFile = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return caFile, tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}
