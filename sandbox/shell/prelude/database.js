// Database, as in mongosh's database.ts, and the proxy that makes db.<name>
// a collection.

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
