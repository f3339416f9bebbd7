// Cursor, as mongosh's cursor.ts: a find cursor.

class Cursor extends AggregateOrFindCursor {
  get _kind() { return 'find'; }
  _openNative(db, coll, spec) { return n.openFind(db, coll, spec); }
  _chain(option, stage, value) { return this._set(option, value); }
  limit(v) { return this._set('limit', v); }
  hint(h) { return this._set('hint', h); }
  comment(c) { return this._set('comment', c); }
  collation(c) { return this._set('collation', c); }
  min(v) { return this._set('min', v); }
  max(v) { return this._set('max', v); }
  allowDiskUse(v) { return this._set('allowDiskUse', v === undefined ? true : v); }
  readPref() { return this; }
  noCursorTimeout() { return this; }
  // The Node driver's FindCursor.count(): a count command with the
  // cursor's filter, skip and limit.
  count() {
    const opts = {};
    if (this._spec.limit) opts.limit = Math.abs(this._spec.limit);
    if (this._spec.skip) opts.skip = this._spec.skip;
    if (this._spec.hint) opts.hint = this._spec.hint;
    return n.countCommand(this._db, this._coll, this._spec.filter || {}, opts);
  }
  size() { return this.count(); }
}
hidden(Cursor.prototype, kType, 'Cursor');
