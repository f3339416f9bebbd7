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

// VariantResult is one side of a comparison.
type VariantResult struct {
	Label   string
	Block   *Block
	Result  shell.Result
	Err     error
	Figures []Figure
}

// Figure is one named number of a comparison variant.
type Figure struct {
	// Key is keys, docs, ms, dataBytes, indexBytes, updated, or the name
	// a figures expression gave.
	Key   string
	Value float64
}

// Figure returns the value of key among v's figures.
func (v *VariantResult) Figure(key string) (float64, bool) {
	for _, f := range v.Figures {
		if f.Key == key {
			return f.Value, true
		}
	}
	return 0, false
}

// runVariant runs one comparison variant and gathers its figures: keys and
// documents examined and milliseconds from the explain output, documents
// updated from write results, writes sent from the commands the variant
// sent (when it names a collection), bytes from collStats, and any figures
// expression the author gave.
func (r *Runner) runVariant(ctx context.Context, b *Block, width int) VariantResult {
	v := VariantResult{Label: b.Variant.Label, Block: b}
	var sent []Command
	if b.Variant.Writes != "" {
		// Record the variant's commands, keeping whatever recording was
		// under way (and its log) as it was.
		was := r.rec.pause()
		r.rec.resume(true)
		from := r.rec.count()
		v.Result, v.Err = r.eval(ctx, width, b.Text)
		sent = r.rec.since(from)
		r.rec.resume(was)
	} else {
		v.Result, v.Err = r.eval(ctx, width, b.Text)
	}
	if v.Err != nil {
		return v
	}
	if len(v.Result.Metrics) > 0 {
		var keys, docs, ms int64
		for _, m := range v.Result.Metrics {
			keys += m.KeysExamined
			docs += m.DocsExamined
			ms += m.Millis
		}
		v.Figures = append(v.Figures, Figure{"keys", float64(keys)}, Figure{"docs", float64(docs)}, Figure{"ms", float64(ms)})
	}
	if fs, ok := figuresDocument(v.Result.Outputs); ok {
		for _, f := range fs {
			v.Figures = setFigure(v.Figures, f.Key, f.Value)
		}
	}
	if n, ok := modifiedCount(v.Result.Outputs); ok {
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
		data, index, err := r.collectionBytes(ctx, c)
		if err != nil {
			v.Err = err
			return v
		}
		v.Figures = append(v.Figures, Figure{"dataBytes", float64(data)}, Figure{"indexBytes", float64(index)})
	}
	if expr := b.Variant.Figures; expr != "" {
		res, err := r.sh.Eval(ctx, "("+expr+")")
		if err != nil {
			v.Err = fmt.Errorf("%s: %w", r.say(msgFiguresExpression, nil), err)
			return v
		}
		if len(res.Outputs) > 0 {
			d, ok := res.Outputs[len(res.Outputs)-1].Value.(bson.D)
			if !ok {
				v.Err = errors.New(r.say(msgFiguresNotDocument, map[string]any{"Got": res.Outputs[len(res.Outputs)-1].Text}))
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

func (r *Runner) collectionBytes(ctx context.Context, coll string) (int64, int64, error) {
	var stats bson.D
	err := r.client.Database(r.Database()).RunCommand(ctx, bson.D{{Key: "collStats", Value: coll}}).Decode(&stats)
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
