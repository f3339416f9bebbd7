package engine

import (
	"crypto/md5"
	"encoding"
	"encoding/binary"
	"encoding/hex"
	"hash"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// cmdFileMD5 is filemd5 (CmdFileMD5, dbcommands.cpp): the MD5 of a GridFS
// file, the data of its chunks in <root>.chunks ({files_id, n, data}) in
// order of n, read through an index on them, never a collection scan. With
// partialOk it stops at the first missing chunk and returns the digest's
// state, which a later call resumes from (md5state and startAt).
func cmdFileMD5(e *Engine, req *request) (bson.D, error) {
	a := newArgs(req)
	root := "fs"
	if v, ok := a.get("root"); ok {
		s, isString := v.(string)
		if !isString {
			return nil, mongoerr.New(mongoerr.InvalidNamespace, "'root' must be of type String")
		}
		if s != "" {
			root = s
		}
	}
	collName := root + ".chunks"
	digest := md5.New()
	n := int32(0)
	partialOK := false
	if v, ok := a.get("partialOk"); ok {
		partialOK = expr.IsTrue(v)
	}
	if partialOK {
		if v, ok := a.get("md5state"); ok {
			state, isBinary := v.(bson.Binary)
			if !isBinary {
				return nil, mongoerr.Newf(50847, "The element that calls binDataClean() must be type of BinData, but type of %s found.", value.TypeName(v))
			}
			if err := restoreMD5(digest, state.Data); err != nil {
				return nil, err
			}
		}
		if v, ok := a.get("startAt"); ok {
			n = numberInt(v)
		}
	}
	filter := bson.D{{Key: "files_id", Value: req.cmd[0].Value}, {Key: "n", Value: bson.D{{Key: "$gte", Value: n}}}}
	f, err := query.Compile(filter, query.Options{Now: req.now})
	if err != nil {
		return nil, mongoerr.New(17240, "Can't canonicalize query "+value.Format(filter))
	}
	coll := e.catalog.Snapshot(req.db, collName)
	if coll != nil && coll.Kind != catalog.KindCollection {
		return nil, errViewNotCollection(req.db, collName)
	}
	exec, err := e.plan(coll, ns(req.db, collName), planner.Query{
		Filter: f, Sort: bson.D{{Key: "files_id", Value: int32(1)}, {Key: "n", Value: int32(1)}}, NoTableScan: true, Ctx: req.ctx,
	})
	if err != nil {
		return nil, err
	}
	for {
		r, ok, err := exec.Next()
		if err != nil {
			return nil, filemd5Context(err)
		}
		if !ok {
			break
		}
		// The filter's $gte on n only matches numbers.
		if got := numberInt(value.Get(r.Doc, "n")); got != n {
			if partialOK {
				break
			}
			return nil, filemd5Context(mongoerr.New(10040, "chunks out of order"))
		}
		data := value.Get(r.Doc, "data")
		if value.IsMissing(data) {
			return nil, filemd5Context(mongoerr.New(50848, "The element that calls binDataClean() must be type of BinData, but type of misisng found. Field name is required"))
		}
		b, isBinary := data.(bson.Binary)
		if !isBinary {
			return nil, filemd5Context(mongoerr.Newf(50849, "The element that calls binDataClean() must be type of BinData, but type of %s found.", value.TypeName(data)))
		}
		digest.Write(b.Data)
		n++
	}
	e.planRan(req, exec)
	out := bson.D{}
	if partialOK {
		out = append(out, bson.E{Key: "md5state", Value: bson.Binary{Data: saveMD5(digest)}})
	}
	return append(out,
		bson.E{Key: "numChunks", Value: n},
		bson.E{Key: "md5", Value: hex.EncodeToString(digest.Sum(nil))},
	), nil
}

// numberInt is BSONElement::numberInt: a number as an int, anything else
// 0.
func numberInt(v any) int32 {
	n, _ := value.CoerceToInt(v)
	return n
}

func filemd5Context(err error) error {
	me := mongoerr.As(err)
	return mongoerr.New(me.Code, "Executor error during filemd5 command :: caused by :: "+me.Msg)
}

// md5StateSize is sizeof(md5_state_t) in MongoDB 8.0's MD5 (the RFC 1321
// implementation in src/mongo/util/md5.h): the message length in bits as
// two 32-bit words, low word first, the four 32-bit digest words, and the
// 64-byte block being filled, all little-endian as on the x86 and ARM
// servers MongoDB ships for. md5state is that struct's bytes.
const md5StateSize = 8 + 16 + 64

// Go's MD5 marshals its state as "md5\x01", the four digest words and
// the block buffer, and the length in bytes, big-endian.
const goMD5Magic = "md5\x01"

// saveMD5 is the digest's state in md5_state_t's layout.
func saveMD5(h hash.Hash) []byte {
	g, _ := h.(encoding.BinaryMarshaler).MarshalBinary()
	state := make([]byte, md5StateSize)
	words, block := g[len(goMD5Magic):len(goMD5Magic)+16], g[len(goMD5Magic)+16:len(goMD5Magic)+16+64]
	bits := binary.BigEndian.Uint64(g[len(g)-8:]) * 8
	binary.LittleEndian.PutUint32(state[0:], uint32(bits))
	binary.LittleEndian.PutUint32(state[4:], uint32(bits>>32))
	for i := 0; i < 4; i++ {
		binary.LittleEndian.PutUint32(state[8+4*i:], binary.BigEndian.Uint32(words[4*i:]))
	}
	copy(state[24:], block)
	return state
}

// restoreMD5 sets the digest to a state saveMD5 returned, refusing one of
// another size as mongod does (massert 16247).
func restoreMD5(h hash.Hash, state []byte) error {
	if len(state) != md5StateSize {
		return mongoerr.New(16247, "md5 state not correct size")
	}
	bits := uint64(binary.LittleEndian.Uint32(state[0:])) | uint64(binary.LittleEndian.Uint32(state[4:]))<<32
	g := make([]byte, 0, len(goMD5Magic)+16+64+8)
	g = append(g, goMD5Magic...)
	for i := 0; i < 4; i++ {
		g = binary.BigEndian.AppendUint32(g, binary.LittleEndian.Uint32(state[8+4*i:]))
	}
	g = append(g, state[24:]...)
	g = binary.BigEndian.AppendUint64(g, bits/8)
	return h.(encoding.BinaryUnmarshaler).UnmarshalBinary(g)
}
