package shell

import (
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// Every expected string below is what node 20 (V8 11.3, ICU 78.2) prints,
// which is mongosh's runtime: lessons format with these, and must print
// the same in the embedded shell and in mongosh. \u00a0 is the no-break
// space Russian groups digits with.
func TestIntlNumberFormatPrintsWhatV8Prints(t *testing.T) {
	vm := goja.New()
	if err := installIntl(vm); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ js, want string }{
		{`new Intl.NumberFormat('en').format(1234567.891)`, "1,234,567.891"},
		{`new Intl.NumberFormat('id').format(1234567.891)`, "1.234.567,891"},
		{`new Intl.NumberFormat('ru').format(1234567.891)`, "1\u00a0234\u00a0567,891"},
		{`new Intl.NumberFormat('ru').format(1000)`, "1\u00a0000"},
		{`new Intl.NumberFormat('id').format(1951)`, "1.951"},
		{`new Intl.NumberFormat('en', { maximumFractionDigits: 1 }).format(1234567.891)`, "1,234,567.9"},
		{`new Intl.NumberFormat('id', { maximumFractionDigits: 1 }).format(1.005)`, "1"},
		{`new Intl.NumberFormat('en').format(999.9996)`, "1,000"},
		{`new Intl.NumberFormat('en').format(0.1 + 0.2)`, "0.3"},
		{`new Intl.NumberFormat('en').format(1e21)`, "1,000,000,000,000,000,000,000"},
		{`new Intl.NumberFormat('en').format(-1234.5)`, "-1,234.5"},
		{`new Intl.NumberFormat('en').format(-0)`, "-0"},
		{`new Intl.NumberFormat('en').format(-0.0001)`, "-0"},
		{`new Intl.NumberFormat('ru').format(NaN)`, "не\u00a0число"},
		{`new Intl.NumberFormat('id').format(-Infinity)`, "-∞"},
		{`new Intl.NumberFormat('en', { minimumFractionDigits: 5 }).format(12345.6789)`, "12,345.67890"},
		{`new Intl.NumberFormat('en', { maximumFractionDigits: '2' }).format(12345.6789)`, "12,345.68"},
		{`new Intl.NumberFormat('en', { maximumFractionDigits: 1.7 }).format(12345.6789)`, "12,345.7"},
		{`new Intl.NumberFormat('en', { useGrouping: false }).format(12345.6789)`, "12345.679"},
		{`new Intl.NumberFormat('en', { minimumFractionDigits: 2, style: 'percent' }).format(12345.6789)`, "1,234,567.89%"},
		{`(0.975).toLocaleString('ru', { style: 'percent', maximumFractionDigits: 1 })`, "97,5\u00a0%"},
		{`(0.975).toLocaleString('id', { style: 'percent', maximumFractionDigits: 1 })`, "97,5%"},
		{`(0.9755).toLocaleString('en', { style: 'percent', maximumFractionDigits: 1 })`, "97.6%"},
		{`(0.0125).toLocaleString('en', { style: 'percent', maximumFractionDigits: 1 })`, "1.3%"},
		{`(0).toLocaleString('ru', { style: 'percent' })`, "0\u00a0%"},
		{`(1234.5).toLocaleString()`, "1,234.5"},
		{`new Intl.NumberFormat().format(1234.5)`, "1,234.5"},
		{`Intl.NumberFormat('ru').format(12345)`, "12\u00a0345"},
		{`new Intl.NumberFormat(['ru', 'en']).format(12345)`, "12\u00a0345"},
		{`new Intl.NumberFormat('en-US').format(12345)`, "12,345"},
		{`[1234.5, 2].map(new Intl.NumberFormat('id').format).join(' ')`, "1.234,5 2"},
		{`Object.prototype.toString.call(new Intl.NumberFormat('en'))`, "[object Intl.NumberFormat]"},
		// What V8 refuses, refused with its words.
		{`new Intl.NumberFormat('en', { minimumFractionDigits: 3, maximumFractionDigits: 1 })`, "RangeError: maximumFractionDigits value is out of range."},
		{`new Intl.NumberFormat('en', { maximumFractionDigits: 101 })`, "RangeError: maximumFractionDigits value is out of range."},
		{`new Intl.NumberFormat('en', { minimumFractionDigits: -1 })`, "RangeError: minimumFractionDigits value is out of range."},
		{`new Intl.NumberFormat('en', { style: 'bogus' })`, "RangeError: Value bogus out of range for Intl.NumberFormat options property style"},
		{`Number.prototype.toLocaleString.call('x')`, "TypeError: Number.prototype.toLocaleString requires that 'this' be a Number"},
		{`new Intl.NumberFormat('en', null)`, "TypeError"},
		// What the shell does not implement, refused rather than printed otherwise.
		{`new Intl.NumberFormat('de').format(1)`, `RangeError: Intl.NumberFormat locale "de" is not supported`},
		{`(5).toLocaleString('en-IN')`, `RangeError: Intl.NumberFormat locale "en-IN" is not supported`},
		{`new Intl.NumberFormat('en', { style: 'currency', currency: 'USD' })`, "RangeError: Intl.NumberFormat style currency is not supported"},
		{`new Intl.NumberFormat('en', { maximumSignificantDigits: 2 })`, "RangeError: Intl.NumberFormat option maximumSignificantDigits: 2 is not supported"},
		{`new Intl.NumberFormat('en', { notation: 'compact' })`, "RangeError: Intl.NumberFormat option notation: compact is not supported"},
		{`new Intl.NumberFormat('en', { useGrouping: 'min2' })`, "RangeError: Intl.NumberFormat option useGrouping: min2 is not supported"},
		{`new Intl.NumberFormat('en', { notation: 'standard', signDisplay: 'auto' }).format(1)`, "1"},
		{`new Intl.NumberFormat('en').formatToParts(1)`, "TypeError"},
		{`Object.getOwnPropertyDescriptor(Intl.NumberFormat.prototype, 'format').get.call({})`, "TypeError: Method get Intl.NumberFormat.prototype.format called on incompatible receiver"},
	} {
		got := ""
		v, err := vm.RunString(tc.js)
		if err != nil {
			got = strings.TrimPrefix(err.Error(), "Uncaught ")
			got = strings.SplitN(got, " at ", 2)[0]
		} else {
			got = v.String()
		}
		if !strings.HasPrefix(got, tc.want) || (err == nil && got != tc.want) {
			t.Errorf("%s\n got %q\nwant %q", tc.js, got, tc.want)
		}
	}
}
