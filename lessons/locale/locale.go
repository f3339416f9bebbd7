// Package locale is schemalab's one way to put words in front of a person:
// the terminal UI, the command line, the lessons runner and the classroom
// all define their messages here, with an ID and the English text, beside
// the code that shows them, and look them up through a Localizer.
//
// Why go-i18n v2 (github.com/nicksnyder/go-i18n) rather than
// golang.org/x/text/message: plural forms follow CLDR's rules per language
// (Russian needs one, few and many: 1 шаг, 2 шага, 5 шагов, 21 шаг),
// translations live in message files a translator edits without touching Go
// (active.LANG.json, embedded in the binary), the goi18n tool merges and
// lists what is left to translate, and a message's text sits beside the
// code that shows it, so that English stays the source. x/text/message keeps
// its catalog in generated Go and its plural selection in the format
// string; it is used here only for numbers, whose digits it groups as CLDR
// says (1,234.5 · 1.234,5 · 1 234,5).
//
// English is the source and the fallback: a message a catalog lacks is shown
// in English. A message shown with a count has One and Other forms in English
// and is looked up with N; a catalog gives the forms its language has. The
// test in this package fails when a message in the code has no translation
// in a catalog, a translation lacks a plural form its language needs, or was
// made from English text that has since changed. How to add a message or a
// language is in catalogs.go.
package locale

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Message is a message definition: ID, English text, plural forms.
type Message = i18n.Message

// Localizer looks messages up in one language. It is safe for concurrent
// use.
type Localizer struct {
	lang    string
	l       *i18n.Localizer
	numbers *message.Printer
	// plain caches messages without template data: the help and status
	// lines draw the same few dozen on every frame.
	mu    sync.Mutex
	plain map[string]string
}

// English is the source language, with no catalog loaded.
func English() *Localizer {
	l, _ := New(nil, nil)
	return l
}

// For is a localizer for one of Languages() with its embedded catalog;
// anything else is English.
func For(lang string) *Localizer {
	files, err := catalogFiles(lang)
	if err != nil {
		return English()
	}
	l, err := New([]string{lang}, files)
	if err != nil {
		// The embedded catalogs are checked by this package's tests; a
		// broken one must still not keep the program from starting.
		return English()
	}
	return l
}

// New is a localizer for langs (BCP 47 tags, most preferred first) over
// the given message files, keyed by file name (active.ru.json).
func New(langs []string, files map[string][]byte) (*Localizer, error) {
	b := i18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("json", json.Unmarshal)
	for name, data := range files {
		if _, err := b.ParseMessageFileBytes(data, name); err != nil {
			return nil, fmt.Errorf("message file %s: %w", name, err)
		}
	}
	lang := Source
	if len(langs) > 0 {
		lang = langs[0]
	}
	tag, err := language.Parse(lang)
	if err != nil {
		tag = language.English
	}
	return &Localizer{lang: lang, l: i18n.NewLocalizer(b, langs...), numbers: message.NewPrinter(tag), plain: map[string]string{}}, nil
}

// Lang is the language this localizer speaks (a BCP 47 tag: "en", "ru").
func (l *Localizer) Lang() string { return l.lang }

// T is message m, its {{.Name}} placeholders filled from data (a map or a
// struct; nil for none).
func (l *Localizer) T(m *Message, data any) string {
	if data == nil {
		l.mu.Lock()
		s, ok := l.plain[m.ID]
		l.mu.Unlock()
		if ok {
			return s
		}
	}
	s := l.localize(&i18n.LocalizeConfig{DefaultMessage: m, TemplateData: data}, m)
	if data == nil {
		l.mu.Lock()
		l.plain[m.ID] = s
		l.mu.Unlock()
	}
	return s
}

// N is message m in the plural form for count; {{.Count}} is count, and
// data's other fields (a map) fill the rest.
func (l *Localizer) N(m *Message, count int, data map[string]any) string {
	td := map[string]any{"Count": count}
	for k, v := range data {
		td[k] = v
	}
	return l.localize(&i18n.LocalizeConfig{DefaultMessage: m, PluralCount: count, TemplateData: td}, m)
}

// Localized is an error that can say itself in another language.
type Localized interface {
	error
	Text(l *Localizer) string
}

// Error is err in l's language where it can say itself so, else as it
// is. A Localized error wrapped in another is said as the wrapper says it,
// which would otherwise be lost.
func (l *Localizer) Error(err error) string {
	if le, ok := err.(Localized); ok {
		return le.Text(l)
	}
	return err.Error()
}

func (l *Localizer) localize(c *i18n.LocalizeConfig, m *Message) string {
	s, err := l.l.Localize(c)
	if err != nil && s == "" {
		// A broken translation must not blank the screen: fall back to the
		// English text as written.
		return m.Other
	}
	return s
}
