// Node's timers, which mongosh scripts have: setTimeout and setInterval
// return a Timeout, which clearTimeout and clearInterval take, as they
// take its numeric id. The event loop (loop.go) fires them; the script
// runs until no timer is left, except unref()'d ones.

const kTimerID = Symbol('timerId');
// Node's TIMEOUT_MAX; a delay past it, or not a number of at least 1, is 1.
const timerDelay = (d) => { d *= 1; return d >= 1 && d <= 2147483647 ? d : 1; };
// Node's ERR_INVALID_ARG_TYPE for a callback that is not a function.
const notAFunction = (v) => {
  let got;
  if (v === null || v === undefined) got = String(v);
  else if (typeof v === 'object') got = 'an instance of ' + ((v.constructor && v.constructor.name) || 'Object');
  else {
    let shown = typeof v === 'string' ? "'" + v + "'" : String(v);
    if (shown.length > 28) shown = shown.slice(0, 25) + '...';
    got = 'type ' + typeof v + ' (' + shown + ')';
  }
  return new TypeError('The "callback" argument must be of type function. Received ' + got);
};
class Timeout {
  constructor(fn, delay, args, repeat) {
    if (typeof fn !== 'function') throw notAFunction(fn);
    const after = timerDelay(delay);
    this._idleTimeout = after;
    this._onTimeout = fn;
    this._timerArgs = args;
    this._repeat = repeat ? after : null;
    this._destroyed = false;
    hidden(this, '_ref', true);
    hidden(this, kTimerID, n.setTimer(after, repeat, () => {
      if (this._repeat === null) this._destroyed = true;
      this._onTimeout.apply(this, this._timerArgs === undefined ? [] : this._timerArgs);
    }));
  }
  ref() { this._ref = true; n.refTimer(this[kTimerID], true); return this; }
  unref() { this._ref = false; n.refTimer(this[kTimerID], false); return this; }
  hasRef() { return this._ref; }
  close() { clearTimeout(this); return this; }
  [Symbol.toPrimitive]() { return this[kTimerID]; }
}
const setTimeout = (fn, delay, ...args) => new Timeout(fn, delay, args.length > 0 ? args : undefined, false);
const setInterval = (fn, delay, ...args) => new Timeout(fn, delay, args.length > 0 ? args : undefined, true);
const setImmediate = (fn, ...args) => new Timeout(fn, 0, args.length > 0 ? args : undefined, false);
const clearTimeout = (t) => {
  if (t instanceof Timeout) {
    t._destroyed = true;
    n.clearTimer(t[kTimerID]);
  } else if (typeof t === 'number' || typeof t === 'string') {
    n.clearTimer(+t);
  }
};
const queueMicrotask = (fn) => {
  if (typeof fn !== 'function') throw notAFunction(fn);
  ShellPromise.resolve().then(() => fn());
};
