package lessons

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons/locale"
)

// TestBuiltinTranslationsPassTheStructureCheck loads every built-in
// translation: each is shown in its language, and each of its steps has
// the English step's ID, so that progress is one record in every language.
func TestBuiltinTranslationsPassTheStructureCheck(t *testing.T) {
	cat, errs := Load(content.FS)
	for _, err := range errs {
		t.Errorf("load: %v", err)
	}
	for _, lang := range locale.Languages()[1:] {
		in := cat.In(lang)
		translated := 0
		for i, l := range in.Lessons {
			en := cat.Lessons[i]
			if in.Untranslated(l) {
				continue
			}
			translated++
			if l.Lang != lang || l.ID != en.ID || l.Title == en.Title && l.Intro == en.Intro {
				t.Errorf("%s: %s is not a %s translation of %s", lang, l.File, lang, en.File)
			}
			for k := range l.Steps {
				if l.Steps[k].ID != en.Steps[k].ID {
					t.Errorf("%s step %d: ID %q, English %q", l.File, k+1, l.Steps[k].ID, en.Steps[k].ID)
				}
			}
		}
		if translated != len(cat.Lessons) {
			t.Errorf("%d of %d lessons are in %s", translated, len(cat.Lessons), lang)
		}
	}
}

const enLesson = "---\nid: demo\ntitle: Demo\norder: 3\nminutes: 5\n---\n" +
	"# Demo\n\nIntro.\n\n" +
	"## Count the documents\n\nProse.\n\n" +
	"```js setup\nconst rand = () => 4; // fair dice\ndb.c.insertMany([{ _id: 1, name: 'one' }, { _id: 2, name: 'two' }])\n```\n\n" +
	"```js run\nprint('there are ' + db.c.countDocuments() + ' documents')\n```\n\n" +
	"```text expect\nthere are 2 documents\n```\n\n" +
	"## Compare\n\n" +
	"```js compare label=\"flat\" collection=\"c\"\ndb.c.find({ _id: 1 }).explain('executionStats')\n```\n\n" +
	"```js compare label=\"indexed\" collection=\"c\"\ndb.c.find({ _id: 2 }).explain('executionStats')\n```\n\n" +
	"## Exercise: one more\n\nInsert one.\n\n" +
	"```js exercise starter\n// your code\n```\n\n" +
	"```js exercise check\ndb.c.countDocuments() === 3 || 'insert one more document'\n```\n\n" +
	"```md exercise hint\nUse insertOne.\n```\n\n" +
	"```js exercise solution\ndb.c.insertOne({ _id: 3 })\n```\n"

// ruLesson is enLesson in Russian: other prose, headings, comments, labels
// and strings, the same code.
const ruLesson = "---\nid: demo\ntitle: Демо\n---\n" +
	"# Демо\n\nВведение.\n\n" +
	"## Считаем документы\n\nТекст.\n\n" +
	"```js setup\nconst rand = () => 4; // честный кубик\ndb.c.insertMany([{ _id: 1, name: 'один' }, { _id: 2, name: 'два' }])\n```\n\n" +
	"```js run\nprint('в коллекции ' + db.c.countDocuments() + ' документа')\n```\n\n" +
	"```text expect\nв коллекции 2 документа\n```\n\n" +
	"## Сравнение\n\n" +
	"```js compare label=\"плоская\" collection=\"c\"\ndb.c.find({ _id: 1 }).explain('executionStats')\n```\n\n" +
	"```js compare label=\"с индексом\" collection=\"c\"\ndb.c.find({ _id: 2 }).explain('executionStats')\n```\n\n" +
	"## Упражнение: ещё один\n\nВставьте один.\n\n" +
	"```js exercise starter\n// ваш код\n```\n\n" +
	"```js exercise check\ndb.c.countDocuments() === 3 || 'вставьте ещё один документ'\n```\n\n" +
	"```md exercise hint\nВоспользуйтесь insertOne.\n```\n\n" +
	"```js exercise solution\ndb.c.insertOne({ _id: 3 })\n```\n"

func loadWithRussian(t *testing.T, ru string) (*Catalog, []error) {
	t.Helper()
	return Load(fstest.MapFS{"demo.md": {Data: []byte(enLesson)}, "ru/demo.md": {Data: []byte(ru)}})
}

func TestTranslationStandsInForItsOriginal(t *testing.T) {
	cat, errs := loadWithRussian(t, ruLesson)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	ru := cat.In("ru")
	l := ru.Find("demo")
	if l.Title != "Демо" || l.Lang != "ru" || ru.Untranslated(l) {
		t.Fatalf("the Russian catalog shows %q (%s)", l.Title, l.Lang)
	}
	en := cat.Find("demo")
	for i := range en.Steps {
		if l.Steps[i].ID != en.Steps[i].ID {
			t.Errorf("step %d: ID %q, want the English %q", i+1, l.Steps[i].ID, en.Steps[i].ID)
		}
	}
	if l.Order != 3 || l.Minutes != 5 {
		t.Errorf("order %g, minutes %d: a translation takes its original's", l.Order, l.Minutes)
	}
	if id := cat.In("id"); !id.Untranslated(id.Find("demo")) {
		t.Error("with no Indonesian translation the lesson must be marked as English only")
	}
	if cat.In("en").Untranslated(en) {
		t.Error("an English lesson in the English catalog is not untranslated")
	}
}

// TestStructureCheckFails shows what the check refuses: each broken
// translation is reported at its file and line, and the English lesson is
// shown in its place.
func TestStructureCheckFails(t *testing.T) {
	cases := []struct {
		name, from, to, want string
	}{
		{"a missing step", "## Сравнение\n\n" +
			"```js compare label=\"плоская\" collection=\"c\"\ndb.c.find({ _id: 1 }).explain('executionStats')\n```\n\n" +
			"```js compare label=\"с индексом\" collection=\"c\"\ndb.c.find({ _id: 2 }).explain('executionStats')\n```\n\n", "",
			"ru/demo.md:26: the translation has 2 steps, builtin:demo.md has 3"},
		{"a changed code token", "{ _id: 2 }).explain", "{ _id: 3 }).explain",
			`ru/demo.md:33: the code differs from builtin:demo.md:35 beyond comments and strings: here "db.c.find({ _id: 3 }).explain('executionStats')", in English "db.c.find({ _id: 2 }).explain('executionStats')"`},
		{"a changed field name", "name: 'один'", "nama: 'один'",
			"ru/demo.md:15: the code differs from builtin:demo.md:17 beyond comments and strings"},
		{"an extra block", "```md exercise hint\n", "```md exercise hint\nСначала подумайте.\n```\n\n```md exercise hint\n",
			"ru/demo.md:52: an extra exercise hint block: step 3 of builtin:demo.md has 4 executable blocks, this one 5"},
		{"another kind of block", "```js setup\n", "```js run\n",
			"ru/demo.md:13: a run block where builtin:demo.md:15 has a setup block"},
		{"other figures in an expectation", "в коллекции 2 документа\n", "в коллекции 3 документа\n",
			`ru/demo.md:23: this expected output must check what builtin:demo.md:25 checks: other figures or wildcards than "there are 2 documents"`},
		{"another collection", "label=\"с индексом\" collection=\"c\"", "label=\"с индексом\" collection=\"d\"",
			`collection="d" must be collection="c"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(ruLesson, c.from) {
				t.Fatalf("the Russian lesson has no %q", c.from)
			}
			cat, errs := loadWithRussian(t, strings.Replace(ruLesson, c.from, c.to, 1))
			var all []string
			for _, e := range errs {
				all = append(all, e.Error())
			}
			if !strings.Contains(strings.Join(all, "\n"), "builtin:"+c.want) && !strings.Contains(strings.Join(all, "\n"), c.want) {
				t.Errorf("errors:\n%s\nwant one containing %q", strings.Join(all, "\n"), c.want)
			}
			ru := cat.In("ru")
			if l := ru.Find("demo"); l.Lang != locale.Source || !ru.Untranslated(l) {
				t.Errorf("a failing translation must leave the English lesson in its place, got %s", l.File)
			}
		})
	}
}

func TestTranslationWithoutOriginalOrTwice(t *testing.T) {
	fsys := fstest.MapFS{
		"demo.md":       {Data: []byte(enLesson)},
		"ru/demo.md":    {Data: []byte(ruLesson)},
		"demo-ru.md":    {Data: []byte(strings.Replace(ruLesson, "title: Демо", "title: Демо\nlang: ru", 1))},
		"ru/other.md":   {Data: []byte(strings.Replace(ruLesson, "id: demo", "id: other", 1))},
		"id/wrong.md":   {Data: []byte(strings.Replace(ruLesson, "title: Демо", "title: Демо\nlang: ru", 1))},
		"de/ignored.md": {Data: []byte("not a lesson")},
	}
	_, errs := Load(fsys)
	var all []string
	for _, e := range errs {
		all = append(all, e.Error())
	}
	got := strings.Join(all, "\n")
	for _, want := range []string{
		`builtin:ru/other.md:2: a translation of lesson "other", but there is no lesson with that id`,
		`lesson "demo" already has a ru translation`,
		"builtin:id/wrong.md:2: lang: ru in the id/ folder, whose lessons are in id",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("errors:\n%s\nwant %q", got, want)
		}
	}
	if len(errs) != 3 {
		t.Errorf("%d errors, want 3", len(errs))
	}
}

func TestSameCodeIgnoresCommentsAndStringsOnly(t *testing.T) {
	same := [][2]string{
		{"db.a.find({ x: 1 }) // first", "db.a.find({ x: 1 }) // первый"},
		{"/* setup */ const f = () => 1", "const f = () => 1 /* подготовка */"},
		{"print('after push ' + i + ': ' + n + ' bytes')", "print('setelah push ' + i + ': ' + n + ' byte')"},
		{"print(`${n} writers finished`)", "print(`${n} писателей закончили`)"},
		{"db.a.insertOne({ 'name': 'x' })", "db.a.insertOne({ 'name': 'икс' })"},
		{"await db.a.insertOne({})\nprint('done')", "await db.a.insertOne({})\nprint('готово')"},
	}
	for _, c := range same {
		if d := sameCode(c[0], c[1]); d != nil {
			t.Errorf("%q and %q differ: %s", c[0], c[1], d.text)
		}
	}
	differ := [][2]string{
		{"db.a.find({ x: 1 })", "db.a.find({ x: 2 })"},
		{"db.a.find({ x: 1 })", "db.b.find({ x: 1 })"},
		{"db.a.insertOne({ 'name': 1 })", "db.a.insertOne({ 'nama': 1 })"},
		{"print(`${n} writers`)", "print(`${m} писателей`)"},
		{"x = /ab+/", "x = /ab*/"},
		{"f(1)\n(g)", "f(1);\n(g)"},
	}
	for _, c := range differ {
		if sameCode(c[0], c[1]) == nil {
			t.Errorf("%q and %q are taken for the same code", c[0], c[1])
		}
	}
}

func TestSlugsOfTranslatedHeadings(t *testing.T) {
	for title, want := range map[string]string{
		"Дерево категорий: ссылки на родителя":                 "дерево-категорий-ссылки-на-родителя",
		"Ёмкость бакета — 60 замеров":                          "ёмкость-бакета-60-замеров",
		"Dua tembok: 16 MiB, dan 1,29 MB untuk dua puluh nama": "dua-tembok-16-mib-dan-1-29-mb-untuk-dua-puluh-nama",
		"Latihan: menandai buku outlier":                       "latihan-menandai-buku-outlier",
		"Второй и\u0306 шаг":                                   "второй-и\u0306-шаг", // й typed as и + U+0306
		"→ ★":                                                  "",
	} {
		if got := slug(title); got != want {
			t.Errorf("slug(%q) = %q, want %q", title, got, want)
		}
	}
	src := "---\nid: s\ntitle: S\n---\n## Шаг\nа\n## Шаг 2\nб\n## Шаг\nв\n## ★\nг\n## ☆\nд\n"
	l, err := Parse("s.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range l.Steps {
		ids = append(ids, s.ID)
	}
	if got := strings.Join(ids, " "); got != "шаг шаг-2 шаг-3 step step-2" {
		t.Errorf("step IDs %s: each must be unique and non-empty", got)
	}
}
