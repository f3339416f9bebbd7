// Shared by every part of the prelude, as mongosh's helpers.ts: the symbol
// that marks shell API objects, deprecation warnings printed once,
// non-enumerable fields, and the shell's Promises.

'use strict';
const kType = n.typeSymbol;
const warned = new Set();
const deprecated = (msg) => {
  if (!warned.has(msg)) { warned.add(msg); n.print('DeprecationWarning: ' + msg); }
};
const hidden = (obj, key, value) => Object.defineProperty(obj, key, { value, writable: true, configurable: true, enumerable: false });

// The Promises of the shell's methods carry a mark: async code waits for
// those (rewrite.go) and for no others, as mongosh's implicit await does.
const kPromise = n.promiseSymbol;
const ShellPromise = Promise;
const isShellPromise = (v) => v instanceof ShellPromise && v[kPromise] === true;
const markPromise = (p) => Object.defineProperty(p, kPromise, { value: true });
const isThenable = (v) => v !== null && (typeof v === 'object' || typeof v === 'function') && typeof v.then === 'function';
// later(v, f) is f(v), once v has settled when it is one of those
// Promises: a method that works on what a native returned works the same
// from async code, where the native returns a Promise.
const later = (v, f) => (isShellPromise(v) ? markPromise(v.then(f)) : f(v));
// settle(run, ok, failed) is ok(run()), or failed(e) if run throws, also
// when run() returns a Promise.
const settle = (run, ok, failed) => {
  let v;
  try { v = run(); } catch (e) { return failed(e); }
  return isThenable(v) ? markPromise(ShellPromise.resolve(v).then(ok, failed)) : ok(v);
};
