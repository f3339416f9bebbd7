// Package locale is the TUI's one way to put words on screen: every
// user-visible string is a go-i18n message with an ID and its English
// text, defined once beside the code that shows it, and looked up here.
//
// English is the source and the fallback. Catalogs for other languages are
// go-i18n message files (active.LANG.json), which `goi18n extract -format json` and
// `goi18n merge` produce from the messages in the code; New loads them.
// A message a catalog lacks is shown in English.
//
// Plurals follow CLDR's rules for the language: a message shown with a
// count has One and Other forms in English (Few and Many where a catalog's
// language has them) and is looked up with N.
package locale

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Message is a message definition: ID, English text, plural forms.
type Message = i18n.Message

// Localizer looks messages up for one list of language preferences. It is
// safe for concurrent use.
type Localizer struct {
	l *i18n.Localizer
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
	return &Localizer{l: i18n.NewLocalizer(b, langs...), plain: map[string]string{}}, nil
}

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

func (l *Localizer) localize(c *i18n.LocalizeConfig, m *Message) string {
	s, err := l.l.Localize(c)
	if err != nil && s == "" {
		// A broken translation must not blank the screen: fall back to the
		// English text as written.
		return m.Other
	}
	return s
}
