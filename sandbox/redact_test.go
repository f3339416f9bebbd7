package sandbox

import (
	"context"
	"strings"
	"testing"
)

func TestRedactURI(t *testing.T) {
	for _, tc := range []struct{ uri, want string }{
		{"mongodb://localhost:27017", "localhost:27017"},
		{"mongodb://alice:s3cret@db.example.com:27017/shop?authSource=admin", "db.example.com:27017"},
		{"mongodb+srv://alice:p%40ss@cluster0.abcde.mongodb.net/?retryWrites=true", "cluster0.abcde.mongodb.net"},
		{"mongodb://u:p@h1:27017,h2:27017/?replicaSet=rs0", "h1:27017,h2:27017"},
		{"mongodb://u:p@w@rd@h:1/", "h:1"},
		{"MONGODB://h", "h"},
		{"postgres://u:p@h/", "the given URI"},
		{"mongodb://", "the given URI"},
	} {
		if got := RedactURI(tc.uri); got != tc.want {
			t.Errorf("RedactURI(%q) = %q, want %q", tc.uri, got, tc.want)
		}
	}
}

func TestConnectErrorsHideCredentials(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		uri   string
		wants []string
	}{
		{"mongodb://alice:Sup3rSecret@127.0.0.1:1/?authSource=admin&authMechanismProperties=AWS_SESSION_TOKEN:tok3nvalue",
			[]string{"could not reach MongoDB at 127.0.0.1:1 within 5s", "hint: start mongod"}},
		// The URI's own timeout is the user's, and the error says it.
		{"mongodb://alice:Sup3rSecret@127.0.0.1:1/?serverSelectionTimeoutMS=700",
			[]string{"could not reach MongoDB at 127.0.0.1:1 within 700ms"}},
		{"mongodb://alice:Sup3rSecret@127.0.0.1:notaport/",
			[]string{"127.0.0.1:notaport", "hint: check the URI"}},
	} {
		_, err := Open(context.Background(), Config{URI: tc.uri})
		if err == nil {
			t.Fatalf("Open(%s) succeeded", tc.uri)
		}
		msg := err.Error()
		t.Log(msg)
		for _, secret := range []string{"Sup3rSecret", "tok3nvalue"} {
			if strings.Contains(msg, secret) {
				t.Errorf("error shows %q: %s", secret, msg)
			}
		}
		for _, want := range tc.wants {
			if !strings.Contains(msg, want) {
				t.Errorf("error %q lacks %q", msg, want)
			}
		}
	}
}

func TestRedactText(t *testing.T) {
	uri := "mongodb://alice:p%40ss%2Fword@h:1/?tlsCertificateKeyFilePassword=hunter22&authMechanismProperties=AWS_SESSION_TOKEN:tok3n%2Bvalue"
	msg := "auth failed for alice with p@ss/word and p%40ss%2Fword; tls hunter22; token tok3n+value; uri " + uri
	got := redactText(msg, uri)
	for _, secret := range []string{"p@ss/word", "p%40ss", "hunter22", "tok3n"} {
		if strings.Contains(got, secret) {
			t.Errorf("redactText left %q: %s", secret, got)
		}
	}
	if !strings.Contains(got, "uri h:1") {
		t.Errorf("the URI is not shown as its host: %s", got)
	}
}

// Only passwords and tokens are secrets: what a connection error is about
// (a CA file, a user name, an auth source) is printed as it is.
func TestRedactTextKeepsWhatIsNoSecret(t *testing.T) {
	uri := "mongodb://info:pw@db.example.com:27017/?tls=true&tlsCAFile=/etc/ssl/class-ca.pem&authSource=admin"
	msg := "failed to configure TLS: open /etc/ssl/class-ca.pem: no such file; more info: user info on admin; pw, or pwned"
	want := "failed to configure TLS: open /etc/ssl/class-ca.pem: no such file; more info: user info on admin; ****, or pwned"
	if got := redactText(msg, uri); got != want {
		t.Errorf("redactText:\n got %s\nwant %s", got, want)
	}
}
