package shell

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"go.mongodb.org/mongo-driver/v2/bson"
)

var promiseType = reflect.TypeOf((*goja.Promise)(nil))

// formatResult and formatFull lay out a statement's value as mongosh does:
// a plain value, or a cursor batch and explain output (nothing cut off).
func (s *Shell) formatResult(v any) string {
	result, _, _ := s.formats()
	return formatResult(v, result)
}

func (s *Shell) formatFull(v any) string {
	_, full, _ := s.formats()
	return Format(v, full)
}

// emitValue prints a statement's value as mongosh's formatOutput does.
// A Promise is awaited first, as mongosh awaits a statement's value.
func (s *Shell) emitValue(v goja.Value) error {
	v, err := s.awaitValue(v)
	if err != nil {
		return err
	}
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	if o, ok := v.(*goja.Object); ok {
		if t := o.GetSymbol(s.typeSym); t != nil && !goja.IsUndefined(t) {
			return s.emitShellObject(o, t.String())
		}
	}
	d := s.display(v)
	s.emit(s.formatResult(d), d)
	return nil
}

func (s *Shell) callMethod(o *goja.Object, name string) (goja.Value, error) {
	fn, ok := goja.AssertFunction(o.Get(name))
	if !ok {
		return nil, fmt.Errorf("%s is not a function", name)
	}
	return fn(o)
}

func (s *Shell) emitShellObject(o *goja.Object, typ string) error {
	if isCursorType(typ) {
		s.lastCursor = o
		return s.emitCursorBatch(o, false)
	}
	switch typ {
	case "ExplainableCursor":
		v, err := s.callMethod(o, "_finish")
		if err != nil {
			return err
		}
		d := s.display(v)
		s.emit(s.formatFull(d), d)
		return nil
	case "ExplainOutput":
		d := s.display(o)
		s.emit(s.formatFull(d), d)
		return nil
	case "Database":
		name := o.Get("_name").String()
		s.emit(name, name)
		return nil
	case "Collection":
		name := o.Get("_database").ToObject(s.vm).Get("_name").String() + "." + o.Get("_name").String()
		s.emit(name, name)
		return nil
	case "Session":
		d := s.display(o.Get("id"))
		s.emit(s.formatResult(d), d)
		return nil
	case "Explainable":
		c := o.Get("_c").ToObject(s.vm)
		name := "Explainable(" + c.Get("_database").ToObject(s.vm).Get("_name").String() + "." + c.Get("_name").String() + ")"
		s.emit(name, name)
		return nil
	}
	d := s.display(o)
	s.emit(s.formatResult(d), d)
	return nil
}

// isCursorType reports whether a shell API type prints as its next batch
// of documents.
func isCursorType(typ string) bool { return typ == "Cursor" || typ == "AggregationCursor" }

// emitCursorBatch prints up to 20 documents of a cursor and the
// 'Type "it" for more' hint. it reports "no cursor" on an exhausted cursor
// when asked to continue, as mongosh's `it` does.
func (s *Shell) emitCursorBatch(o *goja.Object, viaIt bool) error {
	v, err := s.callMethod(o, "_it")
	if err != nil {
		return err
	}
	r := v.ToObject(s.vm)
	docs := s.display(r.Get("docs"))
	more := r.Get("more").ToBoolean()
	arr, _ := docs.(bson.A)
	if len(arr) == 0 {
		if viaIt {
			s.emit("no cursor", "no cursor")
		}
		return nil
	}
	text := s.formatFull(arr)
	if more {
		text += "\nType \"it\" for more"
	}
	s.emit(text, arr)
	return nil
}

// shellObjectDisplay is how shell API objects look inside other values.
func (s *Shell) shellObjectDisplay(o *goja.Object, typ string) (any, error) {
	switch typ {
	case "Database":
		return o.Get("_name").String(), nil
	case "Collection":
		return o.Get("_database").ToObject(s.vm).Get("_name").String() + "." + o.Get("_name").String(), nil
	case "Session":
		return s.toBSON(o.Get("id"), 1, true)
	case "ExplainOutput":
		keys := o.Keys()
		d := make(bson.D, 0, len(keys))
		for _, k := range keys {
			ev, err := s.toBSON(o.Get(k), 1, true)
			if err != nil {
				return nil, err
			}
			d = append(d, bson.E{Key: k, Value: ev})
		}
		return d, nil
	}
	return Instance{Name: typ}, nil
}

// runShellCommand handles use/show/it/exit lines.
func (s *Shell) runShellCommand(cmd, arg string) error {
	switch cmd {
	case "use":
		name := strings.Trim(arg, `"'`)
		if name == s.DB() {
			s.emit("already on db "+name, "already on db "+name)
			return nil
		}
		if _, err := s.setDB(goja.Undefined(), s.vm.ToValue(name)); err != nil {
			return err
		}
		s.dbMu.Lock()
		s.db = name
		s.dbMu.Unlock()
		s.emit("switched to db "+name, "switched to db "+name)
		return nil
	case "it":
		if s.lastCursor == nil {
			s.emit("no cursor", "no cursor")
			return nil
		}
		return s.emitCursorBatch(s.lastCursor, true)
	case "exit", "quit":
		// As pasted into mongosh: the session ends.
		s.exit = &exitRequest{}
		return errExited
	case "show":
		return s.runShow(arg)
	}
	return nil
}

func (s *Shell) runShow(what string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if o, ok := r.(*goja.Object); ok {
				err = &thrown{v: o}
				return
			}
			panic(r)
		}
	}()
	switch strings.Fields(what)[0] {
	case "dbs", "databases":
		res := s.command("admin", bson.D{{Key: "listDatabases", Value: 1}})
		dbs, _ := lookupD(res, "databases").(bson.A)
		var rows [][2]string
		for _, d := range dbs {
			dd, _ := d.(bson.D)
			name, _ := lookupD(dd, "name").(string)
			rows = append(rows, [2]string{name, formatBytes(toFloat(lookupD(dd, "sizeOnDisk")))})
		}
		text := textTable(rows, true)
		s.emit(text, dbs)
	case "collections", "tables":
		docs := s.cursorCommand(s.DB(), bson.D{{Key: "listCollections", Value: 1}, {Key: "nameOnly", Value: true}})
		var names []string
		for _, d := range docs {
			dd, _ := d.(bson.D)
			n, _ := lookupD(dd, "name").(string)
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool {
			si, sj := strings.HasPrefix(names[i], "system."), strings.HasPrefix(names[j], "system.")
			if si != sj {
				return !si
			}
			return names[i] < names[j]
		})
		vals := make(bson.A, len(names))
		for i, n := range names {
			vals[i] = n
		}
		s.emit(strings.Join(names, "\n"), vals)
	default:
		o := s.jsError("MongoshInvalidInputError", "'"+what+"' is not a valid argument for \"show\".")
		return &thrown{v: o}
	}
	return nil
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int32:
		return float64(x)
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// formatBytes is numeral(value).format('0 ib' or '0.00 ib') as mongosh's
// show dbs uses it.
func formatBytes(v float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	i := 0
	x := v
	for x >= 1024 && i < len(units)-1 {
		x /= 1024
		i++
	}
	if v <= 1000 {
		return strconv.FormatFloat(math.Round(x), 'f', 0, 64) + " " + units[i]
	}
	return strconv.FormatFloat(x, 'f', 2, 64) + " " + units[i]
}

// textTable lays out two columns as the text-table package does: left
// aligned names, the second column right aligned, two spaces between.
func textTable(rows [][2]string, rightAlign bool) string {
	w0, w1 := 0, 0
	for _, r := range rows {
		w0 = max(w0, len(r[0]))
		w1 = max(w1, len(r[1]))
	}
	lines := make([]string, len(rows))
	for i, r := range rows {
		second := r[1]
		if rightAlign {
			second = strings.Repeat(" ", w1-len(r[1])) + r[1]
		}
		lines[i] = strings.TrimRight(r[0]+strings.Repeat(" ", w0-len(r[0]))+"  "+second, " ")
	}
	return strings.Join(lines, "\n")
}
