package shell

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// natives builds the object the prelude calls into.
func (s *Shell) natives() *goja.Object {
	n := s.vm.NewObject()
	_ = n.Set("typeSymbol", s.typeSym)
	s.bsonNatives(n)
	set := func(name string, fn func(goja.FunctionCall) goja.Value) { _ = n.Set(name, fn) }

	set("print", func(c goja.FunctionCall) goja.Value {
		s.printArgs(c.Arguments, resultFormat)
		return goja.Undefined()
	})
	set("printjson", func(c goja.FunctionCall) goja.Value {
		s.printArgs(c.Arguments, printJSONFormat)
		return goja.Undefined()
	})

	set("insertOne", func(c goja.FunctionCall) goja.Value {
		o, ok := c.Argument(2).(*goja.Object)
		if !ok || o.ClassName() == "Array" {
			s.throw("MongoInvalidArgumentError", "Document must be an object")
		}
		// mongosh inserts a copy ({ ...doc }), so the caller's object is
		// not given the generated _id.
		doc, id, _, err := s.encodeDoc(nil, o, true)
		if err != nil {
			s.throw("BSONError", "%s", err.Error())
		}
		_, wes, err := s.insertDocs(c.Argument(0).String(), c.Argument(1).String(), [][]byte{doc}, true)
		if err != nil {
			s.throwDriver(err)
		}
		if len(wes) > 0 {
			s.throwDriver(mongo.WriteException{WriteErrors: mongo.WriteErrors{{Index: 0, Code: wes[0].Code, Message: wes[0].Message, Details: wes[0].Details}}})
		}
		r := s.vm.NewObject()
		_ = r.Set("acknowledged", true)
		_ = r.Set("insertedId", s.fromBSON(id))
		return r
	})
	set("insertMany", func(c goja.FunctionCall) goja.Value { return s.insertMany(c) })
	set("update", func(c goja.FunctionCall) goja.Value { return s.update(c) })
	set("deleteDocs", func(c goja.FunctionCall) goja.Value {
		coll := s.coll(c.Argument(0), c.Argument(1))
		many := c.Argument(2).ToBoolean()
		filter := s.mustDoc(c.Argument(3), "filter")
		opts := s.optDoc(c.Argument(4))
		var res *mongo.DeleteResult
		var err error
		if many {
			o := options.DeleteMany()
			if h := lookupD(opts, "hint"); h != nil {
				o.SetHint(h)
			}
			res, err = coll.DeleteMany(s.ctx, filter, o)
		} else {
			o := options.DeleteOne()
			if h := lookupD(opts, "hint"); h != nil {
				o.SetHint(h)
			}
			res, err = coll.DeleteOne(s.ctx, filter, o)
		}
		if err != nil {
			s.throwDriver(err)
		}
		r := s.vm.NewObject()
		_ = r.Set("acknowledged", true)
		_ = r.Set("deletedCount", res.DeletedCount)
		return r
	})
	set("findOne", func(c goja.FunctionCall) goja.Value {
		spec := s.optDoc(c.Argument(4))
		spec = setD(spec, "filter", s.mustDoc(c.Argument(2), "filter"))
		if p := c.Argument(3); !isNullish(p) {
			spec = setD(spec, "projection", s.mustDoc(p, "projection"))
		}
		spec = setD(spec, "limit", int64(1))
		spec = setD(spec, "singleBatch", true)
		cur := s.openFind(c.Argument(0).String(), c.Argument(1).String(), spec)
		defer cur.Close(context.WithoutCancel(s.ctx))
		if cur.Next(s.ctx) {
			return s.fromRaw(cur.Current)
		}
		if err := cur.Err(); err != nil {
			s.throwDriver(err)
		}
		return goja.Null()
	})
	set("openCursor", func(c goja.FunctionCall) goja.Value {
		db := c.Argument(0).String()
		kind := c.Argument(2).String()
		spec := s.optDoc(c.Argument(3))
		h := &cursorHandle{}
		switch kind {
		case "find":
			h.cur = s.openFind(db, c.Argument(1).String(), spec)
		default:
			h.cur = s.openAggregate(db, c.Argument(1), spec)
		}
		return s.vm.ToValue(h)
	})
	set("cursorHasNext", func(c goja.FunctionCall) goja.Value {
		return s.vm.ToValue(s.cursorPeek(c.Argument(0)))
	})
	set("cursorNext", func(c goja.FunctionCall) goja.Value {
		h := s.handle(c.Argument(0))
		if !s.cursorPeek(c.Argument(0)) {
			return goja.Null()
		}
		h.peeked = false
		return s.fromRaw(h.cur.Current)
	})
	set("cursorClose", func(c goja.FunctionCall) goja.Value {
		h := s.handle(c.Argument(0))
		if h.cur != nil {
			_ = h.cur.Close(context.WithoutCancel(s.ctx))
		}
		h.done = true
		return goja.Undefined()
	})
	set("countDocuments", func(c goja.FunctionCall) goja.Value {
		coll := s.coll(c.Argument(0), c.Argument(1))
		filter := s.mustDoc(c.Argument(2), "filter")
		opts := s.optDoc(c.Argument(3))
		o := options.Count()
		if v, ok := numberOpt(opts, "limit"); ok && v != 0 {
			o.SetLimit(v)
		}
		if v, ok := numberOpt(opts, "skip"); ok && v != 0 {
			o.SetSkip(v)
		}
		if h := lookupD(opts, "hint"); h != nil {
			o.SetHint(h)
		}
		n, err := coll.CountDocuments(s.ctx, filter, o)
		if err != nil {
			s.throwDriver(err)
		}
		return s.vm.ToValue(n)
	})
	set("countCommand", func(c goja.FunctionCall) goja.Value {
		cmd := bson.D{{Key: "count", Value: c.Argument(1).String()}, {Key: "query", Value: s.mustDoc(c.Argument(2), "query")}}
		cmd = append(cmd, s.optDoc(c.Argument(3))...)
		res := s.command(c.Argument(0).String(), cmd)
		return s.vm.ToValue(toInt64(lookupD(res, "n")))
	})
	set("estimatedCount", func(c goja.FunctionCall) goja.Value {
		res := s.command(c.Argument(0).String(), bson.D{{Key: "count", Value: c.Argument(1).String()}})
		return s.vm.ToValue(toInt64(lookupD(res, "n")))
	})
	set("distinct", func(c goja.FunctionCall) goja.Value {
		cmd := bson.D{
			{Key: "distinct", Value: c.Argument(1).String()},
			{Key: "key", Value: c.Argument(2).String()},
			{Key: "query", Value: s.mustDoc(c.Argument(3), "query")},
		}
		cmd = append(cmd, s.optDoc(c.Argument(4))...)
		res := s.command(c.Argument(0).String(), cmd)
		return s.fromBSON(lookupD(res, "values"))
	})
	set("runCommand", func(c goja.FunctionCall) goja.Value {
		cmd := s.mustDoc(c.Argument(1), "command")
		return s.fromBSON(s.command(c.Argument(0).String(), cmd))
	})
	set("explainCommand", func(c goja.FunctionCall) goja.Value {
		cmd := s.mustDoc(c.Argument(1), "command")
		return s.explainResult(c.Argument(0).String(), cmd, c.Argument(2))
	})
	set("explain", func(c goja.FunctionCall) goja.Value {
		db := c.Argument(0).String()
		spec := s.optDoc(c.Argument(3))
		var cmd bson.D
		if c.Argument(2).String() == "find" {
			cmd = findCommand(c.Argument(1).String(), spec)
		} else {
			cmd = aggregateCommand(s.aggTarget(c.Argument(1)), spec)
		}
		return s.explainResult(db, cmd, c.Argument(4))
	})
	set("findAndModify", func(c goja.FunctionCall) goja.Value { return s.findAndModify(c) })
	set("bulkWrite", func(c goja.FunctionCall) goja.Value { return s.bulkWrite(c) })
	set("createIndexes", func(c goja.FunctionCall) goja.Value {
		db, collName := c.Argument(0).String(), c.Argument(1).String()
		keysList, ok := s.mustValue(c.Argument(2)).(bson.A)
		if !ok {
			s.throw("MongoshInvalidInputError", "The \"indexSpecs\" argument must be an array of index specs")
		}
		opts := s.optDoc(c.Argument(3))
		var specs bson.A
		var names []any
		for _, k := range keysList {
			keys, ok := k.(bson.D)
			if !ok {
				s.throw("MongoshInvalidInputError", "The \"keys\" argument must be an object")
			}
			spec := bson.D{{Key: "key", Value: keys}}
			name, _ := lookupD(opts, "name").(string)
			if name == "" || len(keysList) > 1 {
				name = indexName(keys)
			}
			spec = append(spec, bson.E{Key: "name", Value: name})
			for _, e := range opts {
				if e.Key != "name" {
					spec = append(spec, e)
				}
			}
			specs = append(specs, spec)
			names = append(names, name)
		}
		s.command(db, bson.D{{Key: "createIndexes", Value: collName}, {Key: "indexes", Value: specs}})
		return s.fromBSON(bson.A(names))
	})
	set("getIndexes", func(c goja.FunctionCall) goja.Value {
		docs := s.cursorCommand(c.Argument(0).String(), bson.D{{Key: "listIndexes", Value: c.Argument(1).String()}})
		return s.fromBSON(docs)
	})
	set("listCollections", func(c goja.FunctionCall) goja.Value {
		cmd := bson.D{{Key: "listCollections", Value: 1}, {Key: "filter", Value: s.mustDoc(c.Argument(1), "filter")}}
		if c.Argument(2).ToBoolean() {
			cmd = append(cmd, bson.E{Key: "nameOnly", Value: true})
		}
		return s.fromBSON(s.cursorCommand(c.Argument(0).String(), cmd))
	})
	set("listDatabases", func(goja.FunctionCall) goja.Value {
		res := s.command("admin", bson.D{{Key: "listDatabases", Value: 1}})
		return s.fromBSON(lookupD(res, "databases"))
	})
	set("dropCollection", func(c goja.FunctionCall) goja.Value {
		_, err := s.rawCommand(c.Argument(0).String(), bson.D{{Key: "drop", Value: c.Argument(1).String()}})
		if err != nil {
			var ce mongo.CommandError
			if errors.As(err, &ce) && ce.Code == 26 {
				return s.vm.ToValue(false)
			}
			s.throwDriver(err)
		}
		return s.vm.ToValue(true)
	})
	set("dropDatabase", func(c goja.FunctionCall) goja.Value {
		name := c.Argument(0).String()
		s.command(name, bson.D{{Key: "dropDatabase", Value: 1}})
		r := s.vm.NewObject()
		_ = r.Set("ok", 1)
		_ = r.Set("dropped", name)
		return r
	})
	return n
}

func (s *Shell) printArgs(args []goja.Value, opts FormatOptions) {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = formatPrintArg(s.display(a), opts)
	}
	s.out.write(strings.Join(parts, " ")+"\n", true)
}

// mustDoc converts a JS argument that must be a document, throwing a
// TypeError otherwise.
func (s *Shell) mustDoc(v goja.Value, what string) bson.D {
	if isNullish(v) {
		return bson.D{}
	}
	d, err := s.toDoc(v, what)
	if err != nil {
		s.throw("TypeError", "%s", err.Error())
	}
	return d
}

func (s *Shell) mustValue(v goja.Value) any {
	x, err := s.toBSON(v, 0, false)
	if err != nil {
		s.throw("TypeError", "%s", err.Error())
	}
	return x
}

func (s *Shell) optDoc(v goja.Value) bson.D {
	if isNullish(v) {
		return nil
	}
	return s.mustDoc(v, "options")
}

func (s *Shell) coll(db, name goja.Value) *mongo.Collection {
	return s.client.Database(db.String()).Collection(name.String())
}

// ensureID gives a document an _id as the Node driver does: a new
// ObjectId placed first, also set on the caller's object.
func (s *Shell) ensureID(src goja.Value, doc bson.D) (bson.D, any) {
	for _, e := range doc {
		if e.Key == "_id" {
			return doc, e.Value
		}
	}
	id := bson.NewObjectID()
	out := make(bson.D, 0, len(doc)+1)
	out = append(out, bson.E{Key: "_id", Value: id})
	out = append(out, doc...)
	if o, ok := src.(*goja.Object); ok {
		_ = o.Set("_id", s.box(id))
	}
	return out, id
}

func (s *Shell) insertMany(c goja.FunctionCall) goja.Value {
	arr, ok := c.Argument(2).(*goja.Object)
	if !ok || arr.ClassName() != "Array" {
		s.throw("MongoshInvalidInputError", "Argument 'docs' must be an array")
	}
	opts := s.optDoc(c.Argument(3))
	n := int(arr.Get("length").ToInteger())
	if n == 0 {
		s.throw("MongoInvalidArgumentError", "Invalid BulkOperation, Batch cannot be empty")
	}
	ids := make([]any, n)
	ends := make([]int, n)
	var buf []byte
	for i := range n {
		ev := arr.Get(indexKey(i))
		o, ok := ev.(*goja.Object)
		if !ok || o.ClassName() == "Array" {
			s.throw("MongoInvalidArgumentError", "Document must be an object")
		}
		var err error
		var generated bool
		if buf, ids[i], generated, err = s.encodeDoc(buf, o, true); err != nil {
			s.throw("BSONError", "%s", err.Error())
		}
		ends[i] = len(buf)
		if i == 0 {
			// One buffer for all documents: size it from the first.
			buf = slices.Grow(buf, len(buf)*(n-1)*9/8)
		}
		_ = generated // mongosh inserts copies ({ ...doc }): the caller's object keeps no _id
	}
	docs := make([][]byte, n)
	start := 0
	for i, end := range ends {
		docs[i] = buf[start:end:end]
		start = end
	}
	ordered := true
	if v, ok := lookupD(opts, "ordered").(bool); ok {
		ordered = v
	}
	_, wes, err := s.insertDocs(c.Argument(0).String(), c.Argument(1).String(), docs, ordered)
	if err != nil {
		s.throwDriver(err)
	}
	if len(wes) > 0 {
		bwe := mongo.BulkWriteException{}
		for _, we := range wes {
			bwe.WriteErrors = append(bwe.WriteErrors, mongo.BulkWriteError{WriteError: mongo.WriteError{Index: we.Index, Code: we.Code, Message: we.Message, Details: we.Details}})
		}
		opDocs := make([]any, n)
		for i, d := range docs {
			opDocs[i], _ = rawToD(d)
		}
		s.throwBulkError(bwe, ids, opDocs, ordered, &mongo.BulkWriteResult{})
	}
	r := s.vm.NewObject()
	_ = r.Set("acknowledged", true)
	idObj := s.vm.NewObject()
	for i, id := range ids {
		_ = idObj.Set(indexKey(i), s.fromBSON(id))
	}
	_ = r.Set("insertedIds", idObj)
	return r
}

func hasOperatorKey(d bson.D) bool {
	return len(d) > 0 && strings.HasPrefix(d[0].Key, "$")
}

// updateArg validates an update the way the Node driver does before sending.
func (s *Shell) updateArg(v goja.Value, replace bool) any {
	u := s.mustValue(v)
	switch x := u.(type) {
	case bson.A:
		if replace {
			s.throw("MongoInvalidArgumentError", "Replacement document must not contain atomic operators")
		}
		return x
	case bson.D:
		if replace {
			if hasOperatorKey(x) {
				s.throw("MongoInvalidArgumentError", "Replacement document must not contain atomic operators")
			}
			return x
		}
		if !hasOperatorKey(x) {
			s.throw("MongoInvalidArgumentError", "Update document requires atomic operators")
		}
		return x
	}
	s.throw("MongoInvalidArgumentError", "Update document requires atomic operators")
	return nil
}

func (s *Shell) update(c goja.FunctionCall) goja.Value {
	coll := s.coll(c.Argument(0), c.Argument(1))
	kind := c.Argument(2).String()
	filter := s.mustDoc(c.Argument(3), "filter")
	update := s.updateArg(c.Argument(4), kind == "replace")
	opts := s.optDoc(c.Argument(5))
	upsert, _ := lookupD(opts, "upsert").(bool)
	var arrayFilters []any
	if af, ok := lookupD(opts, "arrayFilters").(bson.A); ok {
		arrayFilters = af
	}
	hint := lookupD(opts, "hint")
	var res *mongo.UpdateResult
	var err error
	switch kind {
	case "one":
		o := options.UpdateOne().SetUpsert(upsert)
		if arrayFilters != nil {
			o.SetArrayFilters(arrayFilters)
		}
		if hint != nil {
			o.SetHint(hint)
		}
		if srt := lookupD(opts, "sort"); srt != nil {
			o.SetSort(srt)
		}
		res, err = coll.UpdateOne(s.ctx, filter, update, o)
	case "many":
		o := options.UpdateMany().SetUpsert(upsert)
		if arrayFilters != nil {
			o.SetArrayFilters(arrayFilters)
		}
		if hint != nil {
			o.SetHint(hint)
		}
		res, err = coll.UpdateMany(s.ctx, filter, update, o)
	default:
		o := options.Replace().SetUpsert(upsert)
		if hint != nil {
			o.SetHint(hint)
		}
		res, err = coll.ReplaceOne(s.ctx, filter, update, o)
	}
	if err != nil {
		s.throwDriver(err)
	}
	r := s.vm.NewObject()
	_ = r.Set("acknowledged", true)
	if res.UpsertedID != nil {
		_ = r.Set("insertedId", s.fromBSON(res.UpsertedID))
	} else {
		_ = r.Set("insertedId", goja.Null())
	}
	_ = r.Set("matchedCount", res.MatchedCount)
	_ = r.Set("modifiedCount", res.ModifiedCount)
	_ = r.Set("upsertedCount", res.UpsertedCount)
	return r
}

func (s *Shell) findAndModify(c goja.FunctionCall) goja.Value {
	coll := s.coll(c.Argument(0), c.Argument(1))
	kind := c.Argument(2).String()
	filter := s.mustDoc(c.Argument(3), "filter")
	opts := s.optDoc(c.Argument(5))
	after := false
	if rd, ok := lookupD(opts, "returnDocument").(string); ok {
		after = rd == "after"
	}
	if rn, ok := lookupD(opts, "returnNewDocument").(bool); ok {
		after = rn
	}
	upsert, _ := lookupD(opts, "upsert").(bool)
	proj := lookupD(opts, "projection")
	srt := lookupD(opts, "sort")
	var sr *mongo.SingleResult
	switch kind {
	case "update":
		u := s.updateArg(c.Argument(4), false)
		o := options.FindOneAndUpdate().SetUpsert(upsert)
		if after {
			o.SetReturnDocument(options.After)
		}
		if proj != nil {
			o.SetProjection(proj)
		}
		if srt != nil {
			o.SetSort(srt)
		}
		if af, ok := lookupD(opts, "arrayFilters").(bson.A); ok {
			o.SetArrayFilters(af)
		}
		sr = coll.FindOneAndUpdate(s.ctx, filter, u, o)
	case "replace":
		u := s.updateArg(c.Argument(4), true)
		o := options.FindOneAndReplace().SetUpsert(upsert)
		if after {
			o.SetReturnDocument(options.After)
		}
		if proj != nil {
			o.SetProjection(proj)
		}
		if srt != nil {
			o.SetSort(srt)
		}
		sr = coll.FindOneAndReplace(s.ctx, filter, u, o)
	default:
		o := options.FindOneAndDelete()
		if proj != nil {
			o.SetProjection(proj)
		}
		if srt != nil {
			o.SetSort(srt)
		}
		sr = coll.FindOneAndDelete(s.ctx, filter, o)
	}
	raw, err := sr.Raw()
	if err != nil {
		if errors.Is(err, mongo.ErrNoDocuments) {
			return goja.Null()
		}
		s.throwDriver(err)
	}
	return s.fromRaw(raw)
}

func (s *Shell) bulkWrite(c goja.FunctionCall) goja.Value {
	coll := s.coll(c.Argument(0), c.Argument(1))
	arr, ok := c.Argument(2).(*goja.Object)
	if !ok || arr.ClassName() != "Array" {
		s.throw("MongoshInvalidInputError", "Argument 'operations' must be an array")
	}
	opts := s.optDoc(c.Argument(3))
	n := int(arr.Get("length").ToInteger())
	models := make([]mongo.WriteModel, 0, n)
	insertIDs := map[int]any{}
	var docs []any
	for i := range n {
		opv := arr.Get(strconv.Itoa(i))
		opObj, ok := opv.(*goja.Object)
		if !ok || len(opObj.Keys()) != 1 {
			s.throw("MongoInvalidArgumentError", "Invalid BulkWriteModel")
		}
		name := opObj.Keys()[0]
		body, _ := opObj.Get(name).(*goja.Object)
		if body == nil {
			s.throw("MongoInvalidArgumentError", "Invalid BulkWriteModel")
		}
		get := func(k string) goja.Value { return body.Get(k) }
		upsert := get("upsert") != nil && get("upsert").ToBoolean()
		switch name {
		case "insertOne":
			dv := get("document")
			d, id := s.ensureID(dv, s.mustDoc(dv, "document"))
			insertIDs[i] = id
			docs = append(docs, d)
			models = append(models, mongo.NewInsertOneModel().SetDocument(d))
		case "updateOne", "updateMany":
			f := s.mustDoc(get("filter"), "filter")
			u := s.updateArg(get("update"), false)
			if name == "updateOne" {
				m := mongo.NewUpdateOneModel().SetFilter(f).SetUpdate(u).SetUpsert(upsert)
				if af, ok := s.mustValue(get("arrayFilters")).(bson.A); ok {
					m.SetArrayFilters(af)
				}
				models = append(models, m)
			} else {
				m := mongo.NewUpdateManyModel().SetFilter(f).SetUpdate(u).SetUpsert(upsert)
				if af, ok := s.mustValue(get("arrayFilters")).(bson.A); ok {
					m.SetArrayFilters(af)
				}
				models = append(models, m)
			}
		case "replaceOne":
			f := s.mustDoc(get("filter"), "filter")
			r := s.updateArg(get("replacement"), true)
			models = append(models, mongo.NewReplaceOneModel().SetFilter(f).SetReplacement(r).SetUpsert(upsert))
		case "deleteOne":
			models = append(models, mongo.NewDeleteOneModel().SetFilter(s.mustDoc(get("filter"), "filter")))
		case "deleteMany":
			models = append(models, mongo.NewDeleteManyModel().SetFilter(s.mustDoc(get("filter"), "filter")))
		default:
			s.throw("MongoInvalidArgumentError", "Invalid BulkWriteModel")
		}
	}
	ordered := true
	o := options.BulkWrite()
	if v, ok := lookupD(opts, "ordered").(bool); ok {
		ordered = v
		o.SetOrdered(v)
	}
	res, err := coll.BulkWrite(s.ctx, models, o)
	if err != nil {
		var bwe mongo.BulkWriteException
		if errors.As(err, &bwe) && len(bwe.WriteErrors) > 0 {
			ids := make([]any, n)
			for i, id := range insertIDs {
				ids[i] = id
			}
			if res == nil {
				res = &mongo.BulkWriteResult{}
			}
			s.throwBulkError(bwe, ids, nil, ordered, res)
		}
		s.throwDriver(err)
	}
	r := s.vm.NewObject()
	_ = r.Set("acknowledged", true)
	_ = r.Set("insertedCount", res.InsertedCount)
	ins := s.vm.NewObject()
	for i := range n {
		if id, ok := insertIDs[i]; ok {
			_ = ins.Set(strconv.Itoa(i), s.fromBSON(id))
		}
	}
	_ = r.Set("insertedIds", ins)
	_ = r.Set("matchedCount", res.MatchedCount)
	_ = r.Set("modifiedCount", res.ModifiedCount)
	_ = r.Set("deletedCount", res.DeletedCount)
	_ = r.Set("upsertedCount", res.UpsertedCount)
	ups := s.vm.NewObject()
	for i := range int64(n) {
		if id, ok := res.UpsertedIDs[i]; ok {
			_ = ups.Set(strconv.FormatInt(i, 10), s.fromBSON(id))
		}
	}
	_ = r.Set("upsertedIds", ups)
	return r
}

// ---- reads ---------------------------------------------------------------

type cursorHandle struct {
	cur    *mongo.Cursor
	peeked bool
	done   bool
}

func (s *Shell) handle(v goja.Value) *cursorHandle {
	h, ok := v.Export().(*cursorHandle)
	if !ok {
		s.throw("TypeError", "not a cursor")
	}
	return h
}

func (s *Shell) cursorPeek(v goja.Value) bool {
	h := s.handle(v)
	if h.done || h.cur == nil {
		return false
	}
	if h.peeked {
		return true
	}
	if h.cur.Next(s.ctx) {
		h.peeked = true
		return true
	}
	h.done = true
	if err := h.cur.Err(); err != nil {
		s.throwDriver(err)
	}
	return false
}

var findOptionKeys = []string{"sort", "projection", "hint", "skip", "limit", "batchSize", "singleBatch", "comment", "maxTimeMS", "collation", "min", "max", "allowDiskUse", "let", "returnKey", "showRecordId"}

// findCommand builds a find command from a cursor spec; a negative limit
// means a single batch, as in the shell.
func findCommand(coll string, spec bson.D) bson.D {
	cmd := bson.D{{Key: "find", Value: coll}}
	filter := lookupD(spec, "filter")
	if filter == nil {
		filter = bson.D{}
	}
	cmd = append(cmd, bson.E{Key: "filter", Value: filter})
	for _, k := range findOptionKeys {
		v := lookupD(spec, k)
		if v == nil {
			continue
		}
		if k == "limit" {
			l := toInt64(v)
			if l == 0 {
				continue
			}
			if l < 0 {
				cmd = append(cmd, bson.E{Key: "limit", Value: -l}, bson.E{Key: "singleBatch", Value: true})
				continue
			}
			v = l
		}
		if k == "skip" && toInt64(v) == 0 {
			continue
		}
		cmd = append(cmd, bson.E{Key: k, Value: v})
	}
	return cmd
}

func aggregateCommand(target any, spec bson.D) bson.D {
	pipeline := lookupD(spec, "pipeline")
	if pipeline == nil {
		pipeline = bson.A{}
	}
	cmd := bson.D{{Key: "aggregate", Value: target}, {Key: "pipeline", Value: pipeline}}
	cursor := bson.D{}
	if bs := lookupD(spec, "batchSize"); bs != nil {
		cursor = append(cursor, bson.E{Key: "batchSize", Value: bs})
	}
	cmd = append(cmd, bson.E{Key: "cursor", Value: cursor})
	for _, e := range spec {
		switch e.Key {
		case "pipeline", "batchSize", "explain", "cursor":
		default:
			cmd = append(cmd, e)
		}
	}
	return cmd
}

func (s *Shell) aggTarget(v goja.Value) any {
	if n, ok := v.Export().(int64); ok && n == 1 {
		return int32(1)
	}
	return v.String()
}

func (s *Shell) openFind(db, coll string, spec bson.D) *mongo.Cursor {
	cur, err := s.client.Database(db).RunCommandCursor(s.ctx, findCommand(coll, spec))
	if err != nil {
		s.throwDriver(err)
	}
	return cur
}

func (s *Shell) openAggregate(db string, target goja.Value, spec bson.D) *mongo.Cursor {
	cur, err := s.client.Database(db).RunCommandCursor(s.ctx, aggregateCommand(s.aggTarget(target), spec))
	if err != nil {
		s.throwDriver(err)
	}
	return cur
}

// cursorCommand runs a cursor-returning command and drains it.
func (s *Shell) cursorCommand(db string, cmd bson.D) bson.A {
	cur, err := s.client.Database(db).RunCommandCursor(s.ctx, cmd)
	if err != nil {
		s.throwDriver(err)
	}
	defer cur.Close(context.WithoutCancel(s.ctx))
	var out bson.A
	for cur.Next(s.ctx) {
		d, err := rawToD(cur.Current)
		if err != nil {
			s.throwDriver(err)
		}
		out = append(out, d)
	}
	if err := cur.Err(); err != nil {
		s.throwDriver(err)
	}
	if out == nil {
		out = bson.A{}
	}
	return out
}

func (s *Shell) rawCommand(db string, cmd bson.D) (bson.D, error) {
	raw, err := s.client.Database(db).RunCommand(s.ctx, cmd).Raw()
	if err != nil {
		return nil, err
	}
	return rawToD(raw)
}

func (s *Shell) command(db string, cmd bson.D) bson.D {
	d, err := s.rawCommand(db, cmd)
	if err != nil {
		s.throwDriver(err)
	}
	return d
}

func (s *Shell) explainResult(db string, cmd bson.D, verbosity goja.Value) goja.Value {
	v := "queryPlanner"
	if !isNullish(verbosity) {
		switch x := verbosity.Export().(type) {
		case bool:
			if x {
				v = "allPlansExecution"
			}
		default:
			v = verbosity.String()
		}
	}
	res := s.command(db, bson.D{{Key: "explain", Value: cmd}, {Key: "verbosity", Value: v}})
	o := s.fromBSON(res).(*goja.Object)
	_ = o.DefineDataPropertySymbol(s.typeSym, s.vm.ToValue("ExplainOutput"), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return o
}

func (s *Shell) fromRaw(raw bson.Raw) goja.Value {
	d, err := rawToD(raw)
	if err != nil {
		s.throw("BSONError", "%s", err.Error())
	}
	return s.fromBSON(d)
}

func rawToD(raw bson.Raw) (bson.D, error) {
	var d bson.D
	if err := bson.Unmarshal(raw, &d); err != nil {
		return nil, err
	}
	return d, nil
}

func setD(d bson.D, key string, v any) bson.D {
	for i := range d {
		if d[i].Key == key {
			d[i].Value = v
			return d
		}
	}
	return append(d, bson.E{Key: key, Value: v})
}

func numberOpt(d bson.D, key string) (int64, bool) {
	v := lookupD(d, key)
	if v == nil {
		return 0, false
	}
	return toInt64(v), true
}

// indexName is the driver's default index name: key_value pairs joined by _.
func indexName(keys bson.D) string {
	parts := make([]string, 0, len(keys)*2)
	for _, e := range keys {
		var v string
		switch x := e.Value.(type) {
		case int32:
			v = strconv.Itoa(int(x))
		case int64:
			v = strconv.FormatInt(x, 10)
		case float64:
			v = jsNumberString(x, false)
		case string:
			v = x
		default:
			v = Format(x, resultFormat)
		}
		parts = append(parts, e.Key, v)
	}
	return strings.Join(parts, "_")
}
