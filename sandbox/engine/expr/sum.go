package expr

import (
	"math"
	"math/big"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// doubleDouble is a compensated (Neumaier) summation standing in for
// mongod's DoubleDoubleSummation: sums of doubles and of large longs stay
// exact far beyond a plain float64 accumulator.
type doubleDouble struct{ sum, comp float64 }

func (d *doubleDouble) addDouble(x float64) {
	t := d.sum + x
	if math.Abs(d.sum) >= math.Abs(x) {
		d.comp += (d.sum - t) + x
	} else {
		d.comp += (x - t) + d.sum
	}
	d.sum = t
}

func (d *doubleDouble) addLong(x int64) {
	hi := float64(x)
	// The part of x a double cannot hold is added separately.
	var lo int64
	if hi < 9.223372036854775807e18 {
		lo = x - int64(hi)
	} else {
		lo = x - math.MaxInt64 - 1
		hi = 9.223372036854775808e18
	}
	d.addDouble(hi)
	d.addDouble(float64(lo))
}

func (d *doubleDouble) result() float64 {
	if math.IsNaN(d.sum) || math.IsInf(d.sum, 0) {
		return d.sum
	}
	return d.sum + d.comp
}

// Sum is the running total of $sum and $avg with mongod's type widening:
// int32 → int64 → double → decimal.
type Sum struct {
	kind    int
	longSum int64
	// longBig is the exact integer total once longSum overflowed
	// (DoubleDoubleSummation keeps sums of longs exact).
	longBig *big.Int
	dd      doubleDouble
	decSum  dec
	hasDec  bool
	count   int64
}

// Add adds a value; non-numeric values are ignored, as $sum does.
func (s *Sum) Add(v any) {
	k := numKind(v)
	if k == 0 {
		return
	}
	s.count++
	s.kind = max(s.kind, k)
	switch n := v.(type) {
	case int32:
		s.addLong(int64(n))
	case int64:
		s.addLong(n)
	case float64:
		s.dd.addDouble(n)
	case bson.Decimal128:
		if !s.hasDec {
			s.decSum = dec{coef: bigInt(0)}
			s.hasDec = true
		}
		s.decSum = decRound(decAdd(s.decSum, decOf(n)))
	}
}

func (s *Sum) addLong(n int64) {
	s.dd.addLong(n)
	switch {
	case s.longBig != nil:
		s.longBig.Add(s.longBig, bigInt(n))
	case addOverflows(s.longSum, n):
		s.longBig = bigInt(s.longSum)
		s.longBig.Add(s.longBig, bigInt(n))
	default:
		s.longSum += n
	}
}

// longTotal is the integer total and whether it fits an int64: a total
// that left the range and came back still fits, as
// DoubleDoubleSummation::fitsLong sees it.
func (s *Sum) longTotal() (int64, bool) {
	if s.longBig == nil {
		return s.longSum, true
	}
	return s.longBig.Int64(), s.longBig.IsInt64()
}

// Count is how many numeric values were added.
func (s *Sum) Count() int64 { return s.count }

// Result is the $sum result (AccumulatorSum::getValue): int32 when all
// inputs were int32 and the total fits, int64 for integer totals that fit,
// double once a double was added or when the integer total does not fit
// an int64, decimal once a decimal was added.
func (s *Sum) Result() any {
	switch s.kind {
	case 0, kInt, kLong:
		n, fits := s.longTotal()
		if !fits {
			return s.dd.result()
		}
		if s.kind == kLong {
			return n
		}
		return value.CreateIntOrLong(n)
	case kDouble:
		return s.dd.result()
	}
	return s.decimalTotal().toD128()
}

func (s *Sum) decimalTotal() dec {
	total := s.decSum
	if !s.hasDec {
		total = dec{coef: bigInt(0)}
	}
	if s.kind == kDecimal {
		if s.longBig != nil || s.dd.sum != 0 || s.dd.comp != 0 {
			switch {
			case math.IsNaN(s.dd.sum) || math.IsInf(s.dd.sum, 0):
				// A NaN or an infinity leaves its compensation NaN, which
				// is not part of the total (DoubleDoubleSummation::getDecimal).
				total = decRound(decAdd(total, decFromDouble(s.dd.sum, 17)))
			case s.longBig == nil && s.dd.comp == 0 && s.dd.sum == float64(s.longSum):
				total = decRound(decAdd(total, dec{coef: bigInt(s.longSum)}))
			default:
				// DoubleDoubleSummation::getDecimal converts both halves
				// with kRoundTo34Digits.
				total = decRound(decAdd(total, decFromDouble(s.dd.sum, 34)))
				total = decRound(decAdd(total, decFromDouble(s.dd.comp, 34)))
			}
		}
	}
	return total
}

// Avg is the $avg result: a double, a decimal if any input was decimal,
// null when nothing numeric was added.
func (s *Sum) Avg() any {
	if s.count == 0 {
		return nil
	}
	if s.kind == kDecimal {
		return decDiv(s.decimalTotal(), dec{coef: bigInt(s.count)}).toD128()
	}
	if s.kind != kDouble && s.longBig == nil {
		return float64(s.longSum) / float64(s.count)
	}
	return s.dd.result() / float64(s.count)
}

// Reset clears the total for reuse.
func (s *Sum) Reset() { *s = Sum{} }

// compileArrayAccumulator builds the expression forms of $sum $avg $min
// $max $stdDevPop $stdDevSamp: one argument that is an array is
// aggregated element-wise, otherwise the argument list is.
func compileArrayAccumulator(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileArgs(arg, scope)
	if err != nil {
		return nil, err
	}
	if len(args) > 1 && (name == "$sum" || name == "$min" || name == "$max") {
		// Their accumulators are associative and commutative; $avg's and
		// $stdDev*'s are not.
		args, err = foldAssociative(scope, args, true, func(args []Expr) Expr { return accumulateArgs(name, args) })
		if err != nil {
			return nil, err
		}
	}
	return accumulateArgs(name, args), nil
}

// accumulateArgs accumulates one array argument element-wise ({$sum:
// ["$a"]} too), or else the argument list.
func accumulateArgs(name string, args []Expr) Expr {
	single := len(args) == 1
	return evalFunc(func(env *Env) (any, error) {
		var vals bson.A
		if single {
			v, err := args[0].Eval(env)
			if err != nil {
				return nil, err
			}
			if a, ok := v.(bson.A); ok {
				vals = a
			} else {
				vals = bson.A{v}
			}
		} else {
			vals = make(bson.A, 0, len(args))
			for _, a := range args {
				v, err := a.Eval(env)
				if err != nil {
					return nil, err
				}
				vals = append(vals, v)
			}
		}
		return accumulate(name, vals), nil
	})
}

func accumulate(name string, vals bson.A) any {
	switch name {
	case "$sum":
		var s Sum
		for _, v := range vals {
			s.Add(v)
		}
		return s.Result()
	case "$avg":
		var s Sum
		for _, v := range vals {
			s.Add(v)
		}
		return s.Avg()
	case "$min", "$max":
		var best any = value.Missing{}
		for _, v := range vals {
			if nullish(v) {
				continue
			}
			if value.IsMissing(best) {
				best = v
				continue
			}
			c := value.Compare(v, best)
			if (name == "$min" && c < 0) || (name == "$max" && c > 0) {
				best = v
			}
		}
		if value.IsMissing(best) {
			return nil
		}
		return best
	case "$stdDevPop", "$stdDevSamp":
		var sd StdDev
		for _, v := range vals {
			sd.Add(v)
		}
		return sd.Result(name == "$stdDevSamp")
	}
	return nil
}

// StdDev is the running state of $stdDevPop/$stdDevSamp (Welford's
// algorithm, as mongod's AccumulatorStdDev).
type StdDev struct {
	count    int64
	mean, m2 float64
}

// Add adds a numeric value; others are ignored.
func (s *StdDev) Add(v any) {
	if !value.IsNumber(v) {
		return
	}
	x := value.ToDouble(v)
	s.count++
	delta := x - s.mean
	s.mean += delta / float64(s.count)
	s.m2 += delta * (x - s.mean)
}

// Result is the population or sample standard deviation, null when there
// are too few values.
func (s *StdDev) Result(sample bool) any {
	n := s.count
	if sample {
		n--
	}
	if n <= 0 {
		return nil
	}
	return math.Sqrt(s.m2 / float64(n))
}
