// A cursor's isExhausted() and isClosed(), as the Node driver's cursor.closed.
db.e.drop();
db.e.insertMany([{_id:1},{_id:2},{_id:3}]);
const c = db.e.find();
[c.isExhausted(), c.isClosed()];
c.next();
[c.isExhausted(), c.isClosed()];
c.next(); c.next();
[c.isExhausted(), c.isClosed()];
const d = db.e.find().batchSize(2);
d.next();
[d.isExhausted(), d.isClosed()];
d.next(); d.next();
[d.isExhausted(), d.isClosed(), d.hasNext()];
const e = db.e.find(); e.hasNext();
[e.isExhausted(), e.isClosed()];
e.close();
[e.isExhausted(), e.isClosed()];
