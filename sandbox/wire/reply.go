package wire

import (
	"encoding/binary"
	"hash/crc32"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// encodeReplyDoc encodes a reply document; a reply the codec cannot encode
// (a handler bug) becomes an InternalError instead of a dropped connection.
func encodeReplyDoc(doc bson.D) []byte {
	b, err := value.Encode(doc)
	if err != nil {
		b, _ = value.Encode(engine.ErrorReply(mongoerr.Newf(mongoerr.InternalError, "cannot encode reply: %v", err)))
	}
	return b
}

// appendOpMsg builds an OP_MSG reply with a single kind-0 section. The
// checksum is added when the request carried one, as mongod does;
// moreToCome marks a reply of an exhaust stream that others follow.
func appendOpMsg(dst []byte, requestID, responseTo int32, doc []byte, checksum, moreToCome bool) []byte {
	length := headerSize + 4 + 1 + len(doc)
	var flags uint32
	if moreToCome {
		flags |= flagMoreToCome
	}
	if checksum {
		length += 4
		flags |= flagChecksumPresent
	}
	start := len(dst)
	dst = appendHeader(dst, int32(length), requestID, responseTo, opMsg)
	dst = binary.LittleEndian.AppendUint32(dst, flags)
	dst = append(dst, 0)
	dst = append(dst, doc...)
	if checksum {
		dst = binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli))
	}
	return dst
}

// ResultFlag_ErrSet in an OP_REPLY: the single document is an error.
const replyFlagErrSet = 2

// appendOpReply builds a legacy OP_REPLY with one document.
func appendOpReply(dst []byte, requestID, responseTo int32, flags int32, doc []byte) []byte {
	length := headerSize + 4 + 8 + 4 + 4 + len(doc)
	dst = appendHeader(dst, int32(length), requestID, responseTo, opReply)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(flags))
	dst = binary.LittleEndian.AppendUint64(dst, 0) // cursorID
	dst = binary.LittleEndian.AppendUint32(dst, 0) // startingFrom
	dst = binary.LittleEndian.AppendUint32(dst, 1) // numberReturned
	return append(dst, doc...)
}

func appendHeader(dst []byte, length, requestID, responseTo, opCode int32) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(length))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(requestID))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(responseTo))
	return binary.LittleEndian.AppendUint32(dst, uint32(opCode))
}
