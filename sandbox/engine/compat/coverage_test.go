package compat_test

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// COVERAGE.md counts the suite's cases by operator and by column, so that
// what the sandbox accepts and what the suite checks cannot drift apart:
// TestMain writes the table from the cases that ran, and a complete run
// fails when the checked-in file differs (SCHEMALAB_UPDATE_COVERAGE=1
// rewrites it).
//
// Every case counts in one row and one column. A row is a family and an
// operator as mongod spells it ("expression $size" and "query $size" are
// different rows). Table cases say nothing when the defaults fit: their
// kind gives the family (aggCase: stage, exprCase: expression, findCase:
// query, updateCase: update), the operator is the first one the case
// sends (the first stage, the expression's operator, the filter's first
// operator, the update's first operator), and the column is errors for a
// case that expects an error and semantics otherwise. A case that checks
// something else sets cov, e.g. cover{family: accumulator, op: "$sum",
// col: types} for a $group case about the numeric type of a sum.

// family is the kind of operator a row is about.
type family string

const (
	query       family = "query"
	update      family = "update"
	projection  family = "projection"
	stage       family = "stage"
	expression  family = "expression"
	accumulator family = "accumulator"
	window      family = "window"
	commandFam  family = "command"
)

// column is what a case checks about its operator.
type column string

const (
	semantics column = "semantics" // results: null and missing, arrays, documents
	errorCol  column = "errors"    // an argument it validates, with mongod's code and message
	types     column = "types"     // BSON types of arguments and of the result
	explain   column = "explain"   // its explain shape
)

var columns = []column{semantics, errorCol, types, explain}

// cover says where a case counts; empty fields are filled by the case
// kind's defaults.
type cover struct {
	family family
	op     string
	col    column
}

func (c cover) or(def cover) cover {
	if c.family == "" {
		c.family = def.family
	}
	if c.op == "" {
		c.op = def.op
	}
	if c.col == "" {
		c.col = def.col
	}
	return c
}

// errorsOr is the default column: errors when the case expects an error.
func errorsOr(code int32) column {
	if code != 0 {
		return errorCol
	}
	return semantics
}

// firstOperator is the first $-prefixed key found in v, depth first, or
// "" when there is none.
func firstOperator(v any) string {
	switch x := v.(type) {
	case bson.D:
		for _, e := range x {
			if strings.HasPrefix(e.Key, "$") {
				return e.Key
			}
			if op := firstOperator(e.Value); op != "" {
				return op
			}
		}
	case bson.A:
		for _, e := range x {
			if op := firstOperator(e); op != "" {
				return op
			}
		}
	}
	return ""
}

// exprOperator is an expression's row: its operator, or what kind of
// operand it is when it has none.
func exprOperator(v any) string {
	if op := firstOperator(v); op != "" {
		return op
	}
	if s, ok := v.(string); ok && strings.HasPrefix(s, "$$") {
		return "$$variable"
	} else if ok && strings.HasPrefix(s, "$") {
		return "$field path"
	}
	return "literal"
}

// coverageLedger counts the cases that ran, by row and column, and holds
// the rows TestCoverageRows found the sandbox accepts.
type coverageLedger struct {
	mu       sync.Mutex
	counts   map[string]map[column]int
	accepted map[string]bool
	unknown  map[family]int // cases sending a name mongod does not have, by family
}

// ledger is the one run's count; test binaries run one package.
var ledger = coverageLedger{counts: map[string]map[column]int{}, accepted: map[string]bool{}, unknown: map[family]int{}}

// unknownName says whether a case about op in family f sends a $-name
// mongod 8.0 does not have, e.g. {$foo: 1}, to see it refused: an errors
// case whose name no family registers (mongod_names_test.go). Operands
// that are no operator ($field path, $$variable), mongod's internal
// $_internal… names, $_unpackBucket and $regex's companion $options are
// not unknown; a known name of another family (a stage's $expr counted as
// an expression) is the case's own business.
func unknownName(f family, op string, col column) bool {
	if col != errorCol || f == commandFam || !strings.HasPrefix(op, "$") || strings.HasPrefix(op, "$$") ||
		strings.HasPrefix(op, "$_internal") || op == "$_unpackBucket" || op == "$field path" || op == "$options" {
		return false
	}
	for _, names := range [][]string{mongodExpressions, mongodStages, mongodAccumulators, mongodWindowFunctions,
		mongodTopLevelQueryOperators, mongodQueryOperators, mongodProjectionOperators, mongodUpdateOperators} {
		if slices.Contains(names, op) {
			return false
		}
	}
	return true
}

func (l *coverageLedger) note(t *testing.T, c cover) {
	t.Helper()
	if c.family == "" || c.op == "" || c.col == "" {
		t.Fatalf("a case counts in no row of %s: %+v", coverageFile, c)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if unknownName(c.family, c.op, c.col) {
		// A case that sends a name mongod does not have checks the
		// family's parser, not an operator: it gets no row, only the
		// tally under the table.
		l.unknown[c.family]++
		return
	}
	row := string(c.family) + " " + c.op
	if l.counts[row] == nil {
		l.counts[row] = map[column]int{}
	}
	l.counts[row][c.col]++
}

// accept records that the sandbox accepts family f's name: the row exists
// even when no case counts in it.
func (l *coverageLedger) accept(f family, name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.accepted[string(f)+" "+name] = true
}

// explained are the rows whose explain output is their own: the commands
// explain takes, and the stages that become plan stages (or, for $lookup
// and $unionWith, report their own figures) in an explain.
var explained = map[string]bool{
	"command find": true, "command count": true, "command distinct": true, "command aggregate": true,
	"command update": true, "command delete": true, "command findAndModify": true,
	"stage $match": true, "stage $sort": true, "stage $limit": true, "stage $skip": true,
	"stage $project": true, "stage $addFields": true, "stage $set": true, "stage $unset": true,
	"stage $group": true, "stage $sample": true, "stage $geoNear": true, "stage $lookup": true,
	"stage $unionWith": true, "stage $_internalBoundedSort": true,
}

// applies says whether a column can hold cases for a row: semantics and
// errors always; types where the operator takes or returns typed values
// (expressions, accumulators, window functions, query and update
// operators); explain for the rows in explained.
func applies(row string, c column) bool {
	fam, _, _ := strings.Cut(row, " ")
	switch c {
	case types:
		switch family(fam) {
		case expression, accumulator, window, query, update:
			return true
		}
		return false
	case explain:
		return explained[row]
	}
	return true
}

// requireFullCoverage turns on the check that every accepted row has a
// case in every column that applies to it. It is off while the sweep is
// still adding cases; COVERAGE.md lists the rows still empty either way.
const requireFullCoverage = true

// emptyRows are the accepted rows with no case in some applicable column.
func (l *coverageLedger) emptyRows() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for row := range l.accepted {
		for _, c := range columns {
			if applies(row, c) && l.counts[row][c] == 0 {
				out = append(out, row)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// table renders COVERAGE.md.
func (l *coverageLedger) table() string {
	empty := l.emptyRows()
	l.mu.Lock()
	defer l.mu.Unlock()
	seen := map[string]bool{}
	var rows []string
	for r := range l.counts {
		seen[r] = true
		rows = append(rows, r)
	}
	for r := range l.accepted {
		if !seen[r] {
			rows = append(rows, r)
		}
	}
	slices.Sort(rows)
	var b strings.Builder
	b.WriteString("# Conformance coverage\n\n")
	b.WriteString("Generated by `go test ./sandbox/engine/compat` (SCHEMALAB_UPDATE_COVERAGE=1 rewrites it); do not edit.\n")
	b.WriteString("Each cell counts the cases that check that operator for that column. The rows are every name of\n")
	b.WriteString("mongod 8.0 the sandbox accepts (found by sending each one to it, mongod_names_test.go), and any other\n")
	b.WriteString("row a case counts in. n/a: types applies to expressions, accumulators, window functions, query and\n")
	b.WriteString("update operators; explain to the explainable commands and to the stages that become plan stages\n")
	b.WriteString("or report figures of their own.\n\n")
	b.WriteString("| family | operator |")
	for _, c := range columns {
		b.WriteString(" " + string(c) + " |")
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(columns)) + "\n")
	for _, r := range rows {
		fam, op, _ := strings.Cut(r, " ")
		fmt.Fprintf(&b, "| %s | `%s` |", fam, op)
		for _, c := range columns {
			if !applies(r, c) {
				b.WriteString(" n/a |")
				continue
			}
			fmt.Fprintf(&b, " %d |", l.counts[r][c])
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\n%d accepted rows; %d of them still have an applicable column with no case.\n",
		len(l.accepted), len(empty))
	if len(l.unknown) > 0 {
		fams := make([]string, 0, len(l.unknown))
		for f, n := range l.unknown {
			fams = append(fams, fmt.Sprintf("%s %d", f, n))
		}
		slices.Sort(fams)
		fmt.Fprintf(&b, "Cases sending a name mongod 8.0 does not have, which count in no row (its refusal is the family parser's): %s.\n",
			strings.Join(fams, ", "))
	}
	return b.String()
}

const coverageFile = "COVERAGE.md"

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	// Only a run of every case can say what the table is.
	complete := code == 0 && flag.Lookup("test.run").Value.String() == "" &&
		flag.Lookup("test.skip").Value.String() == "" && !testing.Short()
	if complete {
		code = checkCoverageFile(ledger.table())
		if empty := ledger.emptyRows(); requireFullCoverage && code == 0 && len(empty) > 0 {
			fmt.Fprintf(os.Stderr, "%s: %d accepted rows have an applicable column with no case:\n  %s\n",
				coverageFile, len(empty), strings.Join(empty, "\n  "))
			code = 1
		}
	}
	os.Exit(code)
}

func checkCoverageFile(table string) int {
	if os.Getenv("SCHEMALAB_UPDATE_COVERAGE") != "" {
		if err := os.WriteFile(coverageFile, []byte(table), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	have, err := os.ReadFile(coverageFile)
	if err != nil || string(have) != table {
		fmt.Fprintf(os.Stderr, "%s is out of date with the cases: run SCHEMALAB_UPDATE_COVERAGE=1 go test ./sandbox/engine/compat\n", coverageFile)
		return 1
	}
	return 0
}
