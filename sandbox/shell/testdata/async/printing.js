// print() as mongosh's: it waits for the Promises it is given, and a
// cursor prints as its next batch.
db.c.drop();
db.c.insertMany([{ _id: 1 }, { _id: 2 }]);
print(db.c.find().sort({ _id: 1 }));
print(db.c, db);
const p = Promise.resolve(1);
print(p, 2);
printjson(Promise.resolve({ a: [1] }));
(async () => { print(db.c.findOne(), await p) })();
