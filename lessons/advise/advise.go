// Package advise turns the course's measurements on a learner's own
// database: which patterns it needs (outlier, bucket, tree, …) and which
// anti-patterns it shows, each with the figures that justify it and the
// lesson that explains it.
//
// It only reads. Its client runs under the guard's read-only policy
// (sandbox/readonly.go), so no bug here can write, and every command
// carries maxTimeMS. The heavy work (array lengths, histograms, groupings)
// runs on the server as aggregations that return figures, never
// documents, and a collection larger than Options.Sample is analysed on
// $sample.
package advise

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox"
)

// The patterns a finding may name.
const (
	PatternOutlier          = "outlier"
	PatternBucket           = "bucket"
	PatternTree             = "tree"
	PatternComputed         = "computed"
	PatternSubset           = "subset"
	PatternUnusedIndex      = "unused-index"
	PatternBloatedDocuments = "bloated-documents"
	PatternManyCollections  = "many-collections"
	PatternUnboundedArray   = "unbounded-array"
)

// The lessons findings send the learner to, by id.
const (
	lessonOutlier      = "outlier"
	lessonBucket       = "bucket"
	lessonComputed     = "computed"
	lessonTree         = "tree"
	lessonSubset       = "subset"
	lessonAntiPatterns = "anti-patterns"
)

// Confidence says how sure a finding is.
const (
	High   = "high"
	Medium = "medium"
	Low    = "low"
)

// DefaultSample is --sample's default: larger collections are analysed
// on a $sample of this many documents.
const DefaultSample = 100_000

// DefaultMaxTime bounds each command advise sends (maxTimeMS).
const DefaultMaxTime = 60 * time.Second

// Options say what to analyse.
type Options struct {
	Database string
	// Collections limits the analysis to these; none means every
	// collection of the database.
	Collections []string
	// Sample is the largest collection analysed whole; 0 means
	// DefaultSample.
	Sample int64
	// MaxTime bounds each command; 0 means DefaultMaxTime.
	MaxTime time.Duration
	// Progress, when set, is told when each collection starts.
	Progress func(Progress)
}

// Progress is where an analysis is.
type Progress struct {
	Collection   string
	Index, Total int // Index counts from 1
}

// Report is the analysis of one database.
type Report struct {
	Database string `json:"database"`
	Server   string `json:"server"`
	// Sampled lists the collections analysed on $sample.
	Sampled  []Sampled `json:"sampled"`
	Findings []Finding `json:"findings"`
	// Notes say what could not be seen, and why.
	Notes []string `json:"notes,omitempty"`
	// Interrupted: the analysis was stopped (ctrl+c) or a command
	// failed; the findings are what was found until then.
	Interrupted bool `json:"interrupted,omitempty"`
}

// Sampled is a collection analysed on a $sample.
type Sampled struct {
	Collection string `json:"collection"`
	Documents  int64  `json:"documents"`
	Sample     int64  `json:"sample"`
}

// Finding is one pattern advise recommends, or one anti-pattern it sees.
type Finding struct {
	Pattern    string   `json:"pattern"`
	Collection string   `json:"collection"`
	Field      string   `json:"field,omitempty"`
	Summary    string   `json:"summary"`
	Evidence   Evidence `json:"evidence"`
	Lesson     string   `json:"lesson"`
	Confidence string   `json:"confidence"`
}

// Evidence is what a finding rests on.
type Evidence struct {
	Figures []Figure `json:"figures"`
	// Histogram is a distribution ($bucket's counts), drawn as the
	// lessons draw theirs.
	Histogram []lessons.Bar `json:"histogram,omitempty"`
	// Threshold says which rule the figures crossed, and Reference is
	// the manual's page for the pattern or anti-pattern.
	Threshold string `json:"threshold"`
	Reference string `json:"reference"`
}

// Figure is one named figure: a number, a date or a word.
type Figure struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// Source is a server advise reads: how to open a client under the
// guard's read-only policy, and how the server describes itself.
// FromBackend makes one of a backend; the TUI takes the one cmd/schemalab
// hands it with the lessons' sandbox, made by FromBackend too.
type Source struct {
	ReadOnly func(ctx context.Context) (*mongo.Client, error)
	Server   string
}

// FromBackend is be as advise reads it: through clients under the
// read-only policy (sandbox.ClientOptions.ReadOnly), so that it may read
// any database the server lets it.
func FromBackend(be *sandbox.Backend) Source {
	return Source{
		ReadOnly: func(ctx context.Context) (*mongo.Client, error) {
			return be.NewClient(ctx, sandbox.ClientOptions{ReadOnly: true})
		},
		Server: be.Status(),
	}
}

// Dial connects to the server of uri, a MongoDB connection string, for
// advise alone: its Source reads through the read-only policy, so no
// prefix confines it. close ends the connection.
func Dial(ctx context.Context, uri string) (src Source, close func() error, err error) {
	be, err := sandbox.Open(ctx, sandbox.Config{URI: uri, Kind: sandbox.KindURI})
	if err != nil {
		return Source{}, nil, err
	}
	return FromBackend(be), be.Close, nil
}

// Databases lists the databases the client may read (for the question
// "which one?"), leaving out the server's own.
func Databases(ctx context.Context, src Source, maxTime time.Duration) ([]string, error) {
	client, err := src.ReadOnly(ctx)
	if err != nil {
		return nil, err
	}
	defer client.Disconnect(context.Background())
	r := reader{maxTime: orDefault(maxTime, DefaultMaxTime)}
	ctx, cancel := r.bound(ctx)
	defer cancel()
	names, err := client.ListDatabaseNames(ctx, bson.D{}, options.ListDatabases().SetAuthorizedDatabases(true))
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(names, func(n string) bool { return n == "admin" || n == "local" || n == "config" }), nil
}

// Run analyses o.Database. On ctrl+c (ctx cancelled) or a failed command
// it returns what it found so far, marked Interrupted, with the error.
func Run(ctx context.Context, src Source, o Options) (*Report, error) {
	rep := &Report{Database: o.Database, Server: src.Server, Findings: []Finding{}, Sampled: []Sampled{}}
	client, err := src.ReadOnly(ctx)
	if err != nil {
		return rep, err
	}
	defer client.Disconnect(context.Background())
	r := reader{db: client.Database(o.Database), maxTime: orDefault(o.MaxTime, DefaultMaxTime), l: locale.English()}
	sample := o.Sample
	if sample <= 0 {
		sample = DefaultSample
	}
	err = analyse(ctx, r, o, sample, rep)
	if err != nil {
		rep.Interrupted = true
		if ctx.Err() != nil {
			err = context.Cause(ctx)
		}
	}
	return rep, err
}

func analyse(ctx context.Context, r reader, o Options, sample int64, rep *Report) error {
	infos, err := r.collections(ctx)
	if err != nil {
		return err
	}
	if len(infos) == 0 && len(o.Collections) == 0 {
		return fmt.Errorf("database %q has no collections", o.Database)
	}
	if f, ok := manyCollections(infos); ok {
		rep.Findings = append(rep.Findings, f)
	}
	var todo []collInfo
	for _, name := range o.Collections {
		i := slices.IndexFunc(infos, func(c collInfo) bool { return c.Name == name })
		if i < 0 {
			return fmt.Errorf("no collection %q in database %q", name, o.Database)
		}
		todo = append(todo, infos[i])
	}
	if len(o.Collections) == 0 {
		// Views and the server's own collections hold nothing of the
		// learner's schema.
		todo = slices.DeleteFunc(slices.Clone(infos), func(c collInfo) bool {
			return c.Type != "collection" && c.Type != "timeseries" || strings.HasPrefix(c.Name, "system.")
		})
	}
	for i, info := range todo {
		if o.Progress != nil {
			o.Progress(Progress{Collection: info.Name, Index: i + 1, Total: len(todo)})
		}
		c, err := profile(ctx, r, info, sample)
		if err != nil {
			if !refused(ctx, err) {
				return fmt.Errorf("%s: %w", info.Name, err)
			}
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: not analysed: the server refused a read (%v)", info.Name, err))
			continue
		}
		if c.sampled {
			rep.Sampled = append(rep.Sampled, Sampled{Collection: c.name, Documents: c.count, Sample: sample})
		}
		for _, d := range detectors() {
			fs, note, err := d.run(ctx, r, c)
			if err != nil {
				if !refused(ctx, err) {
					return fmt.Errorf("%s: %w", info.Name, err)
				}
				// One refused read (a user without the indexStats
				// privilege, a view, a command over its maxTimeMS) costs
				// one detector, not the report.
				note = fmt.Sprintf("%s: %s not checked: the server refused a read (%v)", c.name, d.name, err)
			}
			rep.Findings = append(rep.Findings, fs...)
			if note != "" {
				rep.Notes = append(rep.Notes, note)
			}
		}
	}
	note, fs, err := computed(ctx, r, infos)
	if err != nil {
		return err
	}
	rep.Findings = append(rep.Findings, fs...)
	if note != "" {
		rep.Notes = append(rep.Notes, note)
	}
	return nil
}

// detector looks at one collection: its findings, a note on what it
// could not see, or the error of a failed command.
type detector func(context.Context, reader, *collection) ([]Finding, string, error)

// namedDetector is a detector with what it looks for, for notes.
type namedDetector struct {
	name string
	run  detector
}

// detectors run in the order of priority, so that an interrupted
// run has the most useful findings first. unusedIndexes comes first of
// all: advise's own reads must not count as uses of an index.
func detectors() []namedDetector {
	return []namedDetector{{"unused-index", unusedIndexes}, {"outlier and unbounded-array", arrays}, {"tree", trees},
		{"bucket", buckets}, {"bloated-documents", bloated}}
}

// refused reports whether err is the server's answer to one command,
// rather than the end of the run (ctrl+c, a lost connection).
func refused(ctx context.Context, err error) bool {
	var ce mongo.CommandError
	return ctx.Err() == nil && errors.As(err, &ce)
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// reader sends advise's commands, each under its own deadline, which the
// driver turns into maxTimeMS (the guard refuses a read without one).
type reader struct {
	db      *mongo.Database
	maxTime time.Duration
	// l writes the figures in summaries, in English, as the lessons do.
	l *locale.Localizer
}

func (r reader) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, r.maxTime)
}

// aggregate runs pipeline on coll and decodes every result into out.
func (r reader) aggregate(ctx context.Context, coll string, pipeline any, out any) error {
	ctx, cancel := r.bound(ctx)
	defer cancel()
	// Collection.Aggregate leaves maxTimeMS off, since the caller manages
	// the cursor (DRIVERS-2722); as a command, the driver sets it from the
	// deadline, as on every other read.
	cur, err := r.db.RunCommandCursor(ctx, bson.D{{Key: "aggregate", Value: coll}, {Key: "pipeline", Value: pipeline},
		{Key: "cursor", Value: bson.D{}}})
	if err != nil {
		return err
	}
	return cur.All(ctx, out)
}

// one runs a pipeline whose answer is at most one document (a $group by
// null), decoding it into out; no document leaves out untouched.
func (r reader) one(ctx context.Context, coll string, pipeline any, out any) error {
	var docs []bson.Raw
	if err := r.aggregate(ctx, coll, pipeline, &docs); err != nil {
		return err
	}
	if len(docs) == 0 {
		return nil
	}
	return bson.Unmarshal(docs[0], out)
}

type collInfo struct {
	Name string `bson:"name"`
	Type string `bson:"type"`
}

// collections lists the database's collections, by name, without the
// server's system collections.
func (r reader) collections(ctx context.Context) ([]collInfo, error) {
	ctx, cancel := r.bound(ctx)
	defer cancel()
	cur, err := r.db.ListCollections(ctx, bson.D{}, options.ListCollections().SetNameOnly(true).SetAuthorizedCollections(true))
	if err != nil {
		return nil, err
	}
	var infos []collInfo
	if err := cur.All(ctx, &infos); err != nil {
		return nil, err
	}
	slices.SortFunc(infos, func(a, b collInfo) int { return strings.Compare(a.Name, b.Name) })
	return infos, nil
}
