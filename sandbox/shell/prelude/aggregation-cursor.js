// AggregationCursor, as mongosh's aggregation-cursor.ts.

class AggregationCursor extends AggregateOrFindCursor {
  get _kind() { return 'aggregate'; }
  _openNative(db, coll, spec) { return n.openAggregate(db, coll, spec); }
  // The Node driver's addStage pushes onto the pipeline it was given,
  // the caller's array.
  _chain(option, stage, value) { this._spec.pipeline.push({ [stage]: value }); return this; }
}
hidden(AggregationCursor.prototype, kType, 'AggregationCursor');

// mongosh runs a pipeline ending in $out or $merge at once, even when its
// cursor is never read.
const runsImmediately = (cursor) => {
  const p = cursor._spec.pipeline;
  const last = Array.isArray(p) && p.length > 0 ? p[p.length - 1] : null;
  if (last && typeof last === 'object' && ('$out' in last || '$merge' in last)) return later(cursor.hasNext(), () => cursor);
  return cursor;
};
