// Shared by every part of the prelude: the symbol that marks shell API
// objects, deprecation warnings printed once, and non-enumerable fields.

'use strict';
const kType = n.typeSymbol;
const warned = new Set();
const deprecated = (msg) => {
  if (!warned.has(msg)) { warned.add(msg); n.print('DeprecationWarning: ' + msg); }
};
const hidden = (obj, key, value) => Object.defineProperty(obj, key, { value, writable: true, configurable: true, enumerable: false });
