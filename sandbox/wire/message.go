package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"runtime"
	"strconv"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// Opcodes of the MongoDB wire protocol (mongo/rpc/message.h).
const (
	opReply       = 1
	opUpdate      = 2001
	opInsert      = 2002
	opQuery       = 2004
	opGetMore     = 2005
	opDelete      = 2006
	opKillCursors = 2007
	opCompressed  = 2012
	opMsg         = 2013
	headerSize    = 16
)

// OP_MSG flag bits.
const (
	flagChecksumPresent = 1 << 0
	flagMoreToCome      = 1 << 1
	flagExhaustAllowed  = 1 << 16
	// The low 16 bits are "required": a receiver must refuse bits it does
	// not know there, and may ignore unknown bits in the high half.
	requiredFlagMask = 0xffff
	knownFlags       = flagChecksumPresent | flagMoreToCome
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// header is the 16-byte message header that starts every message.
type header struct {
	length     int32
	requestID  int32
	responseTo int32
	opCode     int32
}

func parseHeader(b []byte) header {
	return header{
		length:     int32(binary.LittleEndian.Uint32(b[0:])),
		requestID:  int32(binary.LittleEndian.Uint32(b[4:])),
		responseTo: int32(binary.LittleEndian.Uint32(b[8:])),
		opCode:     int32(binary.LittleEndian.Uint32(b[12:])),
	}
}

// request is one decoded client message.
type request struct {
	header header
	// cmd is the command document: for OP_MSG the body with its kind-1
	// document sequences folded in as arrays, for OP_QUERY the query.
	cmd bson.D
	// OP_MSG only.
	flags uint32
	// sequences names the fields of cmd that came as kind-1 document
	// sequences, in the order they follow the body's fields.
	sequences []string
	// OP_QUERY only: "<db>.$cmd" or a collection namespace.
	fullCollectionName string
	// replyErr, when set, is answered instead of running cmd: the message
	// was readable enough to reply to but mongod refuses it.
	replyErr bson.D
}

func (r *request) moreToCome() bool {
	return r.header.opCode == opMsg && r.flags&flagMoreToCome != 0
}

// awaitableHello: a hello of the streaming monitoring protocol, which
// waits for a topology change (stream.go).
func (r *request) awaitableHello() bool {
	if r.header.opCode != opMsg || r.replyErr != nil || r.moreToCome() || len(r.cmd) == 0 {
		return false
	}
	switch r.cmd[0].Key {
	case "hello", "isMaster", "ismaster":
		return !isMissing(value.Get(r.cmd, "maxAwaitTimeMS"))
	}
	return false
}

func (r *request) checksummed() bool {
	return r.header.opCode == opMsg && r.flags&flagChecksumPresent != 0
}

// errCloseConnection marks a message mongod answers by closing the
// connection: a broken frame, an unsupported opcode, or an OP_MSG parse
// error in the ConnectionFatalMessageParseError category.
type errCloseConnection struct{ reason string }

func (e *errCloseConnection) Error() string { return e.reason }

func closeConn(format string, args ...any) error {
	return &errCloseConnection{reason: fmt.Sprintf(format, args...)}
}

// decodeMessage decodes one complete message (header included). It returns
// a request, a request whose replyErr must be sent back, or an
// *errCloseConnection. It never panics on any input.
func decodeMessage(msg []byte) (*request, error) { return decodeMessageWith(msg, decodeOptions{}) }

// decodeOptions are what a reader of messages other than the server
// may skip.
type decodeOptions struct {
	// skipInsertDocuments leaves an insert's document sequence
	// undecoded: its documents are validated as the server's decoder
	// would refuse them, but not built.
	skipInsertDocuments bool
}

func decodeMessageWith(msg []byte, opts decodeOptions) (*request, error) {
	if len(msg) < headerSize {
		return nil, closeConn("message shorter than its header (%d bytes)", len(msg))
	}
	h := parseHeader(msg)
	if int(h.length) != len(msg) {
		return nil, closeConn("message length %d does not match its %d bytes", h.length, len(msg))
	}
	if h.length > vocab.MaxMessageSize {
		return nil, closeConn("message length %d is over %d", h.length, vocab.MaxMessageSize)
	}
	body := msg[headerSize:]
	switch h.opCode {
	case opMsg:
		return decodeOpMsg(h, msg, body, opts)
	case opQuery:
		return decodeOpQuery(h, body)
	case opGetMore:
		// mongod still answers a legacy OP_GET_MORE, with an OP_REPLY error.
		return &request{header: h, replyErr: legacyOpcodeError("OP_GET_MORE is no longer supported")}, nil
	case opInsert, opUpdate, opDelete, opKillCursors:
		// Fire-and-forget legacy writes: mongod logs and drops them, no reply.
		return &request{header: h}, nil
	case opCompressed:
		// hello never offers compression, so a compressed message is a
		// protocol violation from this server's point of view.
		return nil, closeConn("OP_COMPRESSED received but compression was not negotiated")
	default:
		return nil, closeConn("Message type %d is not supported.", h.opCode)
	}
}

func decodeOpMsg(h header, msg, body []byte, opts decodeOptions) (*request, error) {
	if len(body) < 4 {
		return nil, closeConn("OP_MSG without flags")
	}
	req := &request{header: h, flags: binary.LittleEndian.Uint32(body)}
	if req.flags&^knownFlags&requiredFlagMask != 0 {
		return nil, closeConn("Message contains illegal flags value: Ob%032b", req.flags)
	}
	sections := body[4:]
	if req.flags&flagChecksumPresent != 0 {
		if len(sections) < 4 {
			return nil, closeConn("OP_MSG checksum flag set but message too short")
		}
		n := len(msg) - 4
		want := binary.LittleEndian.Uint32(msg[n:])
		if crc32.Checksum(msg[:n], castagnoli) != want {
			return nil, closeConn("OP_MSG checksum does not match contents")
		}
		sections = sections[:len(sections)-4]
	}
	cmd, sequences, errReply := decodeSections(sections, opts)
	if errReply != nil {
		req.replyErr = errReply
		return req, nil
	}
	req.cmd, req.sequences = cmd, sequences
	return req, nil
}

type docSequence struct {
	name string
	docs bson.A
	// unbuilt holds the validated documents of a sequence whose
	// building waits for the body (decodeOptions.skipInsertDocuments).
	unbuilt []byte
}

// decodeSections parses the OP_MSG sections and folds document sequences
// into the body, the shape the engine and mongod's IDL parsers see, after
// the body's own fields; it also returns the sequences' names.
func decodeSections(b []byte, opts decodeOptions) (bson.D, []string, bson.D) {
	var body bson.D
	haveBody := false
	var seqs []docSequence
	// One decoder for the whole message keeps one copy of the field names
	// shared by an insert batch's documents.
	var dec value.Decoder
	for len(b) > 0 {
		kind := b[0]
		b = b[1:]
		switch kind {
		case 0:
			if haveBody {
				return nil, nil, wireError(40430, "Multiple body sections in message")
			}
			hollow := ""
			if opts.skipInsertDocuments && firstKey(b) == "insert" {
				hollow = "documents"
			}
			doc, rest, err := readDocumentWith(&dec, b, hollow)
			if err != nil {
				return nil, nil, invalidBSON(err)
			}
			body, b, haveBody = doc, rest, true
		case 1:
			if len(b) < 4 {
				return nil, nil, invalidBSON(errors.New("truncated document sequence"))
			}
			size := int(int32(binary.LittleEndian.Uint32(b)))
			if size < 5 || size > len(b) {
				return nil, nil, invalidBSON(fmt.Errorf("invalid document sequence size %d", size))
			}
			seq := b[4:size]
			b = b[size:]
			nul := indexZero(seq)
			if nul < 0 {
				return nil, nil, invalidBSON(errors.New("unterminated document sequence identifier"))
			}
			name := string(seq[:nul])
			seq = seq[nul+1:]
			for _, s := range seqs {
				if s.name == name {
					return nil, nil, wireError(40431, "Duplicate document sequence: "+name)
				}
			}
			if opts.skipInsertDocuments && name == "documents" {
				// Built below only if the body turns out not to be an
				// insert's.
				if err := validateSequence(seq); err != nil {
					return nil, nil, invalidBSON(err)
				}
				seqs = append(seqs, docSequence{name: name, unbuilt: seq})
				continue
			}
			docs, err := decodeSequence(&dec, seq)
			if err != nil {
				return nil, nil, invalidBSON(err)
			}
			seqs = append(seqs, docSequence{name: name, docs: docs})
		default:
			return nil, nil, wireError(40432, "Unknown section kind "+strconv.Itoa(int(kind)))
		}
	}
	if !haveBody {
		return nil, nil, wireError(40587, "OP_MSG messages must have a body")
	}
	for i, s := range seqs {
		if s.unbuilt == nil {
			continue
		}
		if len(body) > 0 && body[0].Key == "insert" {
			seqs[i].docs = bson.A{}
			continue
		}
		docs, err := decodeSequence(&dec, s.unbuilt)
		if err != nil {
			return nil, nil, invalidBSON(err)
		}
		seqs[i].docs = docs
	}
	if len(seqs) == 0 {
		return body, nil, nil
	}
	cmd := make(bson.D, 0, len(body)+len(seqs))
	cmd = append(cmd, body...)
	names := make([]string, len(seqs))
	for i, s := range seqs {
		names[i] = s.name
		for _, e := range body {
			if e.Key == s.name {
				return nil, nil, wireError(40433, "Duplicate field between body and document sequence "+s.name)
			}
		}
		cmd = append(cmd, bson.E{Key: s.name, Value: s.docs})
	}
	return cmd, names, nil
}

func decodeOpQuery(h header, b []byte) (*request, error) {
	req := &request{header: h}
	if len(b) < 4 {
		return nil, closeConn("truncated OP_QUERY")
	}
	b = b[4:] // flags: tailable, slaveOk, ... nothing a command needs
	nul := indexZero(b)
	if nul < 0 {
		return nil, closeConn("OP_QUERY namespace is not terminated")
	}
	req.fullCollectionName = string(b[:nul])
	b = b[nul+1:]
	if len(b) < 8 {
		return nil, closeConn("truncated OP_QUERY")
	}
	b = b[8:] // numberToSkip, numberToReturn
	// DbMessage::nextJsObj words validation failures its own way, all as
	// InvalidBSON.
	if len(b) < 5 {
		req.replyErr = wireError(mongoerr.InvalidBSON, "Client Error: Remaining data too small for BSON object")
		return req, nil
	}
	query, _, err := readDocument(b)
	if err != nil {
		req.replyErr = wireError(mongoerr.InvalidBSON, "Client Error: bad object in message: "+err.Error())
		return req, nil
	}
	// Old drivers wrap commands as {$query: {...}, $readPreference: ...}.
	if len(query) > 0 && (query[0].Key == "$query" || query[0].Key == "query") {
		if inner, ok := query[0].Value.(bson.D); ok {
			query = inner
		}
	}
	req.cmd = query
	return req, nil
}

// readDocument decodes the BSON document at the start of b.
func readDocument(b []byte) (bson.D, []byte, error) {
	var dec value.Decoder
	return readDocumentWith(&dec, b, "")
}

// readDocumentWith decodes the document at the start of b, which may hold
// more after it. A document mongod's validateBSON would refuse fails with
// mongod's error (InvalidBSON, or Overflow for nesting), before any
// command sees it.
// readDocumentWith reads the document at the start of b; a hollow field
// is validated but not built (value.Decoder.DecodeHollow).
func readDocumentWith(dec *value.Decoder, b []byte, hollow string) (bson.D, []byte, error) {
	var decodeErr error
	if len(b) >= 5 {
		if size := int(int32(binary.LittleEndian.Uint32(b))); size >= 5 && size <= len(b) {
			var doc bson.D
			var err error
			if hollow != "" {
				doc, err = dec.DecodeHollow(b[:size], hollow)
			} else {
				doc, err = dec.Decode(b[:size])
			}
			if err == nil {
				return doc, b[size:], nil
			}
			decodeErr = err
		}
	}
	return nil, nil, validationError(b, decodeErr)
}

// validationError words a document the decoder refused: the validator
// walks it again, this time for mongod's message and context. Only the
// decoder's own extra refusal (see value.readBinary) keeps its message.
func validationError(b []byte, decodeErr error) error {
	if err := value.Validate(b); err != nil {
		return err
	}
	return mongoerr.New(mongoerr.InvalidBSON, decodeErr.Error())
}

// firstKey is the name of the first field of the document at the start
// of b, or "" when there is none to read.
func firstKey(b []byte) string {
	if len(b) < 6 {
		return ""
	}
	if end := indexZero(b[5:]); end >= 0 {
		return string(b[5 : 5+end])
	}
	return ""
}

func indexZero(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}

// invalidBSON answers a message whose framing or documents mongod refuses
// while parsing it.
func invalidBSON(err error) bson.D {
	if me, ok := err.(*mongoerr.Error); ok {
		return engine.ErrorReply(me)
	}
	return wireError(mongoerr.InvalidBSON, err.Error())
}

// wireError is the reply to a message whose framing mongod refuses.
func wireError(code int32, msg string) bson.D {
	return engine.ErrorReply(mongoerr.New(code, msg))
}

// legacyOpcodeError is mongod's OP_REPLY document for removed legacy
// opcodes (makeErrorResponseToUnsupportedOpQuery).
func legacyOpcodeError(what string) bson.D {
	return bson.D{
		{Key: "$err", Value: what + ". The client driver may require an upgrade. For more details see https://dochub.mongodb.org/core/legacy-opcode-removal"},
		{Key: "code", Value: int32(5739101)},
		{Key: "ok", Value: 0.0},
	}
}

// parallelDecodeMin is the document count above which a sequence is
// decoded on every core: a large insertMany batch arrives while the client
// waits for the reply, so the other core is otherwise idle.
const parallelDecodeMin = 2048

// validateSequence checks the documents of a kind-1 section as
// decodeSequence would, without building them.
func validateSequence(seq []byte) error {
	for off := 0; off < len(seq); {
		size := 0
		if len(seq)-off >= 5 {
			size = int(int32(binary.LittleEndian.Uint32(seq[off:])))
		}
		if err := value.Validate(seq[off:]); err != nil {
			return err
		}
		off += size
	}
	return nil
}

// decodeSequence decodes the documents of a kind-1 section in order.
func decodeSequence(dec *value.Decoder, seq []byte) (bson.A, error) {
	var bounds []int // start offsets; the last entry is len(seq)
	for off := 0; off < len(seq); {
		size := 0
		if len(seq)-off >= 5 {
			size = int(int32(binary.LittleEndian.Uint32(seq[off:])))
		}
		if size < 5 || size > len(seq)-off {
			return nil, value.Validate(seq[off:])
		}
		bounds = append(bounds, off)
		off += size
	}
	bounds = append(bounds, len(seq))
	n := len(bounds) - 1
	docs := make(bson.A, n)
	workers := min(runtime.GOMAXPROCS(0), 8)
	if n < parallelDecodeMin || workers < 2 {
		for i := range n {
			d, err := dec.Decode(seq[bounds[i]:bounds[i+1]])
			if err != nil {
				return nil, validationError(seq[bounds[i]:], err)
			}
			docs[i] = d
		}
		return docs, nil
	}
	errs := make([]error, workers)
	var wg sync.WaitGroup
	chunk := (n + workers - 1) / workers
	for w := range workers {
		lo, hi := w*chunk, min((w+1)*chunk, n)
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var own value.Decoder
			for i := lo; i < hi; i++ {
				d, err := own.Decode(seq[bounds[i]:bounds[i+1]])
				if err != nil {
					errs[w] = validationError(seq[bounds[i]:], err)
					return
				}
				docs[i] = d
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return docs, nil
}
