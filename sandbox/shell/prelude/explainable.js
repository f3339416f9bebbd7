// Explainable: db.c.explain(verbosity), as in mongosh's explainable.ts.

class Explainable {
  constructor(coll, verbosity) { hidden(this, '_c', coll); hidden(this, '_v', verbosity); }
  getCollection() { return this._c; }
  getVerbosity() { return this._v; }
  setVerbosity(v) { this._v = v; }
  find(filter, projection, o) {
    const spec = Object.assign({}, opt(o));
    spec.filter = filter === undefined ? {} : filter;
    if (projection !== undefined) spec.projection = projection;
    return new ExplainableCursor(this._c._dbr, this._c._name, spec, this._v);
  }
  findOne(filter, projection) { return this.find(filter, projection).limit(1)._finish(); }
  aggregate(pipeline, o) {
    const spec = Object.assign({}, opt(o));
    spec.pipeline = pipeline;
    return n.explain(this._c._dbr, this._c._name, 'aggregate', spec, this._v);
  }
  count(filter) { return n.explainCommand(this._c._dbr, { count: this._c._name, query: filter === undefined ? {} : filter }, this._v); }
  countDocuments(filter) { return this.aggregate([{ $match: filter === undefined ? {} : filter }, { $group: { _id: 1, n: { $sum: 1 } } }]); }
  distinct(field, filter) { return n.explainCommand(this._c._dbr, { distinct: this._c._name, key: field, query: filter === undefined ? {} : filter }, this._v); }
  _update(f, u, o, multi) {
    o = opt(o);
    const stmt = Object.assign({ q: f, u: u, multi: multi }, o);
    delete stmt.multi; stmt.multi = multi;
    return n.explainCommand(this._c._dbr, { update: this._c._name, updates: [stmt] }, this._v);
  }
  update(f, u, o) { return this._update(f, u, o, !!opt(o).multi); }
  updateOne(f, u, o) { return this._update(f, u, o, false); }
  updateMany(f, u, o) { return this._update(f, u, o, true); }
  replaceOne(f, u, o) { return this._update(f, u, o, false); }
  _delete(f, limit) { return n.explainCommand(this._c._dbr, { delete: this._c._name, deletes: [{ q: f === undefined ? {} : f, limit }] }, this._v); }
  remove(f, justOne) { return this._delete(f, justOne ? 1 : 0); }
  deleteOne(f) { return this._delete(f, 1); }
  deleteMany(f) { return this._delete(f, 0); }
  findOneAndUpdate(f, u) { return n.explainCommand(this._c._dbr, { findAndModify: this._c._name, query: f, update: u }, this._v); }
  findOneAndReplace(f, u) { return this.findOneAndUpdate(f, u); }
  findOneAndDelete(f) { return n.explainCommand(this._c._dbr, { findAndModify: this._c._name, query: f, remove: true }, this._v); }
}
hidden(Explainable.prototype, kType, 'Explainable');
