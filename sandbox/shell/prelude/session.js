// Session, as in mongosh's session.ts, over the driver's sessions
// (natives_session.go).

class Session {
  constructor(options) {
    const o = options === undefined ? {} : options;
    hidden(this, '_h', n.startSession(o));
    hidden(this, '_options', o);
    hidden(this, '_databases', new Map());
    this.id = n.sessionID(this._h);
  }
  getDatabase(name) {
    if (typeof name !== 'string') throw new TypeError('Session.getDatabase: the database name must be a string');
    let d = this._databases.get(name);
    if (!d) { d = databaseProxy(name, this); this._databases.set(name, d); }
    return d;
  }
  getOptions() { return this._options; }
  startTransaction(o) { n.startTransaction(this._h, o); }
  commitTransaction() { return n.commitTransaction(this._h); }
  abortTransaction() { return n.abortTransaction(this._h); }
  endSession() { return n.endSession(this._h); }
  hasEnded() { return n.hasEnded(this._h); }
  // The Node driver's withTransaction: the callback runs in a
  // transaction, which is committed after it; on a TransientTransactionError
  // the whole transaction is retried, and on an UnknownTransactionCommitResult
  // the commit, for up to 120 seconds. It works on what fn returns, or
  // on the Promise it returns.
  withTransaction(fn, o) {
    if (typeof fn !== 'function') throw new TypeError('Session.withTransaction: the first argument must be a function');
    const deadline = Date.now() + 120000;
    const hasLabel = (e, label) => e !== null && typeof e === 'object' && Array.isArray(e.errorLabels) && e.errorLabels.includes(label);
    const attempt = () => {
      this.startTransaction(o);
      return settle(() => fn(this), (result) => {
        if (!n.inTransaction(this._h)) return result;
        const commit = () => settle(() => this.commitTransaction(), () => result, (e) => {
          if (hasLabel(e, 'UnknownTransactionCommitResult') && e.codeName !== 'MaxTimeMSExpired' && Date.now() < deadline) return commit();
          if (hasLabel(e, 'TransientTransactionError') && Date.now() < deadline) return attempt();
          throw e;
        });
        return commit();
      }, (e) => settle(() => (n.inTransaction(this._h) ? this.abortTransaction() : undefined), () => {
        if (hasLabel(e, 'TransientTransactionError') && Date.now() < deadline) return attempt();
        throw e;
      }, () => { throw e; }));
    };
    return attempt();
  }
}
hidden(Session.prototype, kType, 'Session');
