package lessons

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/schemalab/schemalab/lessons/locale"
)

// Catalog is the set of lessons the app offers, sorted by order then id,
// in one language: each lesson in its translation into Lang where there
// is one that passed the structure check, else in English.
type Catalog struct {
	Lessons []*Lesson
	// Lang is the language the catalog is shown in ("" is the source).
	Lang string
	// originals are the lessons as written; translations[lang][id] the
	// checked translations of them.
	originals    []*Lesson
	translations map[string]map[string]*Lesson
}

// Find returns the lesson with the given id, or nil.
func (c *Catalog) Find(id string) *Lesson {
	for _, l := range c.Lessons {
		if l.ID == id {
			return l
		}
	}
	return nil
}

// In is the catalog in language lang: every lesson translated into it in
// its translation, the others in English (which Untranslated reports).
func (c *Catalog) In(lang string) *Catalog {
	if lang == locale.Source {
		lang = ""
	}
	out := &Catalog{Lang: lang, originals: c.originals, translations: c.translations}
	for _, l := range c.originals {
		if t := c.translations[lang][l.ID]; t != nil {
			l = t
		}
		out.Lessons = append(out.Lessons, l)
	}
	return out
}

// Untranslated reports whether l is shown in English in a catalog in
// another language, for want of a translation.
func (c *Catalog) Untranslated(l *Lesson) bool {
	return c.Lang != "" && l.Lang != c.Lang
}

// LoadFS parses every lesson file (*.md except README.md) at the top of
// fsys and in its language folders (id/, ru/: translations, one per
// English lesson, with its id). A malformed file yields an error naming
// it; the others still load. prefix is put before file names in messages
// ("builtin:", a directory).
func LoadFS(fsys fs.FS, prefix string) ([]*Lesson, []error) {
	out, errs := loadDir(fsys, ".", prefix, "")
	for _, lang := range locale.Languages()[1:] {
		if info, err := fs.Stat(fsys, lang); err != nil || !info.IsDir() {
			continue
		}
		ls, es := loadDir(fsys, lang, prefix+lang+"/", lang)
		out, errs = append(out, ls...), append(errs, es...)
	}
	return out, errs
}

// loadDir parses the lesson files of one folder; lang is the folder's
// language, "" at the top, where a file is an original unless its lang:
// key names a language.
func loadDir(fsys fs.FS, dir, prefix, lang string) ([]*Lesson, []error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, []error{fmt.Errorf("%s: %w", prefix, err)}
	}
	var out []*Lesson
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.EqualFold(path.Ext(name), ".md") || strings.EqualFold(name, "README.md") {
			continue
		}
		file := prefix + name
		src, err := fs.ReadFile(fsys, path.Join(dir, name))
		if err != nil {
			errs = append(errs, &ParseError{File: file, Msg: err.Error()})
			continue
		}
		l, err := Parse(file, src)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		switch {
		case lang != "" && l.Lang != "" && l.Lang != lang:
			errs = append(errs, &ParseError{File: file, Line: 2, Msg: fmt.Sprintf("lang: %s in the %s/ folder, whose lessons are in %s", l.Lang, lang, lang)})
			continue
		case lang != "":
			l.Lang = lang
		case l.Lang == "":
			l.Lang = locale.Source
		}
		out = append(out, l)
	}
	return out, errs
}

// Load builds the catalog from the built-in lessons and any extra lesson
// pack directories (--content), in English; In gives it in another
// language. Problems are returned alongside a usable catalog: a broken
// file, a lesson id used twice (the first one wins), a translation that is
// not the same lesson as its original (which is then shown in English).
func Load(builtin fs.FS, extraDirs ...string) (*Catalog, []error) {
	var all []*Lesson
	var errs []error
	if builtin != nil {
		ls, es := LoadFS(builtin, "builtin:")
		all, errs = append(all, ls...), append(errs, es...)
	}
	for _, dir := range extraDirs {
		if dir == "" {
			continue
		}
		info, err := os.Stat(dir)
		if err != nil {
			errs = append(errs, fmt.Errorf("lesson pack %s: %w", dir, err))
			continue
		}
		if !info.IsDir() {
			errs = append(errs, fmt.Errorf("lesson pack %s: not a directory", dir))
			continue
		}
		ls, es := LoadFS(os.DirFS(dir), strings.TrimSuffix(dir, "/")+"/")
		all, errs = append(all, ls...), append(errs, es...)
	}
	c := &Catalog{translations: map[string]map[string]*Lesson{}}
	byID := map[string]*Lesson{}
	var translations []*Lesson
	for _, l := range all {
		if l.Lang != locale.Source {
			translations = append(translations, l)
			continue
		}
		if prev, ok := byID[l.ID]; ok {
			errs = append(errs, &ParseError{File: l.File, Line: 2, Msg: fmt.Sprintf("lesson id %q is already used by %s", l.ID, prev.File)})
			continue
		}
		byID[l.ID] = l
		c.originals = append(c.originals, l)
	}
	for _, t := range translations {
		o := byID[t.ID]
		switch {
		case o == nil:
			errs = append(errs, &ParseError{File: t.File, Line: 2, Msg: fmt.Sprintf("a translation of lesson %q, but there is no lesson with that id", t.ID)})
			continue
		case c.translations[t.Lang][t.ID] != nil:
			errs = append(errs, &ParseError{File: t.File, Line: 2, Msg: fmt.Sprintf("lesson %q already has a %s translation, %s", t.ID, t.Lang, c.translations[t.Lang][t.ID].File)})
			continue
		}
		if es := checkTranslation(o, t); len(es) > 0 {
			errs = append(errs, es...)
			continue
		}
		if c.translations[t.Lang] == nil {
			c.translations[t.Lang] = map[string]*Lesson{}
		}
		c.translations[t.Lang][t.ID] = t
	}
	slices.SortStableFunc(c.originals, func(a, b *Lesson) int {
		if a.Order != b.Order {
			return cmp.Compare(a.Order, b.Order)
		}
		return strings.Compare(a.ID, b.ID)
	})
	c.Lessons = c.originals
	return c, errs
}

// Select returns the lessons named by ids (all lessons when ids is empty),
// or an error naming an unknown id.
func (c *Catalog) Select(ids []string) ([]*Lesson, error) {
	if len(ids) == 0 {
		return c.Lessons, nil
	}
	var out []*Lesson
	var unknown []string
	for _, id := range ids {
		if l := c.Find(id); l != nil {
			out = append(out, l)
		} else {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		known := make([]string, len(c.Lessons))
		for i, l := range c.Lessons {
			known[i] = l.ID
		}
		return nil, &UnknownLessonError{Unknown: unknown, Known: known}
	}
	return out, nil
}

// UnknownLessonError names lesson ids the catalog does not have.
type UnknownLessonError struct {
	Unknown, Known []string
}

var msgUnknownLesson = &locale.Message{ID: "catalog.unknownLesson", One: "unknown lesson {{.Unknown}} (lessons: {{.Known}})", Other: "unknown lessons {{.Unknown}} (lessons: {{.Known}})"}

func (e *UnknownLessonError) Error() string { return e.Text(locale.English()) }

// Text is the error in l's language.
func (e *UnknownLessonError) Text(l *locale.Localizer) string {
	return l.N(msgUnknownLesson, len(e.Unknown), map[string]any{"Unknown": strings.Join(e.Unknown, ", "), "Known": strings.Join(e.Known, ", ")})
}
