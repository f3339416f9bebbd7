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
	if res := try(t, r, i, l.Steps[i].Exercise.Solution); !res.Passed {
		t.Errorf("solution: %q", res.Message)
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
