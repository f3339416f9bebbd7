// The globals the prelude defines, and the function that changes `db`.

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
