package lessons

import (
	"slices"

	"github.com/schemalab/schemalab/lessons/locale"
)

// standardFigures are the figures every comparison may have, in the order
// the app and `schemalab run` show them.
var standardFigures = []string{"keys", "docs", "ms", "dataBytes", "indexBytes", "storageBytes", "updated", "writes"}

// figureLabels are the display names of the standard figure keys; an
// author's own figure is shown by the name the lesson gave it.
var figureLabels = map[string]*locale.Message{
	"keys":         {ID: "figures.keys", Other: "keys examined"},
	"docs":         {ID: "figures.docs", Other: "docs examined"},
	"ms":           {ID: "figures.ms", Other: "ms"},
	"dataBytes":    {ID: "figures.dataBytes", Other: "data bytes"},
	"indexBytes":   {ID: "figures.indexBytes", Other: "index bytes"},
	"updated":      {ID: "figures.updated", Other: "docs updated"},
	"writes":       {ID: "figures.writes", Other: "writes sent"},
	"storageBytes": {ID: "figures.storageBytes", Other: "storage bytes"},
}

// FigureKeys lists the figures any variant has: the standard ones first,
// then an author's own in the order they appear.
func FigureKeys(vs []VariantResult) []string {
	var keys []string
	has := func(k string) bool {
		return slices.ContainsFunc(vs, func(v VariantResult) bool { _, ok := v.Figure(k); return ok })
	}
	for _, k := range standardFigures {
		if has(k) {
			keys = append(keys, k)
		}
	}
	for _, v := range vs {
		for _, f := range v.Figures {
			keys = appendNew(keys, f.Key)
		}
	}
	return keys
}

// FigureLabel is the display name of figure key k in l's language.
func FigureLabel(l *locale.Localizer, k string) string {
	if m, ok := figureLabels[k]; ok {
		return l.T(m, nil)
	}
	return k
}
