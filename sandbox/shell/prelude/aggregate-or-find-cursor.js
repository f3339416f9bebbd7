// AggregateOrFindCursor, as mongosh's aggregate-or-find-cursor.ts: the
// methods find and aggregation cursors both have. Each says in _chain how
// it takes them: a find cursor as options of its command, an aggregation
// cursor as stages added to its pipeline, as the Node driver's do.

class AggregateOrFindCursor extends AbstractCursor {
  projection(p) { return this._chain('projection', '$project', p); }
  skip(v) { return this._chain('skip', '$skip', v); }
  sort(s) { return this._chain('sort', '$sort', s); }
  explain(verbosity) { return n.explain(this._db, this._coll, this._kind, this._spec, verbosity); }
}
