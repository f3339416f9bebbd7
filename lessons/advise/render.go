package advise

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
)

// histogramWidth is the longest bar of a text or markdown histogram, in
// cells.
const histogramWidth = 40

// WriteJSON writes the report for tools: { database, server, sampled,
// findings: […] } and the notes.
func (rep *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// WriteText writes the report for a terminal, histograms drawn as the
// lessons draw theirs.
func (rep *Report) WriteText(w io.Writer) error {
	return rep.write(w, false)
}

// WriteMarkdown writes the report to paste into a ticket.
func (rep *Report) WriteMarkdown(w io.Writer) error {
	return rep.write(w, true)
}

func (rep *Report) write(w io.Writer, md bool) error {
	l := locale.English()
	var b strings.Builder
	heading := func(level int, s string) {
		if md {
			b.WriteString(strings.Repeat("#", level) + " " + s + "\n\n")
			return
		}
		// Underlined, as Markdown's setext headings: = for the title.
		rule := "-"
		if level == 1 {
			rule = "="
		}
		b.WriteString(s + "\n" + strings.Repeat(rule, len([]rune(s))) + "\n")
	}
	heading(1, "schemalab advise: database "+rep.Database)
	fmt.Fprintf(&b, "Server: %s\n", rep.Server)
	for _, s := range rep.Sampled {
		fmt.Fprintf(&b, "Sampled: %s has %s documents; it was analysed on a $sample of %s.\n", code(s.Collection, md), l.Figure(float64(s.Documents)), l.Figure(float64(s.Sample)))
	}
	if rep.Interrupted {
		b.WriteString("Interrupted: these are the findings until then.\n")
	}
	fmt.Fprintf(&b, "Findings: %d\n\n", len(rep.Findings))
	for _, f := range rep.Findings {
		heading(2, f.Heading())
		f.writeBody(&b, l, md)
		b.WriteString("\n")
	}
	if len(rep.Notes) > 0 {
		heading(2, "What advise could not see")
		for _, n := range rep.Notes {
			b.WriteString("- " + n + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Heading is the finding's title line: its pattern, where and how sure.
func (f Finding) Heading() string {
	where := f.Collection
	if f.Field != "" {
		where += "." + f.Field
	}
	return fmt.Sprintf("%s: %s (%s confidence)", f.Pattern, where, f.Confidence)
}

// Body is the finding under its heading as the text report writes it:
// summary, figures, histogram, threshold, lesson and manual page, for the
// TUI's advise page to show as the command does.
func (f Finding) Body() string {
	var b strings.Builder
	f.writeBody(&b, locale.English(), false)
	return b.String()
}

func (f Finding) writeBody(b *strings.Builder, l *locale.Localizer, md bool) {
	b.WriteString(f.Summary + "\n\n")
	writeFigures(b, l, f.Evidence.Figures, md)
	if len(f.Evidence.Histogram) > 0 {
		b.WriteString("\n")
		writeHistogram(b, l, f.Evidence.Histogram, md)
	}
	fmt.Fprintf(b, "\nThreshold: %s\n", f.Evidence.Threshold)
	fmt.Fprintf(b, "Lesson: %s (schemalab --lesson %s)\n", code(f.Lesson, md), f.Lesson)
	fmt.Fprintf(b, "Manual: %s\n", f.Evidence.Reference)
}

// code is s as code: quoted in Markdown, plain in text.
func code(s string, md bool) string {
	if md {
		return "`" + s + "`"
	}
	return s
}

func writeFigures(b *strings.Builder, l *locale.Localizer, figs []Figure, md bool) {
	if md {
		b.WriteString("| figure | value |\n|---|---|\n")
		for _, f := range figs {
			fmt.Fprintf(b, "| %s | %s |\n", f.Name, figureText(l, f.Value))
		}
		return
	}
	w := 0
	for _, f := range figs {
		w = max(w, len([]rune(f.Name)))
	}
	for _, f := range figs {
		fmt.Fprintf(b, "  %s%s  %s\n", f.Name, strings.Repeat(" ", w-len([]rune(f.Name))), figureText(l, f.Value))
	}
}

func writeHistogram(b *strings.Builder, l *locale.Localizer, bars []lessons.Bar, md bool) {
	lw, cw, top := 0, 0, 0.0
	for _, bar := range bars {
		lw, cw, top = max(lw, len([]rune(bar.Label))), max(cw, len(l.Figure(bar.Count))), max(top, bar.Count)
	}
	if md {
		b.WriteString("```text\n")
	}
	for _, bar := range bars {
		n := l.Figure(bar.Count)
		fmt.Fprintf(b, "  %s%s %s%s %s\n", strings.Repeat(" ", lw-len([]rune(bar.Label))), bar.Label,
			strings.Repeat(" ", cw-len(n)), n, lessons.BarCells(bar.Count, top, histogramWidth))
	}
	if md {
		b.WriteString("```\n")
	}
}

func figureText(l *locale.Localizer, v any) string {
	switch x := v.(type) {
	case int:
		return l.Figure(float64(x))
	case int64:
		return l.Figure(float64(x))
	case float64:
		return l.Figure(x)
	case []string:
		return strings.Join(x, ", ")
	}
	return fmt.Sprint(v)
}
