package wire

import (
	"encoding/base64"
	"errors"
	"strings"

	"github.com/xdg-go/scram"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Authentication as mongod speaks it (sasl_commands.cpp,
// authentication_session.cpp): saslStart and saslContinue, the
// speculativeAuthenticate a driver puts in its first hello, and the
// saslSupportedMechs of that hello. SCRAM-SHA-256 is the one mechanism:
// the users AddUser makes have SCRAM-SHA-256 credentials only. A
// connection holds at most one conversation; any failure ends it, and
// every failure of a step is mongod's "Authentication failed.", whatever
// went wrong (unknown user, wrong password, replayed or altered message).

const mechanismSCRAMSHA256 = "SCRAM-SHA-256"

var errAuthFailed = mongoerr.New(mongoerr.AuthenticationFailed, "Authentication failed.")

// saslConversation is a connection's authentication in progress.
type saslConversation struct {
	conv *scram.ServerConversation
	// user is whom the first step named (nil: no such user, which the
	// mechanism reports as a failed step).
	user *user
	// skipEmptyExchange: the client asked to be done after the server's
	// final message, without the empty third exchange.
	skipEmptyExchange bool
	// verified: the client's proof was right and the server's final
	// message was sent; only the empty third exchange is left.
	verified bool
	// base64: the client sent the payload as a base64 string rather
	// than binary, and gets its replies the same way.
	base64 bool
}

// saslStart begins an authentication on c, in place of any other.
func (s *Server) saslStart(c *clientConn, db string, cmd bson.D) bson.D {
	c.sasl = nil
	reply, err := s.startConversation(c, db, cmd)
	if err != nil {
		c.sasl = nil
		return engine.ErrorReply(err)
	}
	return append(reply, bson.E{Key: "ok", Value: 1.0})
}

func (s *Server) startConversation(c *clientConn, db string, cmd bson.D) (bson.D, error) {
	var mechanism string
	var payload []byte
	var havePayload, asString bool
	conv := &saslConversation{}
	for _, f := range cmd[1:] {
		switch f.Key {
		case "mechanism":
			m, ok := f.Value.(string)
			if !ok {
				return nil, wrongType("saslStart.mechanism", f.Value, "string")
			}
			mechanism = m
		case "payload":
			p, isString, err := readPayload("saslStart", f.Value)
			if err != nil {
				return nil, err
			}
			payload, asString, havePayload = p, isString, true
		case "options":
			opts, ok := f.Value.(bson.D)
			if !ok {
				return nil, wrongType("saslStart.options", f.Value, "object")
			}
			skip, _ := value.Get(opts, "skipEmptyExchange").(bool)
			conv.skipEmptyExchange = skip
		}
	}
	if mechanism == "" {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'saslStart.mechanism' is missing but a required field")
	}
	if !havePayload {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'saslStart.payload' is missing but a required field")
	}
	switch mechanism {
	case mechanismSCRAMSHA256:
	case "SCRAM-SHA-1":
		// mongod offers it, but these users have no SCRAM-SHA-1
		// credentials: the step fails like any other.
		return nil, errAuthFailed
	default:
		return nil, mongoerr.Newf(mongoerr.BadValue, "Unsupported mechanism '%s' on authentication database '%s'", mechanism, db)
	}
	server, err := scram.SHA256.NewServer(func(name string) (scram.StoredCredentials, error) {
		conv.user = s.lookupUser(db, name)
		if conv.user == nil {
			return scram.StoredCredentials{}, errors.New("no such user")
		}
		return conv.user.creds, nil
	})
	if err != nil {
		return nil, err
	}
	conv.conv = server.NewConversation()
	conv.base64 = asString
	out, err := conv.conv.Step(string(payload))
	if err != nil {
		return nil, errAuthFailed
	}
	c.sasl = conv
	c.state.Store(stateAuthenticating)
	return saslReply(false, out, asString), nil
}

// saslContinue takes c's conversation one step further.
func (s *Server) saslContinue(c *clientConn, cmd bson.D) bson.D {
	reply, err := s.continueConversation(c, cmd)
	if err != nil {
		c.sasl = nil
		return engine.ErrorReply(err)
	}
	return append(reply, bson.E{Key: "ok", Value: 1.0})
}

func (s *Server) continueConversation(c *clientConn, cmd bson.D) (bson.D, error) {
	conv := c.sasl
	if conv == nil {
		return nil, mongoerr.New(mongoerr.ProtocolError, "No SASL session state found")
	}
	var payload []byte
	var havePayload, haveID bool
	if v := value.Get(cmd, "payload"); !isMissing(v) {
		p, _, err := readPayload("saslContinue", v)
		if err != nil {
			return nil, err
		}
		payload, havePayload = p, true
	}
	switch id := value.Get(cmd, "conversationId").(type) {
	case int32:
		haveID = id == 1
	case int64:
		haveID = id == 1
	case value.Missing:
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'saslContinue.conversationId' is missing but a required field")
	default:
		return nil, wrongType("saslContinue.conversationId", id, "int")
	}
	if !havePayload {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'saslContinue.payload' is missing but a required field")
	}
	if !haveID {
		return nil, mongoerr.New(mongoerr.ProtocolError, "sasl: Mismatched conversation id")
	}
	if conv.verified {
		// The third, empty exchange of a client that did not skip it.
		if len(payload) != 0 {
			return nil, errAuthFailed
		}
		if err := s.finishLogin(c, conv); err != nil {
			return nil, err
		}
		return saslReply(true, "", conv.base64), nil
	}
	out, err := conv.conv.Step(string(payload))
	if err != nil || !conv.conv.Valid() || conv.user == nil {
		return nil, errAuthFailed
	}
	if !conv.skipEmptyExchange {
		conv.verified = true
		return saslReply(false, out, conv.base64), nil
	}
	if err := s.finishLogin(c, conv); err != nil {
		return nil, err
	}
	return saslReply(true, out, conv.base64), nil
}

// finishLogin binds c to the user its conversation proved it is.
func (s *Server) finishLogin(c *clientConn, conv *saslConversation) error {
	c.sasl = nil
	if err := s.bind(c, conv.user); err != nil {
		var tooMany errTooManyConnections
		if errors.As(err, &tooMany) {
			return mongoerr.New(mongoerr.ResourceExhausted, tooMany.Error())
		}
		return err
	}
	c.state.Store(stateAuthenticated)
	s.admission.authenticated(c)
	return nil
}

// saslReply is mongod's SaslReply: conversationId, done, payload.
func saslReply(done bool, payload string, asString bool) bson.D {
	var p any = bson.Binary{Data: []byte(payload)}
	if asString {
		p = base64.StdEncoding.EncodeToString([]byte(payload))
	}
	return bson.D{
		{Key: "conversationId", Value: int32(1)},
		{Key: "done", Value: done},
		{Key: "payload", Value: p},
	}
}

// readPayload reads a SASL payload: binary data, or a base64 string.
func readPayload(cmd string, v any) ([]byte, bool, error) {
	switch p := v.(type) {
	case bson.Binary:
		return p.Data, false, nil
	case string:
		b, err := base64.StdEncoding.DecodeString(p)
		if err != nil {
			return nil, true, mongoerr.Newf(mongoerr.BadValue, "Invalid base64 in %s.payload", cmd)
		}
		return b, true, nil
	}
	return nil, false, wrongType(cmd+".payload", v, "string or binData")
}

func wrongType(field string, v any, want string) error {
	return mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '%s' is the wrong type '%s', expected type '%s'", field, value.TypeName(v), want)
}

func isMissing(v any) bool {
	_, missing := v.(value.Missing)
	return missing
}

// helloAuth adds to a hello reply what mongod adds for authentication:
// the mechanisms of the user named by saslSupportedMechs ("admin.alice";
// nothing for an unknown user), and the first step of the conversation
// the client began in speculativeAuthenticate (nothing when it fails: the
// client then authenticates the ordinary way).
func (s *Server) helloAuth(c *clientConn, cmd, reply bson.D) bson.D {
	var extra bson.D
	if v := value.Get(cmd, "saslSupportedMechs"); !isMissing(v) {
		name, isString := v.(string)
		db, userName, dotted := strings.Cut(name, ".")
		switch {
		case !isString:
		case !dotted:
			return engine.ErrorReply(mongoerr.New(mongoerr.BadValue, "UserName must contain a '.' separated database.user pair"))
		case s.lookupUser(db, userName) != nil:
			extra = append(extra, bson.E{Key: "saslSupportedMechs", Value: bson.A{mechanismSCRAMSHA256}})
		}
	}
	if spec, ok := value.Get(cmd, "speculativeAuthenticate").(bson.D); ok {
		if db, ok := value.Get(spec, "db").(string); ok && len(spec) > 0 && spec[0].Key == "saslStart" {
			c.sasl = nil
			if first, err := s.startConversation(c, db, spec); err == nil {
				extra = append(extra, bson.E{Key: "speculativeAuthenticate", Value: first})
			} else {
				c.sasl = nil
			}
		}
	}
	if len(extra) == 0 || len(reply) == 0 || reply[len(reply)-1].Key != "ok" {
		return reply
	}
	out := make(bson.D, 0, len(reply)+len(extra))
	out = append(out, reply[:len(reply)-1]...)
	out = append(out, extra...)
	return append(out, reply[len(reply)-1])
}
