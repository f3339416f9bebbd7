// Database, as in mongosh's database.ts, and the proxy that makes db.<name>
// a collection.

class Database {
  constructor(name, session) {
    hidden(this, '_name', name);
    hidden(this, '_collections', new Map());
    hidden(this, '_session', session === undefined ? null : session);
  }
  // What the natives get as the database: its name, or, for a session's
  // Database, the name with the session.
  get _ref() { return this._session === null ? this._name : n.sessionDB(this._name, this._session._h); }
  get _adminRef() { return this._session === null ? 'admin' : n.sessionDB('admin', this._session._h); }
  getName() { return this._name; }
  toString() { return this._name; }
  getCollection(name) {
    if (typeof name !== 'string' || name === '') throw new TypeError('Collection name must be a non-empty string');
    let c = this._collections.get(name);
    if (!c) { c = collectionProxy(this._self, name); this._collections.set(name, c); }
    return c;
  }
  getSiblingDB(name) { return this._session !== null ? this._session.getDatabase(name) : databaseProxy(name); }
  getMongo() { return mongo; }
  getCollectionNames() { return later(n.listCollections(this._ref, {}, true), (cs) => cs.map(c => c.name).sort()); }
  getCollectionInfos(filter, o) { return n.listCollections(this._ref, filter === undefined ? {} : filter, !!opt(o).nameOnly); }
  createCollection(name, o) { return n.runCommand(this._ref, Object.assign({ create: name }, opt(o))); }
  createView(name, source, pipeline, o) { return n.runCommand(this._ref, Object.assign({ create: name, viewOn: source, pipeline }, opt(o))); }
  dropDatabase() { return n.dropDatabase(this._ref); }
  runCommand(cmd, o) {
    if (typeof cmd === 'string') cmd = { [cmd]: 1 };
    return n.runCommand(this._ref, cmd);
  }
  adminCommand(cmd) {
    if (typeof cmd === 'string') cmd = { [cmd]: 1 };
    return n.runCommand(this._adminRef, cmd);
  }
  stats(o) { return n.runCommand(this._ref, { dbStats: 1, scale: (typeof o === 'number' ? o : opt(o).scale) || 1 }); }
  aggregate(pipeline, o) {
    const spec = Object.assign({}, opt(o));
    spec.pipeline = pipeline;
    return runsImmediately(new AggregationCursor(this._ref, 1, spec));
  }
  version() { return later(n.runCommand('admin', { buildInfo: 1 }), (r) => r.version); }
  serverStatus() { return n.runCommand('admin', { serverStatus: 1 }); }
  hello() { return n.runCommand('admin', { hello: 1 }); }
  isMaster() { return n.runCommand('admin', { isMaster: 1 }); }
  listCommands() { return n.runCommand('admin', { listCommands: 1 }); }
}
hidden(Database.prototype, kType, 'Database');

const databaseProxy = (name, session) => {
  const target = new Database(name, session);
  const p = new Proxy(target, {
    get(t, prop, receiver) {
      if (typeof prop === 'symbol' || prop in t || reserved.has(prop) || prop.startsWith('_')) return Reflect.get(t, prop, receiver);
      return t.getCollection(prop);
    },
  });
  hidden(target, '_self', p);
  return p;
};
