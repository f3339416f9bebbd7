// The globals the prelude defines, as mongosh's shell-api.ts: print(),
// printjson() and console among them, and the function that changes `db`.

// mongosh's print waits for the Promises among its arguments and prints
// their values. (n.isPromise looks without running a Proxy's traps.)
const printing = (native) => (...args) => (args.some(n.isPromise)
  ? markPromise(ShellPromise.all(args).then((values) => { native(...values); }))
  : native(...args));
const print = printing(n.print);
const printjson = printing(n.printjson);
const console = {
  log: print, info: print, warn: print, error: print, debug: print,
};

const api = {
  ObjectId, ISODate, Int32, NumberInt, Long, NumberLong, Double, Decimal128, NumberDecimal, Timestamp, UUID,
  BinData, Binary, HexData, MD5, MinKey, MaxKey, Code, DBRef, BSONRegExp, BSONSymbol, EJSON, bsonsize,
  print, printjson, console,
  sleep: (ms) => n.sleep(ms),
  quit: (code) => n.quit(code),
  exit: (code) => n.quit(code),
  setTimeout, setInterval, setImmediate, clearTimeout, clearInterval: clearTimeout, clearImmediate: clearTimeout, queueMicrotask,
  // What the rewrite of async functions (rewrite.go) calls.
  __shell$t: undefined,
  __shell$isp: isShellPromise,
  __shell$asyncIterator: (x) => {
    if (x !== null && x !== undefined && typeof x[Symbol.asyncIterator] === 'function') return x[Symbol.asyncIterator]();
    if (x !== null && x !== undefined && typeof x[Symbol.iterator] === 'function') {
      const it = x[Symbol.iterator]();
      return { next: async () => { const r = it.next(); return r.done ? r : { value: await r.value, done: false }; } };
    }
    throw new TypeError(String(x) + ' is not async iterable');
  },
  version: () => '2.5.0',
  isInteractive: () => false,
};
const apiNames = Object.keys(api);
for (let i = 0; i < apiNames.length; i++) {
  Object.defineProperty(g, apiNames[i], { value: api[apiNames[i]], writable: true, configurable: true, enumerable: false });
}
return {
  setDB(name) {
    Object.defineProperty(g, 'db', { value: databaseProxy(name), writable: true, configurable: true, enumerable: false });
  },
};
