// Cursor and ExplainableCursor, as in mongosh's cursor.ts and
// explainable-cursor.ts.

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
    if (this._h === null) this._h = (this._kind === 'find' ? n.openFind : n.openAggregate)(this._db, this._coll, this._spec);
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
