package lessons

import (
	"context"
	"errors"
	"fmt"
	"math"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox/shell"
)

var (
	msgFiguresExpression  = &locale.Message{ID: "compare.figuresExpression", Other: "figures expression"}
	msgFiguresNotDocument = &locale.Message{ID: "compare.figuresNotDocument", Other: "figures expression must return a document, got {{.Got}}"}
)

// variant runs one comparison variant and gathers its figures: keys and
// documents examined and milliseconds from the explain output, documents
// updated from write results, writes sent from the commands the variant
// sent (when it names a collection), bytes from collStats, and any figures
// expression the author gave.
func (p *presenter) variant(ctx context.Context, b *Block, width int) VariantResult {
	v := VariantResult{Label: b.Variant.Label, Block: b}
	var sent []Command
	var out shell.Result
	var err error
	if b.Variant.Writes != "" {
		// Record the variant's commands, keeping whatever recording was
		// under way (and its log) as it was.
		was := p.st.rec.pause()
		p.st.rec.resume(true)
		from := p.st.rec.count()
		out, err = p.st.eval(ctx, width, b.Text)
		sent = p.st.rec.since(from)
		p.st.rec.resume(was)
	} else {
		out, err = p.st.eval(ctx, width, b.Text)
	}
	v.Statements, v.Output, v.Err = statements(b.Text, &out, err), out.Transcript, err
	if v.Err != nil {
		return v
	}
	if len(out.Metrics) > 0 {
		var keys, docs, ms int64
		for _, m := range out.Metrics {
			keys += m.KeysExamined
			docs += m.DocsExamined
			ms += m.Millis
		}
		v.Figures = append(v.Figures, Figure{"keys", float64(keys)}, Figure{"docs", float64(docs)}, Figure{"ms", float64(ms)})
	}
	if fs, ok := figuresDocument(out.Outputs); ok {
		for _, f := range fs {
			v.Figures = setFigure(v.Figures, f.Key, f.Value)
		}
	}
	if n, ok := modifiedCount(out.Outputs); ok {
		v.Figures = append(v.Figures, Figure{"updated", float64(n)})
	}
	if w := b.Variant.Writes; w != "" {
		n := 0
		for _, c := range sent {
			if w == "*" || c.Target == w {
				n += c.Writes
			}
		}
		v.Figures = setFigure(v.Figures, "writes", float64(n))
	}
	if c := b.Variant.Collection; c != "" {
		data, index, err := p.collectionBytes(ctx, c)
		if err != nil {
			v.Err = err
			return v
		}
		v.Figures = append(v.Figures, Figure{"dataBytes", float64(data)}, Figure{"indexBytes", float64(index)})
	}
	if expr := b.Variant.Figures; expr != "" {
		res, err := p.st.sh.Eval(ctx, "("+expr+")")
		if err != nil {
			v.Err = fmt.Errorf("%s: %w", p.st.say(msgFiguresExpression, nil), err)
			return v
		}
		if len(res.Outputs) > 0 {
			d, ok := res.Outputs[len(res.Outputs)-1].Value.(bson.D)
			if !ok {
				v.Err = errors.New(p.st.say(msgFiguresNotDocument, map[string]any{"Got": res.Outputs[len(res.Outputs)-1].Text}))
				return v
			}
			for _, e := range d {
				n, ok := number(e.Value)
				if !ok {
					continue
				}
				v.Figures = setFigure(v.Figures, e.Key, n)
			}
		}
	}
	return v
}

// figuresDocument reads a variant's last value as figures when it is a
// document of numbers with at least one standard figure key, such as
// { keys: 720, docs: 720, ms: 1 }.
func figuresDocument(outs []shell.Output) ([]Figure, bool) {
	if len(outs) == 0 {
		return nil, false
	}
	d, ok := outs[len(outs)-1].Value.(bson.D)
	if !ok || len(d) == 0 {
		return nil, false
	}
	var fs []Figure
	standard := false
	for _, e := range d {
		n, ok := number(e.Value)
		if !ok {
			return nil, false
		}
		if _, ok := figureLabels[e.Key]; ok {
			standard = true
		}
		fs = append(fs, Figure{e.Key, n})
	}
	return fs, standard
}

func setFigure(fs []Figure, key string, val float64) []Figure {
	for i := range fs {
		if fs[i].Key == key {
			fs[i].Value = val
			return fs
		}
	}
	return append(fs, Figure{key, val})
}

// modifiedCount sums modifiedCount and upsertedCount over write results.
func modifiedCount(outs []shell.Output) (int64, bool) {
	var total int64
	found := false
	for _, o := range outs {
		d, ok := o.Value.(bson.D)
		if !ok {
			continue
		}
		for _, e := range d {
			if e.Key == "modifiedCount" || e.Key == "upsertedCount" {
				if n, ok := number(e.Value); ok {
					total += int64(n)
					found = true
				}
			}
		}
	}
	return total, found
}

func (p *presenter) collectionBytes(ctx context.Context, coll string) (int64, int64, error) {
	var stats bson.D
	err := p.st.client.Database(p.st.database()).RunCommand(ctx, bson.D{{Key: "collStats", Value: coll}}).Decode(&stats)
	if err != nil {
		return 0, 0, fmt.Errorf("collStats %s: %w", coll, err)
	}
	var data, index float64
	for _, e := range stats {
		switch e.Key {
		case "size":
			data, _ = number(e.Value)
		case "totalIndexSize":
			index, _ = number(e.Value)
		}
	}
	return int64(data), int64(index), nil
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x)
	case shell.Int32Value:
		return float64(x), true
	case int:
		return float64(x), true
	}
	return 0, false
}
