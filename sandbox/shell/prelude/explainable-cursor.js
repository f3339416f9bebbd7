// ExplainableCursor, as mongosh's explainable-cursor.ts: the find cursor
// of db.c.explain().find(), which prints as its explain output.

class ExplainableCursor extends Cursor {
  constructor(db, coll, spec, verbosity) {
    super(db, coll, spec);
    hidden(this, '_verbosity', verbosity);
  }
  _finish() { return this.explain(this._verbosity); }
}
hidden(ExplainableCursor.prototype, kType, 'ExplainableCursor');
