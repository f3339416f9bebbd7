// db.getMongo(): as much of mongosh's Mongo (mongo.ts) as a shell on one
// connection has.

const mongo = {
  getDB: (name) => databaseProxy(name),
  getDBNames: () => later(n.listDatabases(), (dbs) => dbs.map(d => d.name)),
  startSession: (options) => new Session(options),
};
