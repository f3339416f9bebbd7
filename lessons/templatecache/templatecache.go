// Package templatecache keeps lesson templates (lessons.Template) on disk
// across runs, so that a learner who opens a lesson again, in a new
// process, starts from its states instead of running the code that built
// them: the bucket lesson's 144,000 readings are read back, not generated
// again.
//
// A template is a sealed file (sandbox/sealedfile) "KEY.tpl", and each of
// its states a snapshot file "KEY-STATE.snap" that the embedded server
// writes and reads itself (schemalabSnapshot persist and load). KEY is a
// hash of the lesson's content, this binary and the formats of both
// files, so that a lesson or a schemalab that changed never reads an old
// state. A file that fails its checks (cut short, a flipped byte, another
// version, a symlink) is deleted and the template built again; nothing of
// it is used, and nothing outside the cache directory is touched.
package templatecache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/adrg/xdg"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/sealedfile"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// DefaultLimit bounds the cache's size on disk: the bucket lesson's
// states take about a tenth of it.
const DefaultLimit = 1 << 30

// templateMagic and templateFormat seal the .tpl files; the format
// changes whenever lessons' template encoding does.
const (
	templateMagic  = "schemalab template\n"
	templateFormat = 1
	// maxTemplateFile bounds a .tpl read back: it holds globals and
	// setup outputs, not data.
	maxTemplateFile = 64 << 20
	// staleTemporary is how old a temporary file left by a writer that
	// died must be before pruning removes it.
	staleTemporary = time.Hour
)

// Dir is a cache directory. It is safe for concurrent use.
type Dir struct {
	path  string
	limit int64
	// binary identifies this build of schemalab.
	binary string
	mu     sync.Mutex
}

// DirEnv overrides where the cache is kept (tests use a temp dir).
const DirEnv = "SCHEMALAB_CACHE_DIR"

// DefaultPath is the cache's directory: $SCHEMALAB_CACHE_DIR, else
// schemalab/templates in the user's cache directory ($XDG_CACHE_HOME,
// else ~/.cache, on Linux).
func DefaultPath(getenv func(string) string) string {
	if d := getenv(DirEnv); d != "" {
		return d
	}
	return filepath.Join(xdg.CacheHome, "schemalab", "templates")
}

// New is the cache in directory path, kept within limit bytes.
func New(path string, limit int64) *Dir {
	return &Dir{path: path, limit: limit, binary: binaryIdentity()}
}

// Path is the cache's directory, which the embedded server is given as
// its snapshot directory.
func (d *Dir) Path() string { return d.path }

// binaryIdentity tells this build of schemalab from others: its version
// control revision when it has one, and always the executable's size and
// modification time, which `go build` and `go run` change with the code.
func binaryIdentity() string {
	var b strings.Builder
	if bi, ok := debug.ReadBuildInfo(); ok {
		b.WriteString(bi.Main.Version)
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
				b.WriteString(" " + s.Value)
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		if info, err := os.Stat(exe); err == nil {
			fmt.Fprintf(&b, " %d %d", info.Size(), info.ModTime().UnixNano())
		}
	}
	return b.String()
}

// key names lesson l's files: a hash of everything its states depend on.
func (d *Dir) key(l *lessons.Lesson) (string, error) {
	content, err := json.Marshal(l)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%d %d %q\n", vocab.SnapshotFileFormat, templateFormat, d.binary)
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

func (d *Dir) templatePath(key string) string { return filepath.Join(d.path, key+".tpl") }

// snapshotFile names state's snapshot in the save build made: two
// processes saving the same lesson at once write different files, so a
// template is never read with another build's data (whose ObjectIds its
// globals would not match).
func snapshotFile(key, build, state string) string { return key + "-" + build + "-" + state + ".snap" }

// entry is what a .tpl file holds.
type entry struct {
	Lesson string
	// Snapshots are the states whose snapshot files were written; the
	// template's other states are blocked.
	Snapshots []string
	// Build names the save that wrote them (snapshotFile).
	Build    string
	Template []byte
}

// Cached is a template read from the cache. Its states' snapshots are
// read into the template database when a session first asks for them.
type Cached struct {
	Template *lessons.Template
	dir      *Dir
	key      string
	build    string
	client   *mongo.Client
	mu       sync.Mutex
	loaded   map[string]bool
	// failed is why a snapshot could not be read: the entry is gone, and
	// every later Ensure says so.
	failed error
}

// Load reads lesson l's template, to be kept in database db through
// client (which may write there). It is nil, nil when the cache has none;
// a template file that fails its checks is deleted, with its snapshots,
// and reported as an error.
func (d *Dir) Load(l *lessons.Lesson, client *mongo.Client, db string) (*Cached, error) {
	key, err := d.key(l)
	if err != nil {
		return nil, err
	}
	payload, err := sealedfile.Read(d.templatePath(key), templateMagic, templateFormat, maxTemplateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err == nil {
		var e entry
		if err = gob.NewDecoder(bytes.NewReader(payload)).Decode(&e); err == nil {
			var tpl *lessons.Template
			if tpl, err = lessons.UnmarshalTemplate(l, e.Template); err == nil && tpl.Database() != db {
				err = fmt.Errorf("its database is %s, not %s", tpl.Database(), db)
			}
			if err == nil && !sameStates(tpl.States(), e.Snapshots) {
				err = errors.New("its states and its snapshot files differ")
			}
			if err == nil {
				now := time.Now()
				_ = os.Chtimes(d.templatePath(key), now, now) // the last use, for pruning
				return &Cached{Template: tpl, dir: d, key: key, build: e.Build, client: client, loaded: map[string]bool{}}, nil
			}
		}
	}
	d.remove(key)
	return nil, fmt.Errorf("the saved copy of %s cannot be used and is built again: %w", l.ID, err)
}

func sameStates(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// Ensure reads state's snapshot into the template database unless it is
// there already. A snapshot file that fails its checks deletes the whole
// entry, so that the next run builds the lesson again.
func (c *Cached) Ensure(ctx context.Context, state string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.loaded[state] {
		return nil
	}
	if c.failed != nil {
		return c.failed
	}
	db := c.Template.Database()
	err := c.client.Database(db).RunCommand(ctx, bson.D{{Key: vocab.SnapshotCommand, Value: "load"},
		{Key: "db", Value: db}, {Key: "name", Value: state}, {Key: "file", Value: snapshotFile(c.key, c.build, state)}}).Err()
	if err != nil {
		err = fmt.Errorf("the saved copy of %s: %w", c.Template.Lesson().ID, err)
		if ctx.Err() == nil {
			c.dir.remove(c.key)
			c.failed = err
		}
		return err
	}
	c.loaded[state] = true
	return nil
}

// Save writes tpl, whose snapshots are on the server client reaches, to
// the cache, then prunes the cache to its limit. A state the server
// cannot write to a file (its data includes a time-series collection) is
// kept blocked: a session reaches it by running the lesson's code.
func (d *Dir) Save(ctx context.Context, client *mongo.Client, tpl *lessons.Template) error {
	l := tpl.Lesson()
	key, err := d.key(l)
	if err != nil {
		return err
	}
	db := tpl.Database()
	started := time.Now()
	build := strconv.FormatInt(started.UnixNano()%(1<<40), 36) + strconv.Itoa(os.Getpid())
	var written, skipped []string
	for _, state := range tpl.States() {
		err := client.Database(db).RunCommand(ctx, bson.D{{Key: vocab.SnapshotCommand, Value: "persist"},
			{Key: "db", Value: db}, {Key: "name", Value: state}, {Key: "file", Value: snapshotFile(key, build, state)}}).Err()
		var ce mongo.CommandError
		switch {
		case err == nil:
			written = append(written, state)
		case errors.As(err, &ce) && ce.Code == mongoerr.IllegalOperation:
			skipped = append(skipped, state)
		default:
			d.remove(key)
			return fmt.Errorf("save the template of %s: %w", l.ID, err)
		}
	}
	kept := tpl.Without(skipped, "its data is not kept on disk (a time-series collection)")
	data, err := kept.MarshalBinary()
	if err == nil {
		var buf bytes.Buffer
		if err = gob.NewEncoder(&buf).Encode(entry{Lesson: l.ID, Snapshots: written, Build: build, Template: data}); err == nil {
			err = sealedfile.Write(d.templatePath(key), templateMagic, templateFormat, buf.Bytes())
		}
	}
	if err != nil {
		d.remove(key)
		return fmt.Errorf("save the template of %s: %w", l.ID, err)
	}
	d.removeOtherBuilds(key, build, started)
	d.prune(key)
	return nil
}

// removeOtherBuilds deletes the snapshot files of key that an earlier
// save wrote (a save under way in another process writes newer ones).
func (d *Dir) removeOtherBuilds(key, build string, before time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	entries, _ := os.ReadDir(d.path)
	for _, e := range entries {
		name := e.Name()
		if entryKey(name) != key || !strings.HasSuffix(name, ".snap") || strings.HasPrefix(name, key+"-"+build+"-") {
			continue
		}
		if info, err := e.Info(); err == nil && info.ModTime().Before(before) {
			_ = os.Remove(filepath.Join(d.path, name))
		}
	}
}

// remove deletes the files of one entry.
func (d *Dir) remove(key string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	entries, _ := os.ReadDir(d.path)
	for _, e := range entries {
		if entryKey(e.Name()) == key {
			_ = os.Remove(filepath.Join(d.path, e.Name()))
		}
	}
}

// entryKey is the key of a cache file's name ("" for a name the cache
// did not write).
func entryKey(name string) string {
	if i := strings.IndexAny(name, "-."); i == 32 {
		return name[:32]
	}
	return ""
}

// prune deletes the least recently used entries until the cache is within
// its limit (keep, just written, stays), and temporary files that a
// writer which died left behind.
func (d *Dir) prune(keep string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	entries, err := os.ReadDir(d.path)
	if err != nil {
		return
	}
	type group struct {
		size int64
		used time.Time
	}
	groups := map[string]*group{}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if strings.Contains(e.Name(), ".tmp-") && time.Since(info.ModTime()) > staleTemporary {
			_ = os.Remove(filepath.Join(d.path, e.Name()))
			continue
		}
		k := entryKey(e.Name())
		if k == "" {
			continue
		}
		g := groups[k]
		if g == nil {
			g = &group{}
			groups[k] = g
		}
		g.size += info.Size()
		if strings.HasSuffix(e.Name(), ".tpl") {
			g.used = info.ModTime()
		}
	}
	keys := make([]string, 0, len(groups))
	var total int64
	for k, g := range groups {
		keys = append(keys, k)
		total += g.size
	}
	// Newest first; an entry without a .tpl (a save under way, or one
	// that failed) counts as oldest.
	slices.SortFunc(keys, func(a, b string) int { return groups[b].used.Compare(groups[a].used) })
	for i := len(keys) - 1; i >= 0 && total > d.limit; i-- {
		if keys[i] == keep {
			continue
		}
		for _, e := range entries {
			if entryKey(e.Name()) == keys[i] {
				_ = os.Remove(filepath.Join(d.path, e.Name()))
			}
		}
		total -= groups[keys[i]].size
	}
}

// Clear deletes every file of the cache (`schemalab reset --all`).
func Clear(path string) error {
	entries, err := os.ReadDir(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if entryKey(e.Name()) != "" {
			if err := os.Remove(filepath.Join(path, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}
