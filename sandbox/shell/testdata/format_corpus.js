// One case per line: a JavaScript expression printed with print() and with
// printjson(). Expected output comes from real mongosh (format_expected.txt).
{ _id: 103, judul: 'Atomic Habits', jumlahUlasan: 250000, isOutlier: true }
{ _id: 102, judul: 'Laut Bercerita', jumlahUlasan: 3, isOutlier: true }
{ _id: 101, judul: 'Bumi', jumlahUlasan: 2, ulasan: [ { pembaca: 'Budi', bintang: 4 }, { pembaca: 'Siti', bintang: 5 } ] }
{ acknowledged: true, insertedIds: { '0': ObjectId('6ad39b39a4366d64684ef1bf'), '1': ObjectId('6ad39b39a4366d64684ef1c0') } }
{ a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } }
{ a: [ [ [ [ [ [ [ [ 1 ] ] ] ] ] ] ] ] }
Array.from({ length: 120 }, (_, i) => i)
Array.from({ length: 7 }, (_, i) => i)
Array.from({ length: 30 }, (_, i) => i * 1000)
Array.from({ length: 26 }, (_, i) => String.fromCharCode(97 + i))
Array.from({ length: 12 }, (_, i) => 'item number ' + i)
Array.from({ length: 40 }, (_, i) => ({ i }))
[ 1, 'two', 3, 'four', 5, 'six', 7, 'eight' ]
[ 1.5, -2, 3e21, 1e-7, 0.000001, -0, NaN, Infinity, -Infinity, 123456789012 ]
{ s1: "it's", s2: 'say "hi"', s3: `both ' and "`, s4: 'tab\there', s5: 'new\nline', s6: 'back\\slash', s7: '\u0001ctl' }
{ long: 'line one of a long string\nline two of a long string\nline three of it\n' }
{ 'a-b': 1, '$set': 2, '0': 3, _x: 4, A9: 5, '9a': 6, 'with space': 7, '': 8 }
{ b: 1, '10': 2, '2': 3, a: 4 }
{ oid: ObjectId('6ad39b39a4366d64684ef1bf'), date: ISODate('2026-12-05T08:00:00Z'), d2: new Date(0) }
{ l: NumberLong('9007199254740993'), l2: Long('-5'), i: NumberInt(7), i2: Int32(8), d: Double(2.5), d2: Double(3) }
{ dec: NumberDecimal('1.10'), dec2: Decimal128('-0.000'), ts: Timestamp({ t: 1700000000, i: 5 }) }
{ u: UUID('0123456789abcdef0123456789abcdef'), b0: BinData(0, 'AQID'), b5: BinData(5, 'AAECAwQ=') }
{ min: MinKey(), max: MaxKey(), re: /ab+c/i, re2: /a\/b/, code: Code('function() { return 1; }') }
{ ref: DBRef('users', ObjectId('6ad39b39a4366d64684ef1bf')), ref2: DBRef('c', 5, 'otherdb') }
{ n: null, u: undefined, t: true, f: false, fn: function named() {}, arrow: () => 1 }
{ empty: {}, emptyArr: [], nested: { empty: {} } }
[ { a: 1, b: 2 }, { a: 3, b: 4 } ]
{ matrix: [ [ 1, 2, 3 ], [ 4, 5, 6 ], [ 7, 8, 9 ] ], words: [ 'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta' ] }
{ stage: 'COLLSCAN', filter: { bukuId: { '$eq': 103 } }, direction: 'forward', nReturned: 3, executionTimeMillisEstimate: 0, works: 5, advanced: 3 }
{ queryPlanner: { namespace: 'test.c', parsedQuery: { a: { '$gt': 5 } }, winningPlan: { stage: 'FETCH', inputStage: { stage: 'IXSCAN', keyPattern: { a: 1 }, indexName: 'a_1', isMultiKey: false, direction: 'forward', indexBounds: { a: [ '(5, inf.0]' ] } } }, rejectedPlans: [] } }
{ unicode: 'héllo wörld', cjk: '日本語のテキスト', emoji: 'smile 😀' }
Array.from({ length: 8 }, (_, i) => 'x'.repeat(i * 3))
Array.from({ length: 10 }, (_, i) => ({ _id: i, name: 'user' + i, tags: [ 'a', 'b' ] }))
{ a: 'x'.repeat(100) }
[ [ 1, 2 ], [ 3, 4 ], [ 5, 6 ], [ 7, 8 ], [ 9, 10 ], [ 11, 12 ], [ 13, 14 ] ]
[ true, false, null, undefined, 1, 2, 3 ]
{ arr: Array.from({ length: 101 }, () => 0) }
'top level string'
42
-0
{ a: BSONSymbol('sym'), c: Code('x', { a: 1 }), l: Long('-9223372036854775808'), ts: Timestamp({ t: 0, i: 0 }) }
{ s: new Set([ 1, 'two' ]), m: new Map([ [ 'a', { b: 1 } ] ]), em: new Map() }
{ nested: [ [ { a: [ 1, { b: [ 2, { c: 3 } ] } ] } ] ] }
{ re: BSONRegExp('a+', 'x'), dt: new Date(-62198755200000), big: new Date(253402300800000), bin: Binary.createFromHexString('0102', 128) }
[ 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' ]
{ k: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\nyyyyyyyy' }
{ level1: { level2: { level3: { a: 1, b: 'two', c: [ 1, 2, 3 ] }, x: [ { y: 1 }, { y: 2 } ] }, wide: { aaaaaaaaaa: 1, bbbbbbbbbb: 2, cccccccccc: 3, dddddddddd: 4, eeeeeeeeee: 5 } } }
Array.from({ length: 25 }, (_, i) => ({ _id: i, v: i * 1.5 }))
Array.from({ length: 9 }, (_, i) => NumberLong(String(i * 1000000)))
Array.from({ length: 9 }, (_, i) => ObjectId('6ad39b39a4366d64684ef1' + (0xb0 + i).toString(16)))
[ -1, 22, -333, 4444, -55555, 666666, 7, 8.5, -9.25 ]
{ a: [ { b: [ { c: [ { d: [ { e: [ { f: [ 1 ] } ] } ] } ] } ] } ] }
