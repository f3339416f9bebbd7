package locale

import (
	"bytes"
	"crypto/sha1"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/language"
)

var update = flag.Bool("update", false, "rewrite active.en.json from the messages in the code")

// moduleRoot is where the extraction walks: the repository.
const moduleRoot = "../.."

const importPath = `"github.com/schemalab/schemalab/lessons/locale"`

// extracted is a message found in the code, with where it was found.
type extracted struct {
	msg *Message
	pos string
}

// extractMessages finds every message literal in the module's Go code
// (test files left out, as goi18n extract leaves them): a composite
// literal of locale.Message, also with its type elided inside a map or
// slice of them. Its fields must be string literals, so that every
// message can be extracted without running the code.
func extractMessages(t *testing.T) map[string]extracted {
	t.Helper()
	out := map[string]extracted{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(moduleRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != moduleRoot && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		name := localName(f)
		if name == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			cl, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			var elems []ast.Expr
			switch typ := cl.Type.(type) {
			case *ast.MapType:
				if isMessage(typ.Value, name) {
					for _, e := range cl.Elts {
						elems = append(elems, e.(*ast.KeyValueExpr).Value)
					}
				}
			case *ast.ArrayType:
				if isMessage(typ.Elt, name) {
					elems = cl.Elts
				}
			default:
				if isMessage(cl.Type, name) {
					elems = []ast.Expr{cl}
				}
			}
			for _, e := range elems {
				lit, ok := e.(*ast.CompositeLit)
				if !ok || (lit != cl && lit.Type != nil) {
					// &locale.Message{…} in a map: visited on its own.
					continue
				}
				m := messageOf(t, fset, lit)
				pos := fset.Position(e.Pos()).String()
				if prev, ok := out[m.ID]; ok {
					t.Errorf("%s: message ID %q is also defined at %s", pos, m.ID, prev.pos)
				}
				out[m.ID] = extracted{m, pos}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// localName is the name file f knows this package by: "locale", an
// import's own name, "" when it does not use it; inside the package
// itself, "." (its messages are plain Message literals).
func localName(f *ast.File) string {
	if f.Name.Name == "locale" {
		return "."
	}
	for _, imp := range f.Imports {
		if imp.Path.Value == importPath {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return "locale"
		}
	}
	return ""
}

func isMessage(e ast.Expr, name string) bool {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	switch x := e.(type) {
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		return ok && id.Name == name && x.Sel.Name == "Message"
	case *ast.Ident:
		return name == "." && x.Name == "Message"
	}
	return false
}

func messageOf(t *testing.T, fset *token.FileSet, cl *ast.CompositeLit) *Message {
	t.Helper()
	m := &Message{}
	for _, e := range cl.Elts {
		kv := e.(*ast.KeyValueExpr)
		key := kv.Key.(*ast.Ident).Name
		s, ok := stringLit(kv.Value)
		if !ok {
			t.Errorf("%s: %s of a message must be a string literal, so that it can be extracted", fset.Position(kv.Pos()), key)
			continue
		}
		switch key {
		case "ID":
			m.ID = s
		case "Description":
			m.Description = s
		case "Zero":
			m.Zero = s
		case "One":
			m.One = s
		case "Two":
			m.Two = s
		case "Few":
			m.Few = s
		case "Many":
			m.Many = s
		case "Other":
			m.Other = s
		default:
			t.Errorf("%s: messages here set ID, Description, One and Other only, not %s", fset.Position(kv.Pos()), key)
		}
	}
	if m.ID == "" || m.Other == "" {
		t.Errorf("%s: a message needs an ID and its Other text", fset.Position(cl.Pos()))
	}
	if m.Zero != "" || m.Two != "" || m.Few != "" || m.Many != "" {
		t.Errorf("%s: %s: English has one and other forms only", fset.Position(cl.Pos()), m.ID)
	}
	return m
}

// stringLit is the value of a string literal or a + of them.
func stringLit(e ast.Expr) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(x.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return "", false
		}
		a, ok1 := stringLit(x.X)
		b, ok2 := stringLit(x.Y)
		return a + b, ok1 && ok2
	case *ast.ParenExpr:
		return stringLit(x.X)
	}
	return "", false
}

// sourceFile is active.en.json as goi18n writes a source file: a message
// with one form is its text, one with plural forms an object of them.
func sourceFile(msgs map[string]extracted) []byte {
	v := map[string]any{}
	for id, e := range msgs {
		if e.msg.One == "" && e.msg.Description == "" {
			v[id] = e.msg.Other
			continue
		}
		m := map[string]string{"other": e.msg.Other}
		if e.msg.One != "" {
			m["one"] = e.msg.One
		}
		if e.msg.Description != "" {
			m["description"] = e.msg.Description
		}
		v[id] = m
	}
	return marshalCatalog(v)
}

func marshalCatalog(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// sourceHash is the hash goi18n merge records in a translation: of the
// English description and other form it was made from.
func sourceHash(m *Message) string {
	return fmt.Sprintf("sha1-%x", sha1.Sum([]byte(m.Description+m.Other)))
}

var placeholder = regexp.MustCompile(`{{\s*\.(\w+)\s*}}`)

func placeholders(s string) []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return out
}

// pluralForms are the forms a translation of a message shown with a
// count must give, per language (CLDR's categories for whole numbers,
// and other, which fractions use).
var pluralForms = map[string][]string{"id": {"other"}, "ru": {"one", "few", "many", "other"}}

// TestCatalogs holds the catalogs to the code: every message the code
// defines is translated in every language, in every plural form the
// language needs, with the placeholders of the English text, from the
// English text as it is now; and no catalog keeps a message the code has
// dropped. active.en.json is what goi18n merge starts from; -update
// rewrites it.
func TestCatalogs(t *testing.T) {
	msgs := extractMessages(t)
	if len(msgs) < 100 {
		t.Fatalf("found %d messages in the code; the walk from %s is broken", len(msgs), moduleRoot)
	}
	src := sourceFile(msgs)
	if *update {
		if err := os.WriteFile("active.en.json", src, 0o644); err != nil {
			t.Fatal(err)
		}
	} else if have, err := os.ReadFile("active.en.json"); err != nil || !bytes.Equal(have, src) {
		t.Errorf("active.en.json is not the messages of the code; run: go test ./lessons/locale -run TestCatalogs -update")
	}
	for _, lang := range Languages()[1:] {
		t.Run(lang, func(t *testing.T) {
			raw, err := catalogs.ReadFile("active." + lang + ".json")
			if err != nil {
				t.Fatal(err)
			}
			var cat map[string]map[string]string
			if err := json.Unmarshal(raw, &cat); err != nil {
				t.Fatalf("active.%s.json: %v", lang, err)
			}
			if _, err := New([]string{lang}, map[string][]byte{"active." + lang + ".json": raw}); err != nil {
				t.Fatal(err)
			}
			var ids []string
			for id := range msgs {
				ids = append(ids, id)
			}
			slices.Sort(ids)
			for _, id := range ids {
				m := msgs[id].msg
				tr, ok := cat[id]
				if !ok {
					t.Errorf("%s: %s has no translation in active.%s.json (English: %q)", msgs[id].pos, id, lang, m.Other)
					continue
				}
				if tr["hash"] != sourceHash(m) {
					t.Errorf("%s: the %s translation of %s was made from other English text; English is now %q", msgs[id].pos, lang, id, m.Other)
				}
				forms := []string{"other"}
				if m.One != "" {
					forms = pluralForms[lang]
				}
				want := placeholders(m.Other + m.One)
				for form, text := range tr {
					if form == "hash" || form == "description" {
						continue
					}
					if !slices.Contains(forms, form) {
						t.Errorf("%s (%s): form %q is not one this message has in %s (%v)", id, lang, form, lang, forms)
					}
					for _, p := range placeholders(text) {
						if !slices.Contains(want, p) {
							t.Errorf("%s (%s, %s): {{.%s}} is not a placeholder of the English text %q", id, lang, form, p, m.Other)
						}
					}
				}
				for _, form := range forms {
					if strings.TrimSpace(tr[form]) == "" {
						t.Errorf("%s (%s): the %s form is missing (English: %q)", id, lang, form, m.Other)
					}
				}
				if got := placeholders(tr["other"]); m.One == "" && !slices.Equal(got, want) {
					t.Errorf("%s (%s): placeholders %v, English has %v", id, lang, got, want)
				}
			}
			for id := range cat {
				if _, ok := msgs[id]; !ok {
					t.Errorf("active.%s.json translates %s, which the code no longer has", lang, id)
				}
			}
			if got := string(marshalCatalog(cat)); got != string(raw) {
				t.Errorf("active.%s.json is not formatted as goi18n merge writes it (sorted, two-space indent)", lang)
			}
		})
	}
}

// TestPluralRules shows the catalogs' plural forms chosen by CLDR's rules.
func TestPluralRules(t *testing.T) {
	m := &Message{ID: "catalog.steps"}
	ru := For("ru")
	for n, want := range map[int]string{1: "шаг", 2: "шага", 5: "шагов", 11: "шагов", 21: "шаг", 104: "шага"} {
		if got := ru.N(m, n, nil); !strings.HasSuffix(got, want) {
			t.Errorf("ru N(%d) = %q, want the form ending %q", n, got, want)
		}
	}
	id := For("id")
	if a, b := id.N(m, 1, nil), id.N(m, 5, nil); strings.TrimLeft(a, " 0123456789") != strings.TrimLeft(b, " 0123456789") {
		t.Errorf("id has one form for every count: %q, %q", a, b)
	}
}

func TestMatchAndDetect(t *testing.T) {
	for in, want := range map[string]string{
		"ru_RU.UTF-8": "ru", "id_ID.UTF-8": "id", "id": "id", "ru-RU": "ru", "in_ID": "id",
		"C": "en", "POSIX": "en", "C.UTF-8": "en", "en_GB.UTF-8": "en", "de_DE.UTF-8@euro": "", "": "", "xx": "",
	} {
		got, ok := Match(in)
		if got != want || ok != (want != "") {
			t.Errorf("Match(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	cases := []struct {
		env  func(string) string
		want Choice
	}{
		{env("LANG", "ru_RU.UTF-8"), Choice{Lang: "ru", From: "LANG", Value: "ru_RU.UTF-8", Known: true}},
		{env("LANG", "ru_RU.UTF-8", "LC_MESSAGES", "id_ID.UTF-8"), Choice{Lang: "id", From: "LC_MESSAGES", Value: "id_ID.UTF-8", Known: true}},
		{env("LANG", "ru_RU.UTF-8", "LC_MESSAGES", "id_ID.UTF-8", "LC_ALL", "C"), Choice{Lang: "en", From: "LC_ALL", Value: "C", Known: true}},
		{env("LANG", "de_DE.UTF-8"), Choice{Lang: "en", From: "LANG", Value: "de_DE.UTF-8", Known: false}},
		{env(), Choice{Lang: "en", Known: true}},
	}
	for _, c := range cases {
		if got := Detect(c.env); got != c.want {
			t.Errorf("Detect = %+v, want %+v", got, c.want)
		}
	}
}

func TestNumbers(t *testing.T) {
	for lang, want := range map[string][]string{
		"en": {"2,879,488", "71.25", "0.50", "-1,000"},
		"id": {"2.879.488", "71,25", "0,50", "-1.000"},
		"ru": {"2\u00a0879\u00a0488", "71,25", "0,50", "-1\u00a0000"},
	} {
		l := For(lang)
		got := []string{l.Figure(2879488), l.Figure(71.25), l.Figure(0.5), l.Figure(-1000)}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	if got := English().Int(1234); got != "1,234" {
		t.Errorf("Int(1234) = %q", got)
	}
}

func TestCatalogLanguagesParse(t *testing.T) {
	for _, l := range Languages() {
		if _, err := language.Parse(l); err != nil {
			t.Errorf("%s: %v", l, err)
		}
		if For(l).Lang() != l {
			t.Errorf("For(%q).Lang() = %q", l, For(l).Lang())
		}
	}
}
