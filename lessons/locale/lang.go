package locale

import (
	"strings"

	"golang.org/x/text/language"
)

// Source is the language the messages and the lessons are written in, and
// the one shown where a translation is missing.
const Source = "en"

// Languages are the languages schemalab speaks, the source first.
func Languages() []string { return []string{Source, "id", "ru"} }

// Match is the language of Languages() that a POSIX locale name
// ("ru_RU.UTF-8", "id_ID", "C") or a BCP 47 tag ("ru", "id-ID") asks for.
// ok is false when it names none of them; C and POSIX are English.
func Match(name string) (lang string, ok bool) {
	name = strings.TrimSpace(name)
	// language_TERRITORY.codeset@modifier: only the language matters.
	if i := strings.IndexAny(name, ".@"); i >= 0 {
		name = name[:i]
	}
	switch name {
	case "":
		return "", false
	case "C", "POSIX":
		return Source, true
	}
	tag, err := language.Parse(strings.ReplaceAll(name, "_", "-"))
	if err != nil {
		return "", false
	}
	base, _ := tag.Base()
	for _, l := range Languages() {
		if base.String() == l {
			return l, true
		}
	}
	// "in" is Indonesian's withdrawn ISO 639 code, which Java still sends.
	if base.String() == "in" {
		return "id", true
	}
	return "", false
}

// Choice is the language chosen for a session and why.
type Choice struct {
	// Lang is one of Languages().
	Lang string
	// From names where it came from: "--lang", an environment variable
	// (LC_ALL, LC_MESSAGES, LANG), or "" when nothing asked for a language.
	From string
	// Value is what From said ("ru_RU.UTF-8").
	Value string
	// Known is false when Value names a language schemalab does not speak,
	// so that Lang is English in its place.
	Known bool
}

// Detect chooses the language from the environment as POSIX does for
// messages: LC_ALL if set, else LC_MESSAGES, else LANG. A locale schemalab
// has no catalog for is English, never an error.
func Detect(getenv func(string) string) Choice {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if val := getenv(v); val != "" {
			lang, ok := Match(val)
			if !ok {
				lang = Source
			}
			return Choice{Lang: lang, From: v, Value: val, Known: ok}
		}
	}
	return Choice{Lang: Source, Known: true}
}

var (
	msgChosenFlag    = &Message{ID: "locale.chosen.flag", Other: "{{.Name}} ({{.Lang}}), from --lang {{.Value}}"}
	msgChosenEnv     = &Message{ID: "locale.chosen.env", Other: "{{.Name}} ({{.Lang}}), from {{.Var}}={{.Value}}"}
	msgChosenUnknown = &Message{ID: "locale.chosen.unknown", Other: "{{.Name}} ({{.Lang}}): {{.Var}}={{.Value}} is a language schemalab has no translation for"}
	msgChosenNone    = &Message{ID: "locale.chosen.none", Other: "{{.Name}} ({{.Lang}}): none of LC_ALL, LC_MESSAGES and LANG is set"}
	msgLanguageName  = &Message{ID: "locale.languageName", Other: "English"}
)

// Explain says, in l's language, which language c is and why it was
// chosen: the line `schemalab doctor` shows.
func (c Choice) Explain(l *Localizer) string {
	data := map[string]any{"Name": l.T(msgLanguageName, nil), "Lang": c.Lang, "Var": c.From, "Value": c.Value}
	switch {
	case c.From == "--lang":
		return l.T(msgChosenFlag, data)
	case c.From == "":
		return l.T(msgChosenNone, data)
	case !c.Known:
		return l.T(msgChosenUnknown, data)
	}
	return l.T(msgChosenEnv, data)
}
