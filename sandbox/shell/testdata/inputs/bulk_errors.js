// bulkWrite and insertMany errors: each WriteError's op is the operation as the Node driver sent it.
db.w.drop();
db.w.createIndex({ k: 1 }, { unique: true });
db.w.insertMany([{ _id: 1, k: 1 }, { _id: 2, k: 2 }]);
db.w.bulkWrite([{ insertOne: { document: { _id: 4, k: 4 } } }, { insertOne: { document: { _id: 1, x: 1 } } }, { updateOne: { filter: { _id: 9 }, update: { $set: { _id: 2 } }, upsert: true } }, { deleteOne: { filter: { _id: 4 } } }], { ordered: false });
db.w.bulkWrite([{ replaceOne: { filter: { _id: 2 }, replacement: { _id: 3 } } }, { deleteMany: { filter: { _id: 7 } } }, { updateMany: { filter: {}, update: { $set: { k: 8 } } } }, { insertOne: { document: { k: 1, z: 3 } } }], { ordered: false });
db.w.insertMany([{ _id: 5, k: 5 }, { k: 2, y: 2 }, { _id: 6, k: 6 }], { ordered: false });
db.w.bulkWrite([{ updateOne: { filter: { _id: 8 }, update: { $set: { k: 1 } }, upsert: 1 } }, { deleteOne: { filter: { _id: 1 } } }]);
db.w.find();
