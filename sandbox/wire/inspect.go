package wire

import "go.mongodb.org/mongo-driver/v2/bson"

// This file exports the decoder for code that inspects what a client sends
// before it reaches a server (the sandbox's prefix guard): such a check is
// only sound if it reads each message exactly as this server does.

// Opcodes a client may send, and the bounds of a message.
const (
	OpMsg        = opMsg
	OpQuery      = opQuery
	OpCompressed = opCompressed
	HeaderSize   = headerSize
)

// ClientMessage is one client message as this server decodes it.
type ClientMessage struct {
	RequestID int32
	OpCode    int32
	// Command is what the server would run: for OP_MSG the body with its
	// document sequences folded in as arrays, for OP_QUERY the query
	// (unwrapped from $query). It is nil when Malformed is set. An
	// insert's documents, in its body or as a document sequence, are
	// data and name no namespace: they are validated as the server
	// validates them but read as an empty array, since building 100,000
	// documents only to look past them would double the cost of every
	// large insertMany.
	Command bson.D
	// Namespace is an OP_QUERY's full collection name ("admin.$cmd").
	Namespace string
	// MoreToCome marks an OP_MSG the client expects no reply to.
	MoreToCome bool
	// Malformed is set when the server would answer with an error
	// instead of running anything.
	Malformed bool
}

// DecodeClientMessage decodes one complete message, header included. An
// error means the server would close the connection.
func DecodeClientMessage(msg []byte) (ClientMessage, error) {
	req, err := decodeMessageWith(msg, decodeOptions{skipInsertDocuments: true})
	if err != nil {
		return ClientMessage{}, err
	}
	m := ClientMessage{
		RequestID:  req.header.requestID,
		OpCode:     req.header.opCode,
		Namespace:  req.fullCollectionName,
		MoreToCome: req.moreToCome(),
		Malformed:  req.replyErr != nil,
	}
	if !m.Malformed {
		m.Command = req.cmd
	}
	return m, nil
}

// AppendOpMsgReply appends an OP_MSG reply holding doc, in answer to the
// request whose id is responseTo.
func AppendOpMsgReply(dst []byte, requestID, responseTo int32, doc bson.D) []byte {
	return appendOpMsg(dst, requestID, responseTo, encodeReplyDoc(doc), false, false)
}
