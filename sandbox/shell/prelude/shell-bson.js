// The BSON helpers mongosh has as globals (shell-bson): ObjectId(), ISODate(),
// NumberLong(), ..., EJSON and bsonsize(). Each value is a Go box (natives_bson.go).

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
// Plain loops over the keys: the runtime is built for every session, and
// entries() allocates an array per entry.
const ctorNames = Object.keys(ctors);
for (let i = 0; i < ctorNames.length; i++) {
  const name = ctorNames[i], ctor = ctors[name];
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
