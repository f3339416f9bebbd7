// Sessions on a standalone server: a transaction's commands are refused.
const show = (e) => print(e.name + (e.codeName ? '[' + e.codeName + ']' : '') + ': ' + e.message);
const s = db.getMongo().startSession();
const sdb = s.getDatabase('asyncsessions');
sdb.getName();
sdb.c.getFullName();
sdb.c.drop();
sdb.c.insertOne({ _id: 1 });
s.startTransaction();
try { sdb.c.insertOne({ _id: 2 }) } catch (e) { show(e) }
try { s.commitTransaction() } catch (e) { show(e) }
try { s.abortTransaction() } catch (e) { show(e) }
s.startTransaction();
try { sdb.c.findOne() } catch (e) { show(e) }
s.abortTransaction();
try { s.abortTransaction() } catch (e) { show(e) }
try { s.commitTransaction() } catch (e) { show(e) }
s.startTransaction();
try { s.startTransaction() } catch (e) { show(e) }
s.abortTransaction();
try { s.withTransaction(() => { sdb.c.insertOne({ _id: 3 }) }) } catch (e) { show(e) }
s.withTransaction(() => 5);
s.withTransaction(async () => 6);
db.getMongo().startSession({ causalConsistency: true }).getOptions();
typeof s.id;
s.endSession();
s.hasEnded();
try { sdb.c.findOne() } catch (e) { show(e) }
db.getSiblingDB('asyncsessions').c.find().toArray();
