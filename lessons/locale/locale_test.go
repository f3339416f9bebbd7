package locale

import "testing"

var testApples = &Message{ID: "test.apples", One: "{{.Count}} apple", Other: "{{.Count}} apples"}

func TestEnglishPlurals(t *testing.T) {
	l := English()
	for n, want := range map[int]string{0: "0 apples", 1: "1 apple", 2: "2 apples"} {
		if got := l.N(testApples, n, nil); got != want {
			t.Errorf("N(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCatalogAndFallback(t *testing.T) {
	ru := []byte(`{"test.apples": {"one": "{{.Count}} яблоко", "few": "{{.Count}} яблока", "many": "{{.Count}} яблок", "other": "{{.Count}} яблока"}}`)
	l, err := New([]string{"ru"}, map[string][]byte{"active.ru.json": ru})
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int]string{1: "1 яблоко", 3: "3 яблока", 5: "5 яблок", 21: "21 яблоко"} {
		if got := l.N(testApples, n, nil); got != want {
			t.Errorf("ru N(%d) = %q, want %q", n, got, want)
		}
	}
	hello := &Message{ID: "test.hello", Other: "Hello, {{.Name}}"}
	if got := l.T(hello, map[string]any{"Name": "Ada"}); got != "Hello, Ada" {
		t.Errorf("a message the catalog lacks = %q, want the English text", got)
	}
}
