package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/schemalab/schemalab/tui/styles"
)

// highlightJS colours JavaScript with chroma's lexer and the theme's token
// styles (chroma's own themes assume a background we do not know).
func highlightJS(code string, st *styles.Styles) string {
	lexer := lexers.Get("javascript")
	if lexer == nil || st.NoColor {
		return code
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return code
	}
	var b strings.Builder
	for tok := it(); tok != chroma.EOF; tok = it() {
		style := tokenStyle(tok.Type, st)
		// Render line by line: a style spanning a newline would pad lines.
		for i, part := range strings.Split(tok.Value, "\n") {
			if i > 0 {
				b.WriteByte('\n')
			}
			if part != "" {
				b.WriteString(style.Render(part))
			}
		}
	}
	return b.String()
}

func tokenStyle(t chroma.TokenType, st *styles.Styles) lipgloss.Style {
	switch {
	case t.InCategory(chroma.Comment):
		return st.CodeComment
	case t.InCategory(chroma.Keyword):
		return st.CodeKeyword
	case t.InSubCategory(chroma.LiteralString):
		return st.CodeString
	case t.InSubCategory(chroma.LiteralNumber):
		return st.CodeNumber
	case t == chroma.NameFunction || t == chroma.NameBuiltin:
		return st.CodeFunction
	case t == chroma.NameOther || t == chroma.NameAttribute || t == chroma.NameProperty:
		return st.CodeField
	case t.InCategory(chroma.Operator) || t.InCategory(chroma.Punctuation):
		return st.CodeOperator
	}
	return st.CodePlain
}
