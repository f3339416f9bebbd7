package sandbox

import (
	"errors"
	"net/url"
	"strings"
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

// redactErr removes from err's text anything secret of uri: the whole URI,
// its user information (raw and decoded) and its option values.
func redactErr(err error, uri string) error {
	msg := redactText(err.Error(), uri)
	if msg == err.Error() {
		return err
	}
	return errors.New(msg)
}

func redactText(msg, uri string) string {
	if uri == "" {
		return msg
	}
	msg = strings.ReplaceAll(msg, uri, RedactURI(uri))
	rest, ok := cutScheme(uri)
	if !ok {
		// Not a URI we understand: it may still be one with a typo in the
		// scheme, so it is hidden whole.
		return strings.ReplaceAll(msg, uri, "****")
	}
	var secrets []string
	if i := strings.IndexByte(rest, '?'); i >= 0 && i+1 < len(rest) {
		secrets = append(secrets, rest[i+1:])
		for opt := range strings.SplitSeq(rest[i+1:], "&") {
			if _, v, ok := strings.Cut(opt, "="); ok {
				secrets = append(secrets, v)
				if dec, err := url.QueryUnescape(v); err == nil {
					secrets = append(secrets, dec)
				}
			}
		}
	}
	host := rest
	if i := strings.IndexAny(host, "/?"); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		userinfo := host[:i]
		secrets = append(secrets, userinfo)
		user, pass, _ := strings.Cut(userinfo, ":")
		for _, s := range []string{pass, user} {
			secrets = append(secrets, s)
			if dec, err := url.PathUnescape(s); err == nil {
				secrets = append(secrets, dec)
			}
		}
	}
	for _, s := range secrets {
		// Very short values (w=1, a one-letter user) would blank out
		// unrelated text and are no secret worth the noise.
		if len(s) >= 4 {
			msg = strings.ReplaceAll(msg, s, "****")
		}
	}
	return msg
}
