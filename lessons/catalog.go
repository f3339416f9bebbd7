package lessons

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
)

// Catalog is the set of lessons the app offers, sorted by order then id.
type Catalog struct {
	Lessons []*Lesson
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

// LoadFS parses every lesson file (*.md except README.md) at the top of
// fsys. A malformed file yields an error naming it; the others still load.
// prefix is put before file names in messages ("builtin:", a directory).
func LoadFS(fsys fs.FS, prefix string) ([]*Lesson, []error) {
	entries, err := fs.ReadDir(fsys, ".")
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
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			errs = append(errs, &ParseError{File: file, Msg: err.Error()})
			continue
		}
		l, err := Parse(file, src)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, l)
	}
	return out, errs
}

// Load builds the catalog from the built-in lessons and any extra lesson
// pack directories (--content). Problems are returned alongside a usable
// catalog: a broken file, or a lesson id used twice (the first one wins).
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
	c := &Catalog{}
	byID := map[string]*Lesson{}
	for _, l := range all {
		if prev, ok := byID[l.ID]; ok {
			errs = append(errs, &ParseError{File: l.File, Line: 2, Msg: fmt.Sprintf("lesson id %q is already used by %s", l.ID, prev.File)})
			continue
		}
		byID[l.ID] = l
		c.Lessons = append(c.Lessons, l)
	}
	slices.SortStableFunc(c.Lessons, func(a, b *Lesson) int {
		if a.Order != b.Order {
			return a.Order - b.Order
		}
		return strings.Compare(a.ID, b.ID)
	})
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
		return nil, errors.New("unknown lesson " + strings.Join(unknown, ", ") + " (lessons: " + strings.Join(known, ", ") + ")")
	}
	return out, nil
}
