// An aggregation cursor is mongosh's AggregationCursor: sort, skip and projection add stages to the caller's pipeline; it has no limit, hint or count, which a find cursor has (and no project).
db.c.drop();
db.c.insertMany([{ _id: 1, a: 3 }, { _id: 2, a: 1 }, { _id: 3, a: 2 }]);
db.c.aggregate([]).sort({ a: 1 }).skip(1);
db.c.aggregate([{ $match: {} }]).projection({ a: 0 }).sort({ _id: -1 });
const p = [{ $match: { a: { $gt: 1 } } }]; db.c.aggregate(p).sort({ a: 1 }).toArray().length; p;
db.c.aggregate([]).batchSize(1).maxTimeMS(1000).pretty().map(d => d._id).toArray();
print(db.c.aggregate([]).sort({ a: -1 }));
db.getSiblingDB('inputsaggregationcursor').aggregate([{ $documents: [{ x: 2 }, { x: 1 }] }]).sort({ x: 1 });
const ac = db.c.aggregate([]); [typeof ac.limit, typeof ac.hint, typeof ac.count, typeof ac.size, typeof ac.comment, typeof ac.collation, typeof ac.min, typeof ac.project];
const fc = db.c.find(); [typeof fc.limit, typeof fc.hint, typeof fc.count, typeof fc.size, typeof fc.sort, typeof fc.skip, typeof fc.projection, typeof fc.project];
try { db.c.aggregate([]).limit(1) } catch (e) { print(e.name) }
db.c.find().sort({ a: -1 }).skip(1).projection({ _id: 0 }).limit(1);
db.c.find({}, { a: 1 }).count();
const it1 = db.c.aggregate([{ $sort: { _id: 1 } }]).batchSize(2); it1.next(); it1.hasNext(); it1.toArray();
db.c.aggregate([{ $match: { a: 3 } }]).sort({ a: 1 }).explain('queryPlanner').ok;
