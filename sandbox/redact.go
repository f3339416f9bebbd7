package sandbox

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// RedactURI returns the host part of a MongoDB URI ("host:27017",
// "h1:27017,h2:27017" or an SRV name), never its credentials, database or
// options (which may hold secrets such as AWS session tokens).
func RedactURI(uri string) string {
	rest, ok := cutScheme(uri)
	if !ok {
		return "the given URI"
	}
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	if rest == "" {
		return "the given URI"
	}
	return rest
}

func cutScheme(uri string) (string, bool) {
	for _, scheme := range []string{"mongodb://", "mongodb+srv://"} {
		if len(uri) >= len(scheme) && strings.EqualFold(uri[:len(scheme)], scheme) {
			return uri[len(scheme):], true
		}
	}
	return "", false
}

// secretOptions are the URI options whose values are secrets (compared
// case-insensitively, as URI option names are). authMechanismProperties
// may carry AWS_SESSION_TOKEN; the others are key and proxy passwords.
var secretOptions = []string{
	"authMechanismProperties", "tlsCertificateKeyFilePassword", "sslPEMKeyPassword",
	"sslClientCertificateKeyPassword", "proxyPassword",
}

// redactErr removes from err's text what is secret in uri (see
// redactText).
func redactErr(err error, uri string) error {
	msg := redactText(err.Error(), uri)
	if msg == err.Error() {
		return err
	}
	return errors.New(msg)
}

// redactText hides in msg the secrets of uri: the URI itself (shown as its
// hosts), its password and the values of secretOptions, raw and decoded.
// Nothing else is a secret: a user name, a tlsCAFile path or an
// authSource is printed as it is, because hiding it would hide the very
// thing a connection error is about.
func redactText(msg, uri string) string {
	if uri == "" {
		return msg
	}
	rest, ok := cutScheme(uri)
	if !ok {
		// Not a URI we understand: it may still be one with a typo in the
		// scheme, so it is hidden whole.
		return strings.ReplaceAll(msg, uri, "****")
	}
	msg = strings.ReplaceAll(msg, uri, RedactURI(uri))
	var secrets []string
	addSecret := func(s string, unescape func(string) (string, error)) {
		secrets = append(secrets, s)
		if dec, err := unescape(s); err == nil && dec != s {
			secrets = append(secrets, dec)
		}
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		for opt := range strings.SplitSeq(rest[i+1:], "&") {
			name, v, ok := strings.Cut(opt, "=")
			if !ok || !slices.ContainsFunc(secretOptions, func(s string) bool { return strings.EqualFold(s, name) }) {
				continue
			}
			addSecret(v, url.QueryUnescape)
			// AWS_SESSION_TOKEN:tok,SERVICE_NAME:x: each value, in case a
			// message quotes one property.
			dec, _ := url.QueryUnescape(v)
			for prop := range strings.SplitSeq(dec, ",") {
				if _, pv, ok := strings.Cut(prop, ":"); ok {
					addSecret(pv, url.QueryUnescape)
				}
			}
		}
	}
	host := rest
	if i := strings.IndexAny(host, "/?"); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		if _, pass, ok := strings.Cut(host[:i], ":"); ok {
			addSecret(pass, url.PathUnescape)
		}
	}
	for _, s := range secrets {
		msg = hideSecret(msg, s)
	}
	return msg
}

// hideSecret replaces secret in msg with ****. A short one (under four
// bytes) is replaced only where it stands as a word of its own, so that a
// password such as "ab" does not blank out every "ab" of the message.
func hideSecret(msg, secret string) string {
	if secret == "" {
		return msg
	}
	if len(secret) >= 4 {
		return strings.ReplaceAll(msg, secret, "****")
	}
	var sb strings.Builder
	for {
		i := strings.Index(msg, secret)
		if i < 0 {
			sb.WriteString(msg)
			return sb.String()
		}
		before, _ := utf8.DecodeLastRuneInString(msg[:i])
		after, _ := utf8.DecodeRuneInString(msg[i+len(secret):])
		sb.WriteString(msg[:i])
		if isWordRune(before) || isWordRune(after) {
			sb.WriteString(secret)
		} else {
			sb.WriteString("****")
		}
		msg = msg[i+len(secret):]
	}
}

func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
