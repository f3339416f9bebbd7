// The mongosh API surface, written in JavaScript over the Go natives in `n`.
// Chaining (db.c.find().sort().limit()) and property access (db.<name>) are
// natural here; everything that touches BSON or the driver is native.
(function (g, n) {
  'use strict';
  const kType = n.typeSymbol;
  const warned = new Set();
  const deprecated = (msg) => {
    if (!warned.has(msg)) { warned.add(msg); n.print('DeprecationWarning: ' + msg); }
  };
  const hidden = (obj, key, value) => Object.defineProperty(obj, key, { value, writable: true, configurable: true, enumerable: false });

  // ---- BSON helpers -------------------------------------------------------
  function ObjectId(id) { return n.objectId(id); }
  ObjectId.isValid = (id) => n.objectIdValid(id);
  ObjectId.createFromHexString = (h) => n.objectId(h);
  ObjectId.createFromTime = (t) => n.objectIdFromTime(t);
  function ISODate(s) { return n.isoDate(s); }
  function Int32(v) { return n.int32(v); }
  function NumberInt(v) { return n.int32(v); }
  function Long(v, high, unsigned) { return n.long(v, high); }
  const deprecatedNumber = (name) => n.print('Warning: ' + name + ': specifying a number as argument is deprecated and may lead to loss of precision, pass a string instead');
  function NumberLong(v) { if (typeof v === 'number') deprecatedNumber('NumberLong'); return n.long(v); }
  Long.fromNumber = (v) => n.long(Math.trunc(v));
  Long.fromString = (s) => n.long(String(s));
  Long.fromInt = (v) => n.long(v | 0);
  Long.fromBigInt = (v) => n.long(String(v));
  function Double(v) { return n.double(v); }
  function Decimal128(s) { return n.decimal(s); }
  function NumberDecimal(s) { if (typeof s === 'number') deprecatedNumber('NumberDecimal'); return n.decimal(s); }
  Decimal128.fromString = (s) => n.decimal(s);
  function Timestamp(t, i) { return n.timestamp(t, i); }
  function UUID(s) { return n.uuid(s); }
  function BinData(sub, b64) { return n.binData(sub, b64); }
  function Binary(buf, sub) { return n.binData(sub === undefined ? 0 : sub, buf); }
  Binary.createFromBase64 = (b64, sub) => n.binData(sub === undefined ? 0 : sub, b64);
  Binary.createFromHexString = (h, sub) => n.hexData(sub === undefined ? 0 : sub, h);
  function HexData(sub, h) { return n.hexData(sub, h); }
  function MD5(h) { return n.hexData(5, h); }
  function MinKey() { return n.minKey(); }
  function MaxKey() { return n.maxKey(); }
  function Code(c, scope) { return n.code(typeof c === 'function' ? c.toString() : c, scope); }
  function DBRef(coll, id, db) { return n.dbref(coll, id, db); }
  function BSONRegExp(p, o) { return n.bsonRegExp(p, o); }
  function BSONSymbol(s) { return n.bsonSymbol(s); }
  const ctors = { ObjectId, Int32, Long, Double, Decimal128, Timestamp, Binary, MinKey, MaxKey, Code, DBRef, BSONRegExp, BSONSymbol };
  for (const [name, ctor] of Object.entries(ctors)) {
    n.registerProto(name, ctor.prototype);
    ctor.prototype.toString = function (radix) { return n.bsonString(this, radix); };
    ctor.prototype.toJSON = function () { return n.bsonJSON(this); };
    ctor.prototype.equals = function (other) { return n.bsonEquals(this, other); };
    ctor.prototype.inspect = function () { return n.bsonInspect(this); };
    Object.defineProperty(ctor.prototype, '_bsontype', { get() { return n.bsonType(this); } });
  }
  ObjectId.prototype.toHexString = function () { return n.bsonString(this); };
  ObjectId.prototype.getTimestamp = function () { return n.objectIdTime(this); };
  Object.defineProperty(ObjectId.prototype, 'str', { get() { return n.bsonString(this); } });
  for (const ctor of [Long, Int32, Double]) {
    ctor.prototype.valueOf = function () { return n.bsonNumber(this); };
    ctor.prototype.toNumber = function () { return n.bsonNumber(this); };
    ctor.prototype.toInt = function () { return n.bsonNumber(this) | 0; };
  }
  Object.defineProperty(Timestamp.prototype, 't', { get() { return n.timestampPart(this, 't'); } });
  Object.defineProperty(Timestamp.prototype, 'i', { get() { return n.timestampPart(this, 'i'); } });
  Timestamp.prototype.getTime = function () { return n.timestampPart(this, 't'); };
  Timestamp.prototype.getInc = function () { return n.timestampPart(this, 'i'); };
  Binary.prototype.toString = function (enc) { return n.binaryString(this, enc); };
  Binary.prototype.base64 = function () { return n.binaryString(this, 'base64'); };
  Binary.prototype.hex = function () { return n.binaryString(this, 'hex'); };
  Binary.prototype.length = function () { return n.binaryString(this, 'length'); };
  Object.defineProperty(Binary.prototype, 'sub_type', { get() { return n.binaryString(this, 'subtype'); } });
  Object.defineProperty(DBRef.prototype, 'collection', { get() { return n.dbrefPart(this, 'collection'); } });
  Object.defineProperty(DBRef.prototype, 'oid', { get() { return n.dbrefPart(this, 'oid'); } });
  Object.defineProperty(DBRef.prototype, 'db', { get() { return n.dbrefPart(this, 'db'); } });
  Object.defineProperty(DBRef.prototype, '$ref', { get() { return n.dbrefPart(this, 'collection'); } });
  Object.defineProperty(DBRef.prototype, '$id', { get() { return n.dbrefPart(this, 'oid'); } });

  const EJSON = {
    stringify: (v, replacer, space, opts) => {
      if (replacer !== null && typeof replacer === 'object' && !Array.isArray(replacer)) {
        opts = replacer; replacer = undefined; space = 0;
      } else if (space !== null && typeof space === 'object') {
        opts = space; space = 0;
      }
      return n.ejsonStringify(v, replacer, space, opts);
    },
    parse: (s, opts) => n.ejsonParse(s, opts),
    serialize: (v, opts) => JSON.parse(n.ejsonStringify(v, undefined, undefined, opts)),
    deserialize: (v, opts) => n.ejsonParse(JSON.stringify(v), opts),
  };
  const bsonsize = (doc) => n.bsonsize(doc);

  // ---- printing -----------------------------------------------------------
  const print = (...args) => n.print(...args);
  const printjson = (...args) => n.printjson(...args);
  const console = {
    log: print, info: print, warn: print, error: print, debug: print,
  };

  // ---- cursors ------------------------------------------------------------
  class Cursor {
    constructor(db, coll, kind, spec) {
      hidden(this, '_db', db);
      hidden(this, '_coll', coll);
      hidden(this, '_kind', kind);
      hidden(this, '_spec', spec);
      hidden(this, '_h', null);
      hidden(this, '_transforms', []);
    }
    _set(key, value) { this._spec[key] = value; return this; }
    sort(s) { return this._set('sort', s); }
    limit(v) { return this._set('limit', v); }
    skip(v) { return this._set('skip', v); }
    project(p) { return this._set('projection', p); }
    projection(p) { return this._set('projection', p); }
    batchSize(v) { return this._set('batchSize', v); }
    hint(h) { return this._set('hint', h); }
    comment(c) { return this._set('comment', c); }
    maxTimeMS(v) { return this._set('maxTimeMS', v); }
    collation(c) { return this._set('collation', c); }
    min(v) { return this._set('min', v); }
    max(v) { return this._set('max', v); }
    allowDiskUse(v) { return this._set('allowDiskUse', v === undefined ? true : v); }
    readPref() { return this; }
    noCursorTimeout() { return this; }
    pretty() { return this; }
    _open() {
      if (this._h === null) this._h = n.openCursor(this._db, this._coll, this._kind, this._spec);
      return this._h;
    }
    hasNext() { return n.cursorHasNext(this._open()); }
    next() {
      const d = n.cursorNext(this._open());
      if (d === null) return null;
      let out = d;
      for (const f of this._transforms) out = f(out);
      return out;
    }
    tryNext() { return this.next(); }
    isExhausted() { return !this.hasNext(); }
    toArray() {
      const out = [];
      while (this.hasNext()) out.push(this.next());
      return out;
    }
    forEach(f) {
      while (this.hasNext()) {
        if (f(this.next()) === false) break;
      }
    }
    map(f) { this._transforms.push(f); return this; }
    itcount() {
      let c = 0;
      while (this.hasNext()) { this.next(); c++; }
      return c;
    }
    // The Node driver's FindCursor.count(): a count command with the
    // cursor's filter, skip and limit.
    count() {
      if (this._kind !== 'find') throw new TypeError('cursor.count is not a function');
      const opts = {};
      if (this._spec.limit) opts.limit = Math.abs(this._spec.limit);
      if (this._spec.skip) opts.skip = this._spec.skip;
      if (this._spec.hint) opts.hint = this._spec.hint;
      return n.countCommand(this._db, this._coll, this._spec.filter || {}, opts);
    }
    size() { return this.count(); }
    explain(verbosity) { return n.explain(this._db, this._coll, this._kind, this._spec, verbosity); }
    close() { if (this._h !== null) n.cursorClose(this._h); }
    isClosed() { return this._h !== null && !n.cursorHasNext(this._h); }
    _it() {
      const docs = [];
      while (docs.length < 20 && this.hasNext()) docs.push(this.next());
      return { docs, more: this.hasNext() };
    }
    [Symbol.iterator]() {
      return { next: () => (this.hasNext() ? { value: this.next(), done: false } : { value: undefined, done: true }) };
    }
    [Symbol.asyncIterator]() {
      const it = this[Symbol.iterator]();
      return { next: () => Promise.resolve(it.next()) };
    }
  }
  hidden(Cursor.prototype, kType, 'Cursor');

  class ExplainableCursor extends Cursor {
    constructor(db, coll, kind, spec, verbosity) {
      super(db, coll, kind, spec);
      hidden(this, '_verbosity', verbosity);
    }
    _finish() { return this.explain(this._verbosity); }
  }
  hidden(ExplainableCursor.prototype, kType, 'ExplainableCursor');

  // mongosh runs a pipeline ending in $out or $merge at once, even when its
  // cursor is never read.
  const runsImmediately = (cursor) => {
    const p = cursor._spec.pipeline;
    const last = Array.isArray(p) && p.length > 0 ? p[p.length - 1] : null;
    if (last && typeof last === 'object' && ('$out' in last || '$merge' in last)) cursor.hasNext();
    return cursor;
  };

  // ---- collections --------------------------------------------------------
  const opt = (o) => (o === undefined || o === null ? {} : o);
  class Collection {
    constructor(db, name) {
      hidden(this, '_database', db);
      hidden(this, '_name', name);
    }
    get _db() { return this._database._name; }
    getName() { return this._name; }
    getFullName() { return this._db + '.' + this._name; }
    getDB() { return this._database; }
    toString() { return this.getFullName(); }
    insertOne(doc, o) { return n.insertOne(this._db, this._name, doc, opt(o)); }
    insertMany(docs, o) { return n.insertMany(this._db, this._name, docs, opt(o)); }
    insert(docs, o) {
      deprecated('Collection.insert() is deprecated. Use insertOne, insertMany, or bulkWrite.');
      return n.insertMany(this._db, this._name, Array.isArray(docs) ? docs : [docs], opt(o));
    }
    updateOne(f, u, o) { return n.update(this._db, this._name, 'one', f, u, opt(o)); }
    updateMany(f, u, o) { return n.update(this._db, this._name, 'many', f, u, opt(o)); }
    replaceOne(f, r, o) { return n.update(this._db, this._name, 'replace', f, r, opt(o)); }
    update(f, u, o) {
      deprecated('Collection.update() is deprecated. Use updateOne, updateMany, or bulkWrite.');
      o = opt(o);
      const rest = Object.assign({}, o);
      delete rest.multi;
      return n.update(this._db, this._name, o.multi ? 'many' : 'one', f, u, rest);
    }
    deleteOne(f, o) { return n.deleteDocs(this._db, this._name, false, f, opt(o)); }
    deleteMany(f, o) { return n.deleteDocs(this._db, this._name, true, f, opt(o)); }
    remove(f, o) {
      deprecated('Collection.remove() is deprecated. Use deleteOne, deleteMany, findOneAndDelete, or bulkWrite.');
      const justOne = typeof o === 'boolean' ? o : !!(o && o.justOne);
      return n.deleteDocs(this._db, this._name, !justOne, f, {});
    }
    find(filter, projection, o) {
      const spec = Object.assign({}, opt(o));
      spec.filter = filter === undefined ? {} : filter;
      if (projection !== undefined) spec.projection = projection;
      return new Cursor(this._db, this._name, 'find', spec);
    }
    findOne(filter, projection, o) {
      return n.findOne(this._db, this._name, filter === undefined ? {} : filter, projection, opt(o));
    }
    aggregate(pipeline, o, ...more) {
      if (!Array.isArray(pipeline)) pipeline = [pipeline, o, ...more].filter(x => x !== undefined), o = {};
      const spec = Object.assign({}, opt(o));
      spec.pipeline = pipeline;
      if (spec.explain) { return n.explain(this._db, this._name, 'aggregate', spec, 'queryPlanner'); }
      return runsImmediately(new Cursor(this._db, this._name, 'aggregate', spec));
    }
    countDocuments(f, o) { return n.countDocuments(this._db, this._name, f === undefined ? {} : f, opt(o)); }
    estimatedDocumentCount(o) { return n.estimatedCount(this._db, this._name, opt(o)); }
    count(f, o) {
      deprecated('Collection.count() is deprecated. Use countDocuments or estimatedDocumentCount.');
      return n.countCommand(this._db, this._name, f === undefined ? {} : f, opt(o));
    }
    distinct(field, f, o) { return n.distinct(this._db, this._name, field, f === undefined ? {} : f, opt(o)); }
    bulkWrite(ops, o) { return n.bulkWrite(this._db, this._name, ops, opt(o)); }
    findOneAndUpdate(f, u, o) { return n.findAndModify(this._db, this._name, 'update', f, u, opt(o)); }
    findOneAndReplace(f, r, o) { return n.findAndModify(this._db, this._name, 'replace', f, r, opt(o)); }
    findOneAndDelete(f, o) { return n.findAndModify(this._db, this._name, 'delete', f, undefined, opt(o)); }
    findAndModify(spec) {
      spec = opt(spec);
      const o = Object.assign({}, spec);
      delete o.query; delete o.update; delete o.remove;
      if (spec.new) o.returnDocument = 'after';
      delete o.new;
      if (spec.remove) return n.findAndModify(this._db, this._name, 'delete', spec.query || {}, undefined, o);
      const u = spec.update;
      const isOp = Array.isArray(u) || (u && Object.keys(u).some(k => k.startsWith('$')));
      return n.findAndModify(this._db, this._name, isOp ? 'update' : 'replace', spec.query || {}, u, o);
    }
    createIndex(keys, o, commitQuorum) { return n.createIndexes(this._db, this._name, [keys], opt(o))[0]; }
    ensureIndex(keys, o) { return this.createIndex(keys, o); }
    createIndexes(specs, o) { return n.createIndexes(this._db, this._name, specs, opt(o)); }
    getIndexes() { return n.getIndexes(this._db, this._name); }
    getIndexSpecs() { return this.getIndexes(); }
    getIndexKeys() { return this.getIndexes().map(i => i.key); }
    dropIndex(index) { return n.runCommand(this._db, { dropIndexes: this._name, index }); }
    dropIndexes(indexes) {
      return n.runCommand(this._db, { dropIndexes: this._name, index: indexes === undefined ? '*' : indexes });
    }
    drop() { return n.dropCollection(this._db, this._name); }
    stats(o) { return n.runCommand(this._db, { collStats: this._name, scale: (typeof o === 'number' ? o : opt(o).scale) || 1 }); }
    dataSize() { return this.stats().size; }
    storageSize() { return this.stats().storageSize; }
    totalIndexSize() { return this.stats().totalIndexSize; }
    totalSize() { const s = this.stats(); return s.storageSize + s.totalIndexSize; }
    isCapped() { return !!this.stats().capped; }
    renameCollection(to, dropTarget) {
      return n.runCommand('admin', { renameCollection: this._db + '.' + this._name, to: this._db + '.' + to, dropTarget: !!dropTarget });
    }
    runCommand(cmd, o) {
      if (typeof cmd === 'string') return n.runCommand(this._db, Object.assign({ [cmd]: this._name }, opt(o)));
      return n.runCommand(this._db, cmd);
    }
    validate() { return n.runCommand(this._db, { validate: this._name }); }
    explain(verbosity) { return new Explainable(this, verbosity === undefined ? 'queryPlanner' : verbosity === true ? 'allPlansExecution' : verbosity === false ? 'queryPlanner' : verbosity); }
    getCollection(name) { return this._database.getCollection(this._name + '.' + name); }
  }
  hidden(Collection.prototype, kType, 'Collection');

  class Explainable {
    constructor(coll, verbosity) { hidden(this, '_c', coll); hidden(this, '_v', verbosity); }
    getCollection() { return this._c; }
    getVerbosity() { return this._v; }
    setVerbosity(v) { this._v = v; }
    find(filter, projection, o) {
      const spec = Object.assign({}, opt(o));
      spec.filter = filter === undefined ? {} : filter;
      if (projection !== undefined) spec.projection = projection;
      return new ExplainableCursor(this._c._db, this._c._name, 'find', spec, this._v);
    }
    findOne(filter, projection) { return this.find(filter, projection).limit(1)._finish(); }
    aggregate(pipeline, o) {
      const spec = Object.assign({}, opt(o));
      spec.pipeline = pipeline;
      return n.explain(this._c._db, this._c._name, 'aggregate', spec, this._v);
    }
    count(filter) { return n.explainCommand(this._c._db, { count: this._c._name, query: filter === undefined ? {} : filter }, this._v); }
    countDocuments(filter) { return this.aggregate([{ $match: filter === undefined ? {} : filter }, { $group: { _id: 1, n: { $sum: 1 } } }]); }
    distinct(field, filter) { return n.explainCommand(this._c._db, { distinct: this._c._name, key: field, query: filter === undefined ? {} : filter }, this._v); }
    _update(f, u, o, multi) {
      o = opt(o);
      const stmt = Object.assign({ q: f, u: u, multi: multi }, o);
      delete stmt.multi; stmt.multi = multi;
      return n.explainCommand(this._c._db, { update: this._c._name, updates: [stmt] }, this._v);
    }
    update(f, u, o) { return this._update(f, u, o, !!opt(o).multi); }
    updateOne(f, u, o) { return this._update(f, u, o, false); }
    updateMany(f, u, o) { return this._update(f, u, o, true); }
    replaceOne(f, u, o) { return this._update(f, u, o, false); }
    _delete(f, limit) { return n.explainCommand(this._c._db, { delete: this._c._name, deletes: [{ q: f === undefined ? {} : f, limit }] }, this._v); }
    remove(f, justOne) { return this._delete(f, justOne ? 1 : 0); }
    deleteOne(f) { return this._delete(f, 1); }
    deleteMany(f) { return this._delete(f, 0); }
    findOneAndUpdate(f, u) { return n.explainCommand(this._c._db, { findAndModify: this._c._name, query: f, update: u }, this._v); }
    findOneAndReplace(f, u) { return this.findOneAndUpdate(f, u); }
    findOneAndDelete(f) { return n.explainCommand(this._c._db, { findAndModify: this._c._name, query: f, remove: true }, this._v); }
  }
  hidden(Explainable.prototype, kType, 'Explainable');

  const reserved = new Set(['then', 'toJSON', 'constructor', 'inspect', 'valueOf', 'toString', 'help']);
  const collectionProxy = (db, name) => new Proxy(new Collection(db, name), {
    get(target, prop, receiver) {
      if (typeof prop === 'symbol' || prop in target || reserved.has(prop) || prop.startsWith('_')) return Reflect.get(target, prop, receiver);
      return db.getCollection(name + '.' + prop);
    },
  });

  // ---- databases ----------------------------------------------------------
  class Database {
    constructor(name) {
      hidden(this, '_name', name);
      hidden(this, '_collections', new Map());
    }
    getName() { return this._name; }
    toString() { return this._name; }
    getCollection(name) {
      if (typeof name !== 'string' || name === '') throw new TypeError('Collection name must be a non-empty string');
      let c = this._collections.get(name);
      if (!c) { c = collectionProxy(this._self, name); this._collections.set(name, c); }
      return c;
    }
    getSiblingDB(name) { return databaseProxy(name); }
    getMongo() { return { getDB: (name) => databaseProxy(name), getDBNames: () => n.listDatabases().map(d => d.name) }; }
    getCollectionNames() { return n.listCollections(this._name, {}, true).map(c => c.name).sort(); }
    getCollectionInfos(filter, o) { return n.listCollections(this._name, filter === undefined ? {} : filter, !!opt(o).nameOnly); }
    createCollection(name, o) { return n.runCommand(this._name, Object.assign({ create: name }, opt(o))); }
    createView(name, source, pipeline, o) { return n.runCommand(this._name, Object.assign({ create: name, viewOn: source, pipeline }, opt(o))); }
    dropDatabase() { return n.dropDatabase(this._name); }
    runCommand(cmd, o) {
      if (typeof cmd === 'string') cmd = { [cmd]: 1 };
      return n.runCommand(this._name, cmd);
    }
    adminCommand(cmd) {
      if (typeof cmd === 'string') cmd = { [cmd]: 1 };
      return n.runCommand('admin', cmd);
    }
    stats(o) { return n.runCommand(this._name, { dbStats: 1, scale: (typeof o === 'number' ? o : opt(o).scale) || 1 }); }
    aggregate(pipeline, o) {
      const spec = Object.assign({}, opt(o));
      spec.pipeline = pipeline;
      return runsImmediately(new Cursor(this._name, 1, 'aggregate', spec));
    }
    version() { return n.runCommand('admin', { buildInfo: 1 }).version; }
    serverStatus() { return n.runCommand('admin', { serverStatus: 1 }); }
    hello() { return n.runCommand('admin', { hello: 1 }); }
    isMaster() { return n.runCommand('admin', { isMaster: 1 }); }
    listCommands() { return n.runCommand('admin', { listCommands: 1 }); }
  }
  hidden(Database.prototype, kType, 'Database');

  const databaseProxy = (name) => {
    const target = new Database(name);
    const p = new Proxy(target, {
      get(t, prop, receiver) {
        if (typeof prop === 'symbol' || prop in t || reserved.has(prop) || prop.startsWith('_')) return Reflect.get(t, prop, receiver);
        return t.getCollection(prop);
      },
    });
    hidden(target, '_self', p);
    return p;
  };

  const api = {
    ObjectId, ISODate, Int32, NumberInt, Long, NumberLong, Double, Decimal128, NumberDecimal, Timestamp, UUID,
    BinData, Binary, HexData, MD5, MinKey, MaxKey, Code, DBRef, BSONRegExp, BSONSymbol, EJSON, bsonsize,
    print, printjson, console,
    sleep: (ms) => n.sleep(ms),
    version: () => '2.5.0',
    isInteractive: () => false,
  };
  for (const [k, v] of Object.entries(api)) {
    Object.defineProperty(g, k, { value: v, writable: true, configurable: true, enumerable: false });
  }
  return {
    setDB(name) {
      Object.defineProperty(g, 'db', { value: databaseProxy(name), writable: true, configurable: true, enumerable: false });
    },
  };
})
