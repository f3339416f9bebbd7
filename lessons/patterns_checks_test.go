package lessons

import (
	"strings"
	"testing"
)

// The exercises of the bucket, computed and tree lessons grade how the
// learner did it, not only the data left behind: each approach the task
// rules out must fail with a message that says why, and the reference
// solution must still pass.

func TestComputedChecksRejectRuledOutApproaches(t *testing.T) {
	be := startSandbox(t)
	l := builtin(t, "computed")
	i := stepNamed(t, l, "Exercise: a grade is corrected")
	r := newTestRunner(t, be, l, "ruled_")
	for _, c := range []struct{ name, code, want string }{
		{"read the course, then $set", `function changeGrade(courseId, studentId, newGrade) {
  const before = db.enrollments.findOneAndUpdate({ courseId, studentId }, { $set: { grade: newGrade } }, { returnDocument: 'before' })
  const c = db.courses.findOne({ _id: courseId })
  const s = c.gradeSum + newGrade - before.grade
  db.courses.updateOne({ _id: courseId }, { $set: { gradeSum: s, avgGrade: s / c.gradeCount } })
}
changeGrade(30, 3000017, 55)`, "read courses before writing"},
		{"two writes to the course", `function changeGrade(courseId, studentId, newGrade) {
  const before = db.enrollments.findOneAndUpdate({ courseId, studentId }, { $set: { grade: newGrade } }, { returnDocument: 'before' })
  db.courses.updateOne({ _id: courseId }, { $inc: { gradeSum: newGrade - before.grade } })
  db.courses.updateOne({ _id: courseId }, [{ $set: { avgGrade: { $divide: ['$gradeSum', '$gradeCount'] } } }])
}
changeGrade(30, 3000017, 55)`, "sent 2 writes to courses"},
		{"course 30 hard-coded", `db.enrollments.updateOne({ courseId: 30, studentId: 3000017 }, { $set: { grade: 55 } })
db.courses.updateOne({ _id: 30 }, [{ $set: { gradeSum: { $add: ['$gradeSum', -15] } } }, { $set: { avgGrade: { $divide: ['$gradeSum', '$gradeCount'] } } }])
function changeGrade() {}`, "changeGrade(31, 3100005, 90) left that enrollment at"},
		{"the grade counted again", `function changeGrade(courseId, studentId, newGrade) {
  db.enrollments.updateOne({ courseId, studentId }, { $set: { grade: newGrade } })
  db.courses.updateOne({ _id: courseId }, [{ $set: { gradeSum: { $add: ['$gradeSum', newGrade] }, gradeCount: { $add: ['$gradeCount', 1] } } },
    { $set: { avgGrade: { $divide: ['$gradeSum', '$gradeCount'] } } }])
}
changeGrade(30, 3000017, 55)`, "a correction adds no grade"},
	} {
		if res := try(t, r, i, c.code); res.Passed || !strings.Contains(res.Message, c.want) {
			t.Errorf("%s: passed=%v %q, want a failure saying %q", c.name, res.Passed, res.Message, c.want)
		}
	}
	if res := try(t, r, i, l.Steps[i].Exercise.Solution); !res.Passed || !strings.Contains(res.Message, "handed back the old grade") {
		t.Errorf("solution: %v %q", res.Passed, res.Message)
	}
	// The old grade read from the enrollment before updating it: an
	// equivalent right answer, whose praise credits no findOneAndUpdate.
	readFirst := `function changeGrade(courseId, studentId, newGrade) {
  const old = db.enrollments.findOne({ courseId, studentId }).grade
  db.enrollments.updateOne({ courseId, studentId }, { $set: { grade: newGrade } })
  db.courses.updateOne({ _id: courseId }, [{ $set: { gradeSum: { $add: ['$gradeSum', newGrade - old] } } },
    { $set: { avgGrade: { $divide: ['$gradeSum', '$gradeCount'] } } }])
}
changeGrade(30, 3000017, 55)`
	if res := try(t, r, i, readFirst); !res.Passed || strings.Contains(res.Message, "handed back") {
		t.Errorf("the old grade read first: %v %q", res.Passed, res.Message)
	}

	i = stepNamed(t, l, "Exercise: the nightly job")
	for _, c := range []struct{ name, code, want string }{
		{"from the enrollments", `db.enrollments.aggregate([
  { $lookup: { from: 'courses', localField: 'courseId', foreignField: '_id', as: 'c' } },
  { $group: { _id: { $arrayElemAt: [{ $split: [{ $first: '$c.title' }, ' '] }, 0] }, courses: { $addToSet: '$courseId' }, avgGrade: { $avg: '$grade' } } },
  { $project: { courseCount: { $size: '$courses' }, avgGrade: 1 } },
  { $merge: { into: 'subjects', on: '_id', whenMatched: 'replace', whenNotMatched: 'insert' } }])`, "'enrollments'"},
		{"average of the averages", `db.courses.aggregate([
  { $group: { _id: { $arrayElemAt: [{ $split: ['$title', ' '] }, 0] }, courseCount: { $sum: 1 }, avgGrade: { $avg: '$avgGrade' } } },
  { $merge: { into: 'subjects', on: '_id', whenMatched: 'replace', whenNotMatched: 'insert' } }])`, "sum the gradeSums"},
	} {
		if res := try(t, r, i, c.code); res.Passed || !strings.Contains(res.Message, c.want) {
			t.Errorf("%s: passed=%v %q, want a failure saying %q", c.name, res.Passed, res.Message, c.want)
		}
	}
	if res := try(t, r, i, l.Steps[i].Exercise.Solution); !res.Passed {
		t.Errorf("nightly job solution: %q", res.Message)
	}
}

func TestBucketChecksRejectRuledOutApproaches(t *testing.T) {
	be := startSandbox(t)
	l := builtin(t, "bucket")
	i := stepNamed(t, l, "Exercise: take one reading out")
	r := newTestRunner(t, be, l, "ruled_")
	for _, c := range []struct{ name, code, want string }{
		{"$pull and $inc: the glitch stays the maximum", `function removeReading(sensorId, at) {
  const hour = new Date(Math.floor(at.getTime() / 3600000) * 3600000), m = at.getUTCMinutes()
  db.readings_bucket.updateOne({ sensorId, hour }, { $pull: { samples: { m } }, $inc: { count: -1, sum: -85 } })
}
removeReading('s7', new Date('2026-09-02T05:17:00Z'))`, "recompute them from the remaining samples"},
		{"read the bucket, then $set", `function removeReading(sensorId, at) {
  const hour = new Date(Math.floor(at.getTime() / 3600000) * 3600000), m = at.getUTCMinutes()
  const b = db.readings_bucket.findOne({ sensorId, hour, 'samples.m': m })
  const samples = b.samples.filter((s) => s.m !== m), ts = samples.map((s) => s.t)
  db.readings_bucket.updateOne({ _id: b._id }, { $set: { samples, count: samples.length, sum: ts.reduce((a, x) => a + x, 0), min: Math.min(...ts), max: Math.max(...ts) } })
}
removeReading('s7', new Date('2026-09-02T05:17:00Z'))`, "read readings_bucket before writing"},
		{"two updates", `function removeReading(sensorId, at) {
  const hour = new Date(Math.floor(at.getTime() / 3600000) * 3600000), m = at.getUTCMinutes()
  db.readings_bucket.updateOne({ sensorId, hour, 'samples.m': m }, [{ $set: { samples: { $filter: { input: '$samples', cond: { $ne: ['$$this.m', m] } } } } }, { $set: { count: { $size: '$samples' } } }])
  db.readings_bucket.updateOne({ sensorId, hour }, [{ $set: { sum: { $sum: '$samples.t' }, min: { $min: '$samples.t' }, max: { $max: '$samples.t' } } }])
}
removeReading('s7', new Date('2026-09-02T05:17:00Z'))`, "sent 2 writes to readings_bucket"},
	} {
		if res := try(t, r, i, c.code); res.Passed || !strings.Contains(res.Message, c.want) {
			t.Errorf("%s: passed=%v %q, want a failure saying %q", c.name, res.Passed, res.Message, c.want)
		}
	}
	if res := try(t, r, i, l.Steps[i].Exercise.Solution); !res.Passed {
		t.Errorf("solution: %q", res.Message)
	}

	i = stepNamed(t, l, "Exercise: a week of daily summaries")
	week := `{ $gte: ISODate('2026-08-26T00:00:00Z'), $lt: ISODate('2026-09-02T00:00:00Z') }`
	for _, c := range []struct{ name, code, want string }{
		{"unwinding the samples", `db.readings_bucket.aggregate([
  { $match: { sensorId: 's7', hour: ` + week + ` } }, { $unwind: '$samples' },
  { $group: { _id: { $dateTrunc: { date: '$hour', unit: 'day' } }, count: { $sum: 1 }, min: { $min: '$samples.t' }, max: { $max: '$samples.t' }, avg: { $avg: '$samples.t' } } },
  { $out: 'day_summary' }])`, "unwinds the samples"},
		{"summing the samples arrays", `db.readings_bucket.aggregate([
  { $match: { sensorId: 's7', hour: ` + week + ` } },
  { $group: { _id: { $dateTrunc: { date: '$hour', unit: 'day' } }, count: { $sum: { $size: '$samples' } }, sum: { $sum: { $sum: '$samples.t' } }, min: { $min: '$min' }, max: { $max: '$max' } } },
  { $project: { count: 1, min: 1, max: 1, avg: { $divide: ['$sum', '$count'] } } }, { $out: 'day_summary' }])`, "opens the samples arrays"},
		{"no index for the week", `db.readings_bucket.aggregate([
  { $match: { hour: ` + week + ` } },
  { $group: { _id: { $dateTrunc: { date: '$hour', unit: 'day' } }, sum: { $sum: '$sum' }, count: { $sum: '$count' }, min: { $min: '$min' }, max: { $max: '$max' } } },
  { $project: { count: 1, min: 1, max: 1, avg: { $divide: ['$sum', '$count'] } } }, { $out: 'day_summary' }])`, "so the index finds its 168 buckets"},
		{"one document for the whole week", `db.readings_bucket.aggregate([
  { $match: { sensorId: 's7', hour: ` + week + ` } },
  { $group: { _id: null, sum: { $sum: '$sum' }, count: { $sum: '$count' }, min: { $min: '$min' }, max: { $max: '$max' } } },
  { $project: { count: 1, min: 1, max: 1, avg: { $divide: ['$sum', '$count'] } } }, { $out: 'day_summary' }])`, "which is not a day of the week"},
	} {
		if res := try(t, r, i, c.code); res.Passed || !strings.Contains(res.Message, c.want) {
			t.Errorf("%s: passed=%v %q, want a failure saying %q", c.name, res.Passed, res.Message, c.want)
		}
	}
	if res := try(t, r, i, l.Steps[i].Exercise.Solution); !res.Passed {
		t.Errorf("daily summary solution: %q", res.Message)
	}
}

func TestTreeChecksRejectRuledOutApproaches(t *testing.T) {
	be := startSandbox(t)
	l := builtin(t, "tree")
	i := stepNamed(t, l, "Exercise: a move that refuses cycles")
	r := newTestRunner(t, be, l, "ruled_")
	move := `
  const newPrefix = target.ancestors.concat(newParent)
  db.cat_hybrid.updateOne({ _id: id }, { $set: { parent: newParent, ancestors: newPrefix } })
  db.cat_hybrid.updateMany({ ancestors: id }, [
    { $set: { ancestors: { $concatArrays: [newPrefix, { $slice: ['$ancestors', node.ancestors.length, 1000] }] } } }])`
	for _, c := range []struct{ name, code, want string }{
		{"no cycle check", `function moveUnder(id, newParent) {
  const node = db.cat_hybrid.findOne({ _id: id }), target = db.cat_hybrid.findOne({ _id: newParent })` + move + `
}`, "it would make a cycle"},
		{"refuses after writing", `function moveUnder(id, newParent) {
  const node = db.cat_hybrid.findOne({ _id: id }), target = db.cat_hybrid.findOne({ _id: newParent })` + move + `
  if (newParent === id || target.ancestors.includes(id)) throw new Error('cycle')
}`, "must change nothing"},
		{"the subtree left behind", `function moveUnder(id, newParent) {
  const target = db.cat_hybrid.findOne({ _id: newParent })
  if (newParent === id || target.ancestors.includes(id)) throw new Error('cycle')
  db.cat_hybrid.updateOne({ _id: id }, { $set: { parent: newParent, ancestors: target.ancestors.concat(newParent) } })
}`, "the subtree must move too: ipad should have ancestors [ 'electronics', 'phones', 'tablets' ], found [ 'electronics', 'computers', 'tablets' ]"},
	} {
		if res := try(t, r, i, c.code); res.Passed || !strings.Contains(res.Message, c.want) {
			t.Errorf("%s: passed=%v %q, want a failure saying %q", c.name, res.Passed, res.Message, c.want)
		}
	}
	if res := try(t, r, i, l.Steps[i].Exercise.Solution); !res.Passed || strings.Contains(res.Message, "updateMany") {
		t.Errorf("solution: %v %q", res.Passed, res.Message)
	}
	// The subtree moved one node at a time: right, and praised without
	// the updateMany it did not send.
	oneByOne := `function moveUnder(id, newParent) {
  const node = db.cat_hybrid.findOne({ _id: id }), target = db.cat_hybrid.findOne({ _id: newParent })
  if (newParent === id || target.ancestors.includes(id)) throw new Error('cycle')
  const newPrefix = target.ancestors.concat(newParent)
  db.cat_hybrid.updateOne({ _id: id }, { $set: { parent: newParent, ancestors: newPrefix } })
  for (const d of db.cat_hybrid.find({ ancestors: id }).toArray()) {
    db.cat_hybrid.updateOne({ _id: d._id }, { $set: { ancestors: newPrefix.concat(d.ancestors.slice(node.ancestors.length)) } })
  }
}`
	if res := try(t, r, i, oneByOne); !res.Passed || strings.Contains(res.Message, "updateMany") {
		t.Errorf("the subtree one node at a time: %v %q", res.Passed, res.Message)
	}

	i = stepNamed(t, l, "Exercise: a breadcrumb")
	for _, c := range []struct{ name, code, want string }{
		{"the order $lookup found", l.Steps[i].Exercise.Starter, "should be 'Electronics › Computers › Tablets › iPad'"},
		{"one query per ancestor", `function breadcrumb(id) {
  const node = db.cat_ancestors.findOne({ _id: id })
  return node.ancestors.map((a) => db.cat_ancestors.findOne({ _id: a }).name).concat(node.name).join(' › ')
}`, "sent 4 queries"},
		{"sorted in the application", `function breadcrumb(id) {
  const node = db.cat_ancestors.findOne({ _id: id })
  const names = Object.fromEntries(db.cat_ancestors.find({ _id: { $in: node.ancestors } }).toArray().map((a) => [a._id, a.name]))
  return node.ancestors.map((a) => names[a]).concat(node.name).join(' › ')
}`, "sent 2 queries"},
	} {
		if res := try(t, r, i, c.code); res.Passed || !strings.Contains(res.Message, c.want) {
			t.Errorf("%s: passed=%v %q, want a failure saying %q", c.name, res.Passed, res.Message, c.want)
		}
	}
	if res := try(t, r, i, l.Steps[i].Exercise.Solution); !res.Passed || !strings.Contains(res.Message, "$indexOfArray put the ancestors back") {
		t.Errorf("breadcrumb solution: %v %q", res.Passed, res.Message)
	}
	// One aggregation, then the names put in the array's order in
	// JavaScript: an equivalent right answer, which passes, and whose
	// praise credits no operator the learner did not use.
	inJS := `function breadcrumb(id) {
  const doc = db.cat_ancestors.aggregate([
    { $match: { _id: id } },
    { $lookup: { from: 'cat_ancestors', localField: 'ancestors', foreignField: '_id', as: 'up' } }
  ]).next()
  const names = Object.fromEntries(doc.up.map((a) => [a._id, a.name]))
  return doc.ancestors.map((a) => names[a]).concat(doc.name).join(' › ')
}`
	if res := try(t, r, i, inJS); !res.Passed || strings.Contains(res.Message, "$indexOfArray put") {
		t.Errorf("ordered in JavaScript: %v %q", res.Passed, res.Message)
	}
}

// The choosing lesson names all ten choices: a pattern without an
// explanation of its own in a workload gets one line on what that
// pattern is for, a tree-model question still lists only the models, and
// the three workloads of the subset, extended-reference and approximation
// lessons pass with their answers.
func TestChoosingNamesEveryPattern(t *testing.T) {
	l := builtin(t, "choosing")
	r := newTestRunner(t, startSandbox(t), l, "choose_")
	for _, c := range []struct{ step, answer, want string }{
		{"A festival", "answer = 'subset'", "The subset pattern is for a page"},
		{"A festival", "answer = 'approximation'", "Tickets are stock"},
		{"An org chart", "answer = 'subset'", "Answer with one of 'parent+ancestors'"},
		{"Celebrity followers", "answer = { pattern: 'subset', threshold: 1000 }", "A subset of the 20 newest followers"},
		{"Celebrity followers", "answer = { pattern: 'approximation', threshold: 1000 }", "A followerCount written once per N follows"},
		{"A comment thread", "answer = 'subset'", "Close: the viral post"},
		{"A product page", "answer = 'outlier'", "There is no tail to isolate"},
		{"A ticket list", "answer = 'reference'", "That is the design the help desk has"},
		{"A view counter", "answer = 'computed'", "The counter already is a computed value"},
	} {
		if res := try(t, r, stepNamed(t, l, c.step), c.answer); res.Passed || !strings.HasPrefix(res.Message, c.want) {
			t.Errorf("%s, %s: passed=%v %q, want a failure starting %q", c.step, c.answer, res.Passed, res.Message, c.want)
		}
	}
	for _, step := range []string{"A product page", "A ticket list", "A view counter"} {
		i := stepNamed(t, l, step)
		if res := try(t, r, i, l.Steps[i].Exercise.Solution); !res.Passed || !strings.HasPrefix(res.Message, "Right.") {
			t.Errorf("%s: solution passed=%v %q", step, res.Passed, res.Message)
		}
	}
}
