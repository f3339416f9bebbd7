package locale

import (
	"embed"
	"fmt"
)

// Adding or changing a message
//
//  1. Define it beside the code that shows it, with an ID named for where it
//     is shown and its English text; give it a One form when it is shown
//     with a count (and call N):
//
//     var msgSteps = &locale.Message{ID: "catalog.steps", One: "{{.Count}} step", Other: "{{.Count}} steps"}
//
//  2. Extract the English messages from the code into active.en.json (goi18n
//     extract does not see messages defined through this package's alias,
//     so the test extracts them, as goi18n extract would):
//
//     go test ./lessons/locale -run TestCatalogs -update
//
//  3. List what is left to translate, translate it, merge it back, with the
//     goi18n tool (go install github.com/nicksnyder/go-i18n/v2/goi18n@v2.7.0),
//     in this directory:
//
//     goi18n merge -format json active.en.json active.id.json active.ru.json
//     # translate translate.id.json and translate.ru.json (ru needs one, few,
//     # many and other forms where English has one and other), then:
//     goi18n merge -format json active.*.json translate.*.json
//
//  4. go test ./lessons/locale: it fails on any message of the code that a
//     catalog lacks, a missing plural form, a placeholder the English text
//     does not have, a translation made from English that has since changed
//     (the hash goi18n merge records), and a translation of a message the
//     code no longer has.
//
// A new language is a new active.LANG.json (start from an empty {} file and
// merge), its tag in Languages(), and a line in the embed below.

// catalogs are the translations, one go-i18n message file per language.
//
//go:embed active.id.json active.ru.json
var catalogs embed.FS

// catalogFiles is the message file of lang, keyed by its name; none for
// the source language.
func catalogFiles(lang string) (map[string][]byte, error) {
	if lang == Source {
		return nil, nil
	}
	name := "active." + lang + ".json"
	data, err := catalogs.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("no catalog for %q", lang)
	}
	return map[string][]byte{name: data}, nil
}
