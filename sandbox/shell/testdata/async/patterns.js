// Async patterns: loops with await, for await over a cursor, the order
// of microtasks, .then chains, forEach with an async callback, timers.
db.p.drop();
db.p.insertOne({ _id: 1 });
(async () => { const out = []; for (let i = 0; i < 3; i++) { out.push(await db.p.countDocuments()) } for await (const d of db.p.find()) out.push(d); return out })();
(async () => { const order = []; const a = (async () => { order.push('a1'); await db.p.findOne(); order.push('a2') })(); const b = (async () => { order.push('b1'); await null; order.push('b2') })(); await Promise.all([a, b]); return order })();
Promise.resolve(1).then(x => x + 1).then(x => { print('then', x); return x * 10 });
(async () => 'an async arrow')();
db.p.find().forEach(async d => { await db.p.countDocuments(); print('each', d._id) });
print('after forEach');
setTimeout(() => print('later'), 10); print('now');
let n = 0; const id = setInterval(() => { n++; print('tick', n); if (n === 3) clearInterval(id) }, 10);
print('scheduled');
sleep(100);
print('slept');
