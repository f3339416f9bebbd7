package shell

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// goja has no Intl. Lessons format the numbers of their messages the way
// the learner's language writes them with standard JavaScript that mongosh
// (V8, ICU) runs as well:
//
//	new Intl.NumberFormat('id', { maximumFractionDigits: 1 }).format(x)
//	x.toLocaleString('ru', { style: 'percent', maximumFractionDigits: 1 })
//
// This file gives the shell the subset of Intl.NumberFormat and
// Number.prototype.toLocaleString those need, printing exactly what V8
// prints (node 20, ICU 78): the locales en, id and ru (and en-US, en-GB,
// id-ID, ru-RU); the styles decimal and percent; minimumFractionDigits,
// maximumFractionDigits and useGrouping. Rounding is ICU's: the shortest
// decimal that reads back as the double, rounded half away from zero, and
// a percent moves that decimal's point rather than multiplying the double.
// Anything else (another locale, currency, significant digits, notation,
// formatToParts...) throws a RangeError or TypeError that says so, rather
// than printing something V8 would not.

// numberSymbols are a language's characters for numbers (CLDR, as ICU
// has them): ru groups digits with a no-break space and puts one before
// its percent sign.
type numberSymbols struct {
	group, decimal, percent, nan string
}

var numberSymbolsOf = map[string]numberSymbols{
	"en": {group: ",", decimal: ".", percent: "%", nan: "NaN"},
	"id": {group: ".", decimal: ",", percent: "%", nan: "NaN"},
	"ru": {group: "\u00a0", decimal: ",", percent: "\u00a0%", nan: "не\u00a0число"},
}

// intlLocales are the locale tags the shell formats for, lower-cased, and
// the language whose symbols each uses.
var intlLocales = map[string]string{"en": "en", "en-us": "en", "en-gb": "en", "id": "id", "id-id": "id", "ru": "ru", "ru-ru": "ru"}

// intlDefaults are the Intl.NumberFormat options the shell does not
// implement, each with the value that changes nothing, which is accepted,
// in the order ECMA-402 reads them after style.
var intlDefaults = []struct{ name, value string }{
	{"currency", ""}, {"currencyDisplay", ""}, {"currencySign", ""}, {"unit", ""}, {"unitDisplay", ""},
	{"notation", "standard"}, {"minimumIntegerDigits", "1"}, {"minimumSignificantDigits", ""}, {"maximumSignificantDigits", ""},
	{"roundingIncrement", "1"}, {"roundingMode", "halfExpand"}, {"roundingPriority", "auto"}, {"trailingZeroDisplay", "auto"},
	{"compactDisplay", "short"}, {"signDisplay", "auto"},
}

const intlSupported = "the embedded shell formats numbers for the locales en, id and ru, in style 'decimal' or 'percent', " +
	"with minimumFractionDigits, maximumFractionDigits and useGrouping; run this code in mongosh for the rest"

// numberFormat is one Intl.NumberFormat, its options resolved.
type numberFormat struct {
	symbols      numberSymbols
	percent      bool
	grouping     bool
	minFD, maxFD int
}

// intlShim is the JavaScript side: the constructor (callable with or
// without new), the format getter that returns a bound function, as V8's
// does, and Number.prototype.toLocaleString. make and format are Go.
const intlShim = `(function (make, format) {
  'use strict';
  const state = new WeakMap();
  function NumberFormat(locales, options) {
    const nf = Object.create(NumberFormat.prototype);
    state.set(nf, make(locales, options));
    return nf;
  }
  const stateOf = (nf, method) => {
    const s = typeof nf === 'object' && nf !== null ? state.get(nf) : undefined;
    if (s === undefined) throw new TypeError('Method ' + method + ' called on incompatible receiver ' + String(nf));
    return s;
  };
  const bound = new WeakMap();
  Object.defineProperty(NumberFormat.prototype, 'format', {
    configurable: true,
    get() {
      const s = stateOf(this, 'get Intl.NumberFormat.prototype.format');
      if (!bound.has(this)) bound.set(this, (x) => format(s, x));
      return bound.get(this);
    },
  });
  Object.defineProperty(NumberFormat.prototype, Symbol.toStringTag, { value: 'Intl.NumberFormat', configurable: true });
  const Intl = {};
  Object.defineProperty(Intl, 'NumberFormat', { value: NumberFormat, writable: true, configurable: true });
  Object.defineProperty(Intl, Symbol.toStringTag, { value: 'Intl', configurable: true });
  const methods = {
    toLocaleString(locales, options) {
      if (typeof this !== 'number' && !(this instanceof Number)) {
        throw new TypeError("Number.prototype.toLocaleString requires that 'this' be a Number");
      }
      return format(make(locales, options), Number(this));
    },
  };
  return { Intl, toLocaleString: methods.toLocaleString };
})`

var intlCompiled = sync.OnceValues(func() (*goja.Program, error) {
	return goja.Compile("intl", intlShim, true)
})

// installIntl defines Intl.NumberFormat and Number.prototype.toLocaleString
// in vm.
func installIntl(vm *goja.Runtime) error {
	prog, err := intlCompiled()
	if err != nil {
		return err
	}
	shim, err := vm.RunProgram(prog)
	if err != nil {
		return err
	}
	build, ok := goja.AssertFunction(shim)
	if !ok {
		return fmt.Errorf("intl: not a function")
	}
	make := func(locales, options goja.Value) *numberFormat { return newNumberFormat(vm, locales, options) }
	format := func(f *numberFormat, x goja.Value) string { return f.format(x.ToFloat()) }
	got, err := build(goja.Undefined(), vm.ToValue(make), vm.ToValue(format))
	if err != nil {
		return err
	}
	o := got.ToObject(vm)
	if err := vm.GlobalObject().DefineDataProperty("Intl", o.Get("Intl"), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return err
	}
	proto := vm.Get("Number").ToObject(vm).Get("prototype").ToObject(vm)
	return proto.DefineDataProperty("toLocaleString", o.Get("toLocaleString"), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// throwError throws a new JavaScript error of class (RangeError, TypeError).
func throwError(vm *goja.Runtime, class, msg string) {
	err, nerr := vm.New(vm.Get(class), vm.ToValue(msg))
	if nerr != nil {
		panic(nerr)
	}
	panic(err)
}

// newNumberFormat resolves the locales and options as ECMA-402's
// InitializeNumberFormat does, for the subset the shell has.
func newNumberFormat(vm *goja.Runtime, locales, options goja.Value) *numberFormat {
	f := &numberFormat{symbols: numberSymbolsOf[resolveLocale(vm, locales)], grouping: true}
	opts := vm.NewObject()
	if options != nil && !goja.IsUndefined(options) {
		opts = options.ToObject(vm)
	}
	get := func(name string) goja.Value {
		if v := opts.Get(name); v != nil && !goja.IsUndefined(v) {
			return v
		}
		return nil
	}
	if v := get("localeMatcher"); v != nil && v.String() != "lookup" && v.String() != "best fit" {
		throwError(vm, "RangeError", fmt.Sprintf("Value %s out of range for Intl.NumberFormat options property localeMatcher", v.String()))
	}
	if v := get("numberingSystem"); v != nil && v.String() != "latn" {
		throwError(vm, "RangeError", fmt.Sprintf("Intl.NumberFormat option numberingSystem: %s is not supported: %s", v.String(), intlSupported))
	}
	minDefault, maxDefault := 0, 3
	if v := get("style"); v != nil {
		switch v.String() {
		case "decimal":
		case "percent":
			f.percent, maxDefault = true, 0
		case "currency", "unit":
			throwError(vm, "RangeError", fmt.Sprintf("Intl.NumberFormat style %s is not supported: %s", v.String(), intlSupported))
		default:
			throwError(vm, "RangeError", fmt.Sprintf("Value %s out of range for Intl.NumberFormat options property style", v.String()))
		}
	}
	for _, o := range intlDefaults {
		if v := get(o.name); v != nil && v.String() != o.value {
			throwError(vm, "RangeError", fmt.Sprintf("Intl.NumberFormat option %s: %s is not supported: %s", o.name, v.String(), intlSupported))
		}
	}
	digits := func(name string, v goja.Value) int {
		n := v.ToFloat()
		if math.IsNaN(n) || n < 0 || n > 100 {
			throwError(vm, "RangeError", name+" value is out of range.")
		}
		return int(math.Floor(n))
	}
	minV, maxV := get("minimumFractionDigits"), get("maximumFractionDigits")
	f.minFD, f.maxFD = minDefault, maxDefault
	switch {
	case minV == nil && maxV != nil:
		f.maxFD = digits("maximumFractionDigits", maxV)
		f.minFD = min(minDefault, f.maxFD)
	case minV != nil && maxV == nil:
		f.minFD = digits("minimumFractionDigits", minV)
		f.maxFD = max(maxDefault, f.minFD)
	case minV != nil:
		f.minFD, f.maxFD = digits("minimumFractionDigits", minV), digits("maximumFractionDigits", maxV)
		if f.minFD > f.maxFD {
			throwError(vm, "RangeError", "maximumFractionDigits value is out of range.")
		}
	}
	if v := get("useGrouping"); v != nil {
		switch g := v.Export().(type) {
		case bool:
			f.grouping = g
		case string:
			// auto and always group alike in these locales; min2 does not.
			if g != "auto" && g != "always" {
				throwError(vm, "RangeError", fmt.Sprintf("Intl.NumberFormat option useGrouping: %s is not supported: %s", g, intlSupported))
			}
		default:
			f.grouping = v.ToBoolean()
		}
	}
	return f
}

// resolveLocale is the language of the first of locales (V8's default,
// en, when there is none), refusing a locale the shell cannot format for.
func resolveLocale(vm *goja.Runtime, locales goja.Value) string {
	if locales == nil || goja.IsUndefined(locales) {
		return "en"
	}
	first := locales
	if _, isString := locales.Export().(string); !isString {
		list := locales.ToObject(vm)
		if list.Get("length").ToInteger() == 0 {
			return "en"
		}
		first = list.Get("0")
	}
	tag, ok := first.Export().(string)
	if !ok {
		throwError(vm, "TypeError", "Language ID should be string or object.")
	}
	lang, ok := intlLocales[strings.ToLower(tag)]
	if !ok {
		throwError(vm, "RangeError", fmt.Sprintf("Intl.NumberFormat locale %q is not supported: %s", tag, intlSupported))
	}
	return lang
}

// format prints x as ICU does.
func (f *numberFormat) format(x float64) string {
	if math.IsNaN(x) {
		if f.percent {
			return f.symbols.nan + f.symbols.percent
		}
		return f.symbols.nan
	}
	body := "∞"
	if !math.IsInf(x, 0) {
		body = f.digits(math.Abs(x))
	}
	if f.percent {
		body += f.symbols.percent
	}
	if math.Signbit(x) {
		// A negative number that rounds to zero keeps its sign, as -0 does.
		body = "-" + body
	}
	return body
}

// digits prints a finite, non-negative x.
func (f *numberFormat) digits(x float64) string {
	// x = 0.ds × 10^point, ds the shortest digits that read back as x.
	ds, point := "0", 1
	if x != 0 {
		mant, exp, _ := strings.Cut(strconv.FormatFloat(x, 'e', -1, 64), "e")
		e, _ := strconv.Atoi(exp)
		ds, point = strings.Replace(mant, ".", "", 1), e+1
		if f.percent {
			point += 2
		}
	}
	if keep := point + f.maxFD; keep < len(ds) {
		up := keep >= 0 && ds[keep] >= '5'
		ds = ds[:max(keep, 0)]
		if up {
			ds, point = roundUp(ds, point)
		}
		if strings.Trim(ds, "0") == "" {
			ds, point = "0", 1
		}
	}
	var intPart, frac string
	switch {
	case point <= 0:
		intPart, frac = "0", strings.Repeat("0", -point)+ds
	case point >= len(ds):
		intPart = ds + strings.Repeat("0", point-len(ds))
	default:
		intPart, frac = ds[:point], ds[point:]
	}
	frac = strings.TrimRight(frac, "0")
	if len(frac) < f.minFD {
		frac += strings.Repeat("0", f.minFD-len(frac))
	}
	if f.grouping {
		var b strings.Builder
		for i, c := range intPart {
			if i > 0 && (len(intPart)-i)%3 == 0 {
				b.WriteString(f.symbols.group)
			}
			b.WriteRune(c)
		}
		intPart = b.String()
	}
	if frac == "" {
		return intPart
	}
	return intPart + f.symbols.decimal + frac
}

// roundUp adds one unit in the last place of 0.ds × 10^point.
func roundUp(ds string, point int) (string, int) {
	b := []byte(ds)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < '9' {
			b[i]++
			return string(b), point
		}
		b[i] = '0'
	}
	return "1" + string(b), point + 1
}
