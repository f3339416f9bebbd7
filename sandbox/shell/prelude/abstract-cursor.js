// AbstractCursor, as mongosh's abstract-cursor.ts (BaseCursor and
// AbstractFiniteCursor): what find and aggregation cursors share, reading
// and transforming documents, batchSize and maxTimeMS.

class AbstractCursor {
  constructor(db, coll, spec) {
    hidden(this, '_db', db);
    hidden(this, '_coll', coll);
    hidden(this, '_spec', spec);
    hidden(this, '_h', null);
    hidden(this, '_transforms', []);
    hidden(this, '_buf', []);
  }
  _set(key, value) { this._spec[key] = value; return this; }
  batchSize(v) { return this._set('batchSize', v); }
  maxTimeMS(v) { return this._set('maxTimeMS', v); }
  pretty() { return this; }
  _open() {
    if (this._h === null) this._h = this._openNative(this._db, this._coll, this._spec);
    return this._h;
  }
  _transform(d) {
    let out = d;
    for (const f of this._transforms) out = f(out);
    return out;
  }
  // _buf holds documents read ahead a batch at a time (forEach and
  // for await), which the other methods return first.
  hasNext() { return this._buf.length > 0 ? true : n.cursorHasNext(this._open()); }
  next() {
    if (this._buf.length > 0) return this._transform(this._buf.shift());
    return later(n.cursorNext(this._open()), (d) => (d === null ? null : this._transform(d)));
  }
  tryNext() { return this.next(); }
  isExhausted() { return this.isClosed(); }
  toArray() {
    const ahead = this._buf.splice(0);
    return later(n.cursorTake(this._open(), -1), (docs) => ahead.concat(docs).map((d) => this._transform(d)));
  }
  // forEach waits for a callback that returns a Promise, as mongosh's does.
  forEach(f) {
    if (n.callerAsync()) return markPromise(this._forEachAsync(f));
    while (this.hasNext()) {
      const r = f(this.next());
      if (isThenable(r)) return markPromise(ShellPromise.resolve(r).then((v) => (v === false ? undefined : this._forEachAsync(f))));
      if (r === false) break;
    }
  }
  async _forEachAsync(f) {
    for (;;) {
      if (!(await this._fill())) return;
      const r = f(this._transform(this._buf.shift()));
      if ((isThenable(r) ? await r : r) === false) return;
    }
  }
  // _fill reads the next batch into _buf if it is empty, and says
  // whether there is a document.
  async _fill() {
    if (this._buf.length === 0) this._buf = await n.cursorTake(this._open(), 0);
    return this._buf.length > 0;
  }
  map(f) { this._transforms.push(f); return this; }
  itcount() {
    const ahead = this._buf.splice(0).length;
    return later(n.cursorCount(this._open()), (c) => c + ahead);
  }
  close() { if (this._h !== null) return n.cursorClose(this._h); }
  isClosed() { return this._h !== null && this._buf.length === 0 && n.cursorClosed(this._h); }
  _it() {
    const docs = [];
    while (docs.length < 20 && this.hasNext()) docs.push(this.next());
    return { docs, more: this.hasNext() };
  }
  // A sync iterator cannot wait for a Promise, so its reads block,
  // wherever it runs.
  [Symbol.iterator]() {
    return { next: () => n.blocking(() => (this.hasNext() ? { value: this.next(), done: false } : { value: undefined, done: true })) };
  }
  [Symbol.asyncIterator]() {
    return {
      next: async () => ((await this._fill())
        ? { value: this._transform(this._buf.shift()), done: false }
        : { value: undefined, done: true }),
    };
  }
}
