// The body of the function in which the lessons runner evaluates an
// exercise check or a `js expect` block. Everything declared here is a
// local of that function: the helpers a check uses never become globals
// of the learner's session. __schemalab is the runner's side of it: the
// check's source, the attempt as Extended JSON, and Go functions for what
// only the runner sees (the commands the client sent, explain on the data
// as it was before the attempt, the helpers' messages in the learner's
// language).
const __sl = __schemalab;
const __parse = (s) => EJSON.parse(s);
const __quote = (s) => "'" + s + "'";
const __data = __parse(__sl.input);
const __reads = (c) => c.reads || [];

// A list of recorded commands and the questions checks ask about it.
const __commandSet = (list) => {
  const readList = () => list.filter((c) => __reads(c).length > 0);
  const explain = (i) => {
    const reads = readList();
    if (!(i >= 0 && i < reads.length)) {
      throw new RangeError(__sl.say('explainRange', { I: i, Count: reads.length }));
    }
    return __parse(__sl.explain(reads[i].index));
  };
  return {
    commands: list,
    reads: (coll) => readList().filter((c) => coll === undefined || __reads(c).includes(coll)).length,
    writes: (coll) => list.reduce((n, c) => n + (coll === undefined || c.target === coll ? c.writes : 0), 0),
    readsOnly(coll) {
      const other = [];
      for (const c of list) for (const r of __reads(c)) if (r !== coll && !other.includes(r)) other.push(r);
      if (other.length > 0) {
        return { pass: false, message: __sl.say('readOthers', { Others: other.map(__quote).join(', '), Coll: __quote(coll) }) };
      }
      if (!list.some((c) => __reads(c).includes(coll))) {
        return { pass: false, message: __sl.say('neverRead', { Coll: __quote(coll) }) };
      }
      return { pass: true, message: __sl.say('readOnly', { Coll: __quote(coll) }) };
    },
    explain,
    docsExamined: () => readList().reduce((n, _, i) => n + explain(i).totalDocsExamined, 0),
  };
};

let __errorSeen = false;
const __attempt = __data.attempt;
const attempt = __attempt && Object.freeze(Object.defineProperty(
  Object.assign(__commandSet(__attempt.commands), { output: __attempt.output, value: __attempt.value }),
  // A check that looks at the error judges an attempt that threw.
  'error', { get() { __errorSeen = true; return __attempt.error; }, enumerable: true }));
const output = __data.output;

// track runs fn (typically the learner's function, called by the check)
// and returns the commands it sent, with the same questions as attempt.
const track = (fn) => {
  const from = __sl.mark();
  const value = fn();
  return Object.assign(__commandSet(__parse(__sl.since(from)).c), { value });
};
const readsOnly = (coll) => attempt.readsOnly(coll);
const reads = (coll) => attempt.reads(coll);
const writes = (coll) => attempt.writes(coll);
const docsExamined = () => attempt.docsExamined();

let __verdict;
try {
  // A function of its own, so that the check's declarations stay out of
  // the helpers' way; eval gives the value of its last statement.
  __verdict = (function () { return eval(__sl.check); })();
} catch (e) {
  return JSON.stringify({ threw: String(e), stack: String((e && e.stack) || ''), errorSeen: __errorSeen });
}
const __v = __verdict;
if (__v === true || __v === false) return JSON.stringify({ pass: __v, errorSeen: __errorSeen, plain: true });
if (typeof __v === 'string') return JSON.stringify({ pass: false, message: __v, errorSeen: __errorSeen });
if (__v !== null && typeof __v === 'object' && typeof __v.pass === 'boolean') {
  return JSON.stringify({ pass: __v.pass, message: __v.message === undefined ? '' : String(__v.message), errorSeen: __errorSeen });
}
return JSON.stringify({ pass: false, invalid: __v === undefined ? 'undefined' : typeof __v === 'object' ? EJSON.stringify(__v) : String(__v), errorSeen: __errorSeen });
