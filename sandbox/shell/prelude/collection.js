// Collection, as in mongosh's collection.ts, and the proxy that makes
// db.c.sub a collection too.

const opt = (o) => (o === undefined || o === null ? {} : o);
class Collection {
  constructor(db, name) {
    hidden(this, '_database', db);
    hidden(this, '_name', name);
  }
  get _db() { return this._database._name; }
  // What the natives get as the database: its name, or its session's.
  get _dbr() { return this._database._ref; }
  getName() { return this._name; }
  getFullName() { return this._db + '.' + this._name; }
  getDB() { return this._database; }
  toString() { return this.getFullName(); }
  insertOne(doc, o) { return n.insertOne(this._dbr, this._name, doc, opt(o)); }
  insertMany(docs, o) { return n.insertMany(this._dbr, this._name, docs, opt(o)); }
  insert(docs, o) {
    deprecated('Collection.insert() is deprecated. Use insertOne, insertMany, or bulkWrite.');
    return n.insertMany(this._dbr, this._name, Array.isArray(docs) ? docs : [docs], opt(o));
  }
  updateOne(f, u, o) { return n.update(this._dbr, this._name, 'one', f, u, opt(o)); }
  updateMany(f, u, o) { return n.update(this._dbr, this._name, 'many', f, u, opt(o)); }
  replaceOne(f, r, o) { return n.update(this._dbr, this._name, 'replace', f, r, opt(o)); }
  update(f, u, o) {
    deprecated('Collection.update() is deprecated. Use updateOne, updateMany, or bulkWrite.');
    o = opt(o);
    const rest = Object.assign({}, o);
    delete rest.multi;
    return n.update(this._dbr, this._name, o.multi ? 'many' : 'one', f, u, rest);
  }
  deleteOne(f, o) { return n.deleteDocs(this._dbr, this._name, false, f, opt(o)); }
  deleteMany(f, o) { return n.deleteDocs(this._dbr, this._name, true, f, opt(o)); }
  remove(f, o) {
    deprecated('Collection.remove() is deprecated. Use deleteOne, deleteMany, findOneAndDelete, or bulkWrite.');
    const justOne = typeof o === 'boolean' ? o : !!(o && o.justOne);
    return n.deleteDocs(this._dbr, this._name, !justOne, f, {});
  }
  find(filter, projection, o) {
    const spec = Object.assign({}, opt(o));
    spec.filter = filter === undefined ? {} : filter;
    if (projection !== undefined) spec.projection = projection;
    return new Cursor(this._dbr, this._name, spec);
  }
  findOne(filter, projection, o) {
    return n.findOne(this._dbr, this._name, filter === undefined ? {} : filter, projection, opt(o));
  }
  aggregate(pipeline, o, ...more) {
    if (!Array.isArray(pipeline)) pipeline = [pipeline, o, ...more].filter(x => x !== undefined), o = {};
    const spec = Object.assign({}, opt(o));
    spec.pipeline = pipeline;
    if (spec.explain) { return n.explain(this._dbr, this._name, 'aggregate', spec, 'queryPlanner'); }
    return runsImmediately(new AggregationCursor(this._dbr, this._name, spec));
  }
  countDocuments(f, o) { return n.countDocuments(this._dbr, this._name, f === undefined ? {} : f, opt(o)); }
  estimatedDocumentCount(o) { return n.estimatedCount(this._dbr, this._name, opt(o)); }
  count(f, o) {
    deprecated('Collection.count() is deprecated. Use countDocuments or estimatedDocumentCount.');
    return n.countCommand(this._dbr, this._name, f === undefined ? {} : f, opt(o));
  }
  distinct(field, f, o) { return n.distinct(this._dbr, this._name, field, f === undefined ? {} : f, opt(o)); }
  bulkWrite(ops, o) { return n.bulkWrite(this._dbr, this._name, ops, opt(o)); }
  findOneAndUpdate(f, u, o) { return n.findAndModify(this._dbr, this._name, 'update', f, u, opt(o)); }
  findOneAndReplace(f, r, o) { return n.findAndModify(this._dbr, this._name, 'replace', f, r, opt(o)); }
  findOneAndDelete(f, o) { return n.findAndModify(this._dbr, this._name, 'delete', f, undefined, opt(o)); }
  findAndModify(spec) {
    spec = opt(spec);
    const o = Object.assign({}, spec);
    delete o.query; delete o.update; delete o.remove;
    if (spec.new) o.returnDocument = 'after';
    delete o.new;
    if (spec.remove) return n.findAndModify(this._dbr, this._name, 'delete', spec.query || {}, undefined, o);
    const u = spec.update;
    const isOp = Array.isArray(u) || (u && Object.keys(u).some(k => k.startsWith('$')));
    return n.findAndModify(this._dbr, this._name, isOp ? 'update' : 'replace', spec.query || {}, u, o);
  }
  createIndex(keys, o, commitQuorum) { return later(n.createIndexes(this._dbr, this._name, [keys], opt(o)), (names) => names[0]); }
  ensureIndex(keys, o) { return this.createIndex(keys, o); }
  createIndexes(specs, o) { return n.createIndexes(this._dbr, this._name, specs, opt(o)); }
  getIndexes() { return n.getIndexes(this._dbr, this._name); }
  getIndexSpecs() { return this.getIndexes(); }
  getIndexKeys() { return later(this.getIndexes(), (ix) => ix.map(i => i.key)); }
  dropIndex(index) { return n.runCommand(this._dbr, { dropIndexes: this._name, index }); }
  dropIndexes(indexes) {
    return n.runCommand(this._dbr, { dropIndexes: this._name, index: indexes === undefined ? '*' : indexes });
  }
  drop() { return n.dropCollection(this._dbr, this._name); }
  stats(o) { return n.runCommand(this._dbr, { collStats: this._name, scale: (typeof o === 'number' ? o : opt(o).scale) || 1 }); }
  dataSize() { return later(this.stats(), (s) => s.size); }
  storageSize() { return later(this.stats(), (s) => s.storageSize); }
  totalIndexSize() { return later(this.stats(), (s) => s.totalIndexSize); }
  totalSize() { return later(this.stats(), (s) => s.storageSize + s.totalIndexSize); }
  isCapped() { return later(this.stats(), (s) => !!s.capped); }
  renameCollection(to, dropTarget) {
    return n.runCommand(this._database._adminRef, { renameCollection: this._db + '.' + this._name, to: this._db + '.' + to, dropTarget: !!dropTarget });
  }
  runCommand(cmd, o) {
    if (typeof cmd === 'string') return n.runCommand(this._dbr, Object.assign({ [cmd]: this._name }, opt(o)));
    return n.runCommand(this._dbr, cmd);
  }
  validate() { return n.runCommand(this._dbr, { validate: this._name }); }
  explain(verbosity) { return new Explainable(this, verbosity === undefined ? 'queryPlanner' : verbosity === true ? 'allPlansExecution' : verbosity === false ? 'queryPlanner' : verbosity); }
  getCollection(name) { return this._database.getCollection(this._name + '.' + name); }
}
hidden(Collection.prototype, kType, 'Collection');


const reserved = new Set(['then', 'toJSON', 'constructor', 'inspect', 'valueOf', 'toString', 'help']);
const collectionProxy = (db, name) => new Proxy(new Collection(db, name), {
  get(target, prop, receiver) {
    if (typeof prop === 'symbol' || prop in target || reserved.has(prop) || prop.startsWith('_')) return Reflect.get(target, prop, receiver);
    return db.getCollection(name + '.' + prop);
  },
});
