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

// crudNatives read and write documents.
func crudNatives() []native {
	return []native{
		{"insertOne", (*Shell).insertOne, true},
		{"insertMany", (*Shell).insertMany, true},
		{"update", (*Shell).update, true},
		{"deleteDocs", (*Shell).deleteDocs, true},
		{"findAndModify", (*Shell).findAndModify, true},
		{"bulkWrite", (*Shell).bulkWrite, true},
		{"findOne", (*Shell).findOne, false},
		{"countDocuments", (*Shell).countDocuments, false},
		{"countCommand", (*Shell).countCommand, false},
		{"estimatedCount", (*Shell).estimatedCount, false},
		{"distinct", (*Shell).distinct, false},
	}
}

func (s *Shell) insertOne(c goja.FunctionCall) goja.Value {
	o, ok := c.Argument(2).(*goja.Object)
	if !ok || o.ClassName() == "Array" {
		s.throw("MongoInvalidArgumentError", "Document must be an object")
	}
	doc, id, err := s.encodeDoc(nil, o, true)
	if err != nil {
		s.throwError("BSONError", err)
	}
	coll := c.Argument(1).String()
	return runWrite(s, s.target(c.Argument(0)), func(ctx context.Context, db *mongo.Database) ([]insertWriteError, error) {
		_, wes, err := insertDocs(ctx, db, coll, [][]byte{doc}, true)
		return wes, err
	}, func(wes []insertWriteError) goja.Value {
		if len(wes) > 0 {
			s.throwDriver(mongo.WriteException{WriteErrors: mongo.WriteErrors{{Index: 0, Code: wes[0].Code, Message: wes[0].Message, Details: wes[0].Details}}})
		}
		r := s.vm.NewObject()
		_ = r.Set("acknowledged", true)
		_ = r.Set("insertedId", s.fromBSON(id))
		return r
	})
}

func (s *Shell) deleteDocs(c goja.FunctionCall) goja.Value {
	coll := c.Argument(1).String()
	many := c.Argument(2).ToBoolean()
	filter := s.mustDoc(c.Argument(3), "filter")
	hint := lookupD(s.optDoc(c.Argument(4)), "hint")
	return runWrite(s, s.target(c.Argument(0)), func(ctx context.Context, db *mongo.Database) (*mongo.DeleteResult, error) {
		if many {
			o := options.DeleteMany()
			if hint != nil {
				o.SetHint(hint)
			}
			return db.Collection(coll).DeleteMany(ctx, filter, o)
		}
		o := options.DeleteOne()
		if hint != nil {
			o.SetHint(hint)
		}
		return db.Collection(coll).DeleteOne(ctx, filter, o)
	}, func(res *mongo.DeleteResult) goja.Value {
		r := s.vm.NewObject()
		_ = r.Set("acknowledged", true)
		_ = r.Set("deletedCount", res.DeletedCount)
		return r
	})
}

func (s *Shell) findOne(c goja.FunctionCall) goja.Value {
	spec := s.optDoc(c.Argument(4))
	spec = setD(spec, "filter", s.mustDoc(c.Argument(2), "filter"))
	if p := c.Argument(3); !isNullish(p) {
		spec = setD(spec, "projection", s.mustDoc(p, "projection"))
	}
	spec = setD(spec, "limit", int64(1))
	spec = setD(spec, "singleBatch", true)
	cmd := findCommand(c.Argument(1).String(), spec)
	return runOp(s, s.target(c.Argument(0)), func(ctx context.Context, db *mongo.Database) (bson.Raw, error) {
		cur, err := db.RunCommandCursor(ctx, cmd)
		if err != nil {
			return nil, err
		}
		defer cur.Close(context.WithoutCancel(ctx))
		if cur.Next(ctx) {
			return slices.Clone(cur.Current), nil
		}
		return nil, cur.Err()
	}, func(raw bson.Raw) goja.Value {
		if raw == nil {
			return goja.Null()
		}
		return s.fromRaw(raw)
	})
}

func (s *Shell) countDocuments(c goja.FunctionCall) goja.Value {
	coll := c.Argument(1).String()
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
	return runOp(s, s.target(c.Argument(0)), func(ctx context.Context, db *mongo.Database) (int64, error) {
		return db.Collection(coll).CountDocuments(ctx, filter, o)
	}, func(n int64) goja.Value { return s.vm.ToValue(n) })
}

func (s *Shell) countCommand(c goja.FunctionCall) goja.Value {
	cmd := bson.D{{Key: "count", Value: c.Argument(1).String()}, {Key: "query", Value: s.mustDoc(c.Argument(2), "query")}}
	cmd = append(cmd, s.optDoc(c.Argument(3))...)
	return s.commandOp(s.target(c.Argument(0)), cmd, func(res bson.D) goja.Value {
		return s.vm.ToValue(toInt64(lookupD(res, "n")))
	})
}

func (s *Shell) estimatedCount(c goja.FunctionCall) goja.Value {
	return s.commandOp(s.target(c.Argument(0)), bson.D{{Key: "count", Value: c.Argument(1).String()}}, func(res bson.D) goja.Value {
		return s.vm.ToValue(toInt64(lookupD(res, "n")))
	})
}

func (s *Shell) distinct(c goja.FunctionCall) goja.Value {
	cmd := bson.D{
		{Key: "distinct", Value: c.Argument(1).String()},
		{Key: "key", Value: c.Argument(2).String()},
		{Key: "query", Value: s.mustDoc(c.Argument(3), "query")},
	}
	cmd = append(cmd, s.optDoc(c.Argument(4))...)
	return s.commandOp(s.target(c.Argument(0)), cmd, func(res bson.D) goja.Value {
		return s.fromBSON(lookupD(res, "values"))
	})
}

// ensureID gives a document an _id as the Node driver does
// (document._id = new ObjectId()): a new ObjectId placed last, also set
// on the caller's object. The server stores _id first.
func (s *Shell) ensureID(src goja.Value, doc bson.D) (bson.D, any) {
	if id := lookupD(doc, "_id"); id != nil {
		return doc, id
	}
	id := bson.NewObjectID()
	if o, ok := src.(*goja.Object); ok {
		_ = o.Set("_id", s.box(id))
	}
	return append(doc, bson.E{Key: "_id", Value: id}), id
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
		if buf, ids[i], err = s.encodeDoc(buf, o, true); err != nil {
			s.throwError("BSONError", err)
		}
		ends[i] = len(buf)
		if i == 0 {
			// One buffer for all documents: size it from the first.
			buf = slices.Grow(buf, len(buf)*(n-1)*9/8)
		}
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
	coll := c.Argument(1).String()
	type outcome struct {
		inserted int
		wes      []insertWriteError
	}
	return runWrite(s, s.target(c.Argument(0)), func(ctx context.Context, db *mongo.Database) (outcome, error) {
		inserted, wes, err := insertDocs(ctx, db, coll, docs, ordered)
		return outcome{inserted, wes}, err
	}, func(out outcome) goja.Value {
		if wes := out.wes; len(wes) > 0 {
			bwe := mongo.BulkWriteException{}
			for _, we := range wes {
				bwe.WriteErrors = append(bwe.WriteErrors, mongo.BulkWriteError{WriteError: mongo.WriteError{Index: we.Index, Code: we.Code, Message: we.Message, Details: we.Details}})
			}
			// Only the documents that failed are shown, so only
			// they are decoded. The Node driver adds a missing _id
			// last (document._id = ...); encodeDoc wrote it first.
			op := func(i int) any {
				d, _ := rawToD(docs[i])
				if o, ok := arr.Get(indexKey(i)).(*goja.Object); ok && len(d) > 0 && !slices.Contains(s.ownKeys(o), "_id") {
					d = append(slices.Clone(d[1:]), d[0])
				}
				return d
			}
			s.throwBulkError(bwe, ids, op, ordered, &mongo.BulkWriteResult{InsertedCount: int64(out.inserted)})
		}
		r := s.vm.NewObject()
		_ = r.Set("acknowledged", true)
		idObj := s.vm.NewObject()
		for i, id := range ids {
			_ = idObj.Set(indexKey(i), s.fromBSON(id))
		}
		_ = r.Set("insertedIds", idObj)
		return r
	})
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
	coll := c.Argument(1).String()
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
	srt := lookupD(opts, "sort")
	return runWrite(s, s.target(c.Argument(0)), func(ctx context.Context, db *mongo.Database) (*mongo.UpdateResult, error) {
		cl := db.Collection(coll)
		switch kind {
		case "one":
			o := options.UpdateOne().SetUpsert(upsert)
			if arrayFilters != nil {
				o.SetArrayFilters(arrayFilters)
			}
			if hint != nil {
				o.SetHint(hint)
			}
			if srt != nil {
				o.SetSort(srt)
			}
			return cl.UpdateOne(ctx, filter, update, o)
		case "many":
			o := options.UpdateMany().SetUpsert(upsert)
			if arrayFilters != nil {
				o.SetArrayFilters(arrayFilters)
			}
			if hint != nil {
				o.SetHint(hint)
			}
			return cl.UpdateMany(ctx, filter, update, o)
		}
		o := options.Replace().SetUpsert(upsert)
		if hint != nil {
			o.SetHint(hint)
		}
		return cl.ReplaceOne(ctx, filter, update, o)
	}, func(res *mongo.UpdateResult) goja.Value {
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
	})
}

func (s *Shell) findAndModify(c goja.FunctionCall) goja.Value {
	coll := c.Argument(1).String()
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
	var u any
	switch kind {
	case "update":
		u = s.updateArg(c.Argument(4), false)
	case "replace":
		u = s.updateArg(c.Argument(4), true)
	}
	arrayFilters, _ := lookupD(opts, "arrayFilters").(bson.A)
	return runWrite(s, s.target(c.Argument(0)), func(ctx context.Context, db *mongo.Database) (bson.Raw, error) {
		cl := db.Collection(coll)
		var sr *mongo.SingleResult
		switch kind {
		case "update":
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
			if arrayFilters != nil {
				o.SetArrayFilters(arrayFilters)
			}
			sr = cl.FindOneAndUpdate(ctx, filter, u, o)
		case "replace":
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
			sr = cl.FindOneAndReplace(ctx, filter, u, o)
		default:
			o := options.FindOneAndDelete()
			if proj != nil {
				o.SetProjection(proj)
			}
			if srt != nil {
				o.SetSort(srt)
			}
			sr = cl.FindOneAndDelete(ctx, filter, o)
		}
		raw, err := sr.Raw()
		if errors.Is(err, mongo.ErrNoDocuments) {
			return nil, nil
		}
		return raw, err
	}, func(raw bson.Raw) goja.Value {
		if raw == nil {
			return goja.Null()
		}
		return s.fromRaw(raw)
	})
}

func (s *Shell) bulkWrite(c goja.FunctionCall) goja.Value {
	arr, ok := c.Argument(2).(*goja.Object)
	if !ok || arr.ClassName() != "Array" {
		s.throw("MongoshInvalidInputError", "Argument 'operations' must be an array")
	}
	opts := s.optDoc(c.Argument(3))
	n := int(arr.Get("length").ToInteger())
	models := make([]mongo.WriteModel, 0, n)
	ids := make([]any, n) // the inserts' _ids
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
		// The Node driver sends upsert only when it is a boolean.
		var upsert *bool
		if b, ok := exportBool(get("upsert")); ok {
			upsert = &b
		}
		switch name {
		case "insertOne":
			dv := get("document")
			var d bson.D
			d, ids[i] = s.ensureID(dv, s.mustDoc(dv, "document"))
			models = append(models, &mongo.InsertOneModel{Document: d})
		case "updateOne", "updateMany":
			f, u := s.mustDoc(get("filter"), "filter"), s.updateArg(get("update"), false)
			arrayFilters, _ := s.mustValue(get("arrayFilters")).(bson.A)
			if name == "updateOne" {
				models = append(models, &mongo.UpdateOneModel{Filter: f, Update: u, Upsert: upsert, ArrayFilters: arrayFilters})
			} else {
				models = append(models, &mongo.UpdateManyModel{Filter: f, Update: u, Upsert: upsert, ArrayFilters: arrayFilters})
			}
		case "replaceOne":
			f, r := s.mustDoc(get("filter"), "filter"), s.updateArg(get("replacement"), true)
			models = append(models, &mongo.ReplaceOneModel{Filter: f, Replacement: r, Upsert: upsert})
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
	coll := c.Argument(1).String()
	type outcome struct {
		res *mongo.BulkWriteResult
		err error
	}
	return runWrite(s, s.target(c.Argument(0)), func(ctx context.Context, db *mongo.Database) (outcome, error) {
		res, err := db.Collection(coll).BulkWrite(ctx, models, o)
		var bwe mongo.BulkWriteException
		if err != nil && !(errors.As(err, &bwe) && len(bwe.WriteErrors) > 0) {
			return outcome{}, err
		}
		return outcome{res, err}, nil
	}, func(out outcome) goja.Value {
		res := out.res
		var bwe mongo.BulkWriteException
		if errors.As(out.err, &bwe) {
			if res == nil {
				res = &mongo.BulkWriteResult{}
			}
			s.throwBulkError(bwe, ids, func(i int) any { return writeStatement(models[i]) }, ordered, res)
		}
		r := s.vm.NewObject()
		_ = r.Set("acknowledged", true)
		_ = r.Set("insertedCount", res.InsertedCount)
		ins := s.vm.NewObject()
		for i, id := range ids {
			if id != nil {
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
	})
}

func numberOpt(d bson.D, key string) (int64, bool) {
	v := lookupD(d, key)
	if v == nil {
		return 0, false
	}
	return toInt64(v), true
}

// exportBool is v's value when it is a JavaScript boolean.
func exportBool(v goja.Value) (value, ok bool) {
	if v == nil {
		return false, false
	}
	value, ok = v.Export().(bool)
	return value, ok
}

// writeStatement is a bulk write's operation as the Node driver sends it
// (makeUpdateStatement, makeDeleteStatement), which a WriteError shows as
// its op: the document of an insert, {q, u, upsert, multi, arrayFilters}
// of an update, {q, limit} of a delete.
func writeStatement(m mongo.WriteModel) any {
	update := func(q, u any, upsert *bool, multi bool, arrayFilters []any) bson.D {
		st := bson.D{{Key: "q", Value: q}, {Key: "u", Value: u}}
		if upsert != nil {
			st = append(st, bson.E{Key: "upsert", Value: *upsert})
		}
		if multi {
			st = append(st, bson.E{Key: "multi", Value: true})
		}
		if arrayFilters != nil {
			st = append(st, bson.E{Key: "arrayFilters", Value: bson.A(arrayFilters)})
		}
		return st
	}
	switch m := m.(type) {
	case *mongo.InsertOneModel:
		return m.Document
	case *mongo.UpdateOneModel:
		return update(m.Filter, m.Update, m.Upsert, false, m.ArrayFilters)
	case *mongo.UpdateManyModel:
		return update(m.Filter, m.Update, m.Upsert, true, m.ArrayFilters)
	case *mongo.ReplaceOneModel:
		return update(m.Filter, m.Replacement, m.Upsert, false, nil)
	case *mongo.DeleteOneModel:
		return bson.D{{Key: "q", Value: m.Filter}, {Key: "limit", Value: int32(1)}}
	case *mongo.DeleteManyModel:
		return bson.D{{Key: "q", Value: m.Filter}, {Key: "limit", Value: int32(0)}}
	}
	return bson.D{}
}
