package lesson

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/fsnotify/fsnotify"
	"github.com/schemalab/schemalab/lessons/safefile"
)

// watchMode is how a watched exercise file is noticed to change.
type watchMode int

const (
	// watchEvents uses the file system's change events (fsnotify).
	watchEvents watchMode = iota
	// watchPolling looks at the file's modification time twice a second,
	// where events are not to be had (too many watches, a network or
	// unsupported file system).
	watchPolling
	// watchManual checks the file when the learner presses enter: rustlings'
	// --manual-run, where the file cannot even be looked at.
	watchManual
)

// debounce is how long a burst of events (an editor writing, renaming and
// chmod-ing) settles before the check runs once.
const debounce = 80 * time.Millisecond

const pollEvery = 500 * time.Millisecond

// fileChanged is the watched file's new content.
type fileChanged struct {
	gen  int
	text string
	err  error
}

// pollTick asks a polling watcher to look at the file again.
type pollTick struct{ gen int }

// watcher follows one exercise file, as rustlings' watch mode does:
// every save re-runs the check, events are debounced, and those that
// arrive while a check runs are dropped by the page.
type watcher struct {
	path   string
	gen    int
	mode   watchMode
	reason string
	fs     *fsnotify.Watcher
	done   chan struct{}
	stat   os.FileInfo
}

// startWatch writes code to path and starts watching it.
func startWatch(path, code string, gen int) *watcher {
	w := &watcher{path: path, gen: gen, done: make(chan struct{})}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.mode, w.reason = watchManual, err.Error()
		return w
	}
	if err := os.WriteFile(path, []byte(strings.TrimRight(code, "\n")+"\n"), 0o644); err != nil {
		w.mode, w.reason = watchManual, err.Error()
		return w
	}
	w.stat, _ = os.Stat(path)
	fw, err := fsnotify.NewWatcher()
	if err == nil {
		// The directory, not the file: editors save by writing a new file
		// and renaming it over the old one, which ends a watch on the file.
		if err = fw.Add(filepath.Dir(path)); err != nil {
			_ = fw.Close()
		}
	}
	if err != nil {
		w.mode, w.reason = watchPolling, err.Error()
		return w
	}
	w.fs = fw
	return w
}

// next waits for the file's next change.
func (w *watcher) next() tea.Cmd {
	switch w.mode {
	case watchEvents:
		fw, done, gen := w.fs, w.done, w.gen
		return func() tea.Msg { return waitEvent(fw, done, w.path, gen) }
	case watchPolling:
		gen := w.gen
		return tea.Tick(pollEvery, func(time.Time) tea.Msg { return pollTick{gen: gen} })
	}
	return nil
}

func waitEvent(fw *fsnotify.Watcher, done chan struct{}, path string, gen int) tea.Msg {
	name := filepath.Clean(path)
	for {
		select {
		case <-done:
			return nil
		case err, ok := <-fw.Errors:
			if !ok {
				return nil
			}
			return fileChanged{gen: gen, err: err}
		case ev, ok := <-fw.Events:
			if !ok {
				return nil
			}
			if filepath.Clean(ev.Name) != name || !ev.Has(fsnotify.Write|fsnotify.Create|fsnotify.Rename) {
				continue
			}
			settle(fw, done, name)
			b, err := safefile.Read(path, maxWatchFile)
			if errors.Is(err, os.ErrNotExist) {
				continue // renamed away mid-save; the new file's event follows
			}
			return fileChanged{gen: gen, text: string(b), err: err}
		}
	}
}

// maxWatchFile bounds the watched exercise file: only a regular file of
// an exercise's size is read, so that a FIFO or a device in its place
// neither hangs the course nor fills its memory.
const maxWatchFile = 1 << 20

// settle swallows the rest of a burst of events on the file.
func settle(fw *fsnotify.Watcher, done chan struct{}, name string) {
	t := time.NewTimer(debounce)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			return
		case ev, ok := <-fw.Events:
			if !ok {
				return
			}
			if filepath.Clean(ev.Name) == name {
				t.Reset(debounce)
			}
		}
	}
}

// poll looks at the file; a change in time or size is a save.
func (w *watcher) poll() (fileChanged, bool) {
	st, err := os.Stat(w.path)
	if err != nil {
		return fileChanged{}, false
	}
	if w.stat != nil && st.ModTime().Equal(w.stat.ModTime()) && st.Size() == w.stat.Size() {
		return fileChanged{}, false
	}
	w.stat = st
	b, err := safefile.Read(w.path, maxWatchFile)
	return fileChanged{gen: w.gen, text: string(b), err: err}, true
}

// read is the file now, for a manual run.
func (w *watcher) read() (string, error) {
	b, err := safefile.Read(w.path, maxWatchFile)
	return string(b), err
}

// stop ends the watch; its goroutine returns.
func (w *watcher) stop() {
	close(w.done)
	if w.fs != nil {
		_ = w.fs.Close()
	}
}

// exerciseFile is where watch mode keeps the exercise's code.
func (p *Page) exerciseFile() string {
	st := p.current()
	if p.prog.store != nil {
		return p.prog.store.ExerciseFile(p.lesson.ID, st.ID)
	}
	dir := p.exDir
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "schemalab-exercises")
	}
	return filepath.Join(dir, p.lesson.ID, st.ID+".js")
}

// toggleWatch starts or stops watch mode.
func (p *Page) toggleWatch() tea.Cmd {
	if p.editor == nil || p.editor.runEdit {
		return nil
	}
	if p.watch != nil {
		path := p.watch.path
		p.stopWatch()
		p.layout()
		return status(p.T(msgWatchStopped, map[string]any{"Path": path}))
	}
	p.editor.Blur()
	return p.restartWatch()
}

func (p *Page) restartWatch() tea.Cmd {
	if p.watch != nil {
		p.watch.stop()
	}
	p.watchGen++
	p.watch = startWatch(p.exerciseFile(), p.editor.Value(), p.watchGen)
	p.editor.setWatching(p.watchLine())
	p.layout()
	return p.watch.next()
}

func (p *Page) stopWatch() {
	if p.watch != nil {
		p.watch.stop()
		p.watch = nil
	}
	if p.editor != nil {
		p.editor.setWatching("")
	}
}

// watchLine says, over the editor's code, which file is watched and how.
func (p *Page) watchLine() string {
	w := p.watch
	data := map[string]any{"Path": w.path, "Reason": w.reason, "Key": p.KeyMap.Watch.Help().Key}
	switch w.mode {
	case watchPolling:
		return p.T(msgPolling, data)
	case watchManual:
		return p.T(msgManual, data)
	}
	return p.T(msgWatching, data)
}

// watchEvent runs the check for a save of the watched file. A save while
// a check runs is not queued: the check after it sees the file as the
// learner saved it last, and the watch goes on once it has run.
func (p *Page) watchEvent(msg tea.Msg) tea.Cmd {
	if p.editor == nil || p.watch == nil {
		return nil
	}
	w := p.watch
	var ch fileChanged
	switch m := msg.(type) {
	case pollTick:
		if m.gen != w.gen {
			return nil
		}
		c, changed := w.poll()
		if !changed {
			return w.next()
		}
		ch = c
	case fileChanged:
		ch = m
	}
	if ch.gen != w.gen {
		return nil
	}
	if ch.err != nil {
		return tea.Batch(status(p.T(msgWatchFailed, map[string]any{"Path": w.path, "Err": ch.err.Error()})), w.next())
	}
	if _, _, running := p.runs.running(); running {
		return w.next()
	}
	code := strings.TrimRight(ch.text, "\n")
	p.editor.SetValue(code)
	p.saveDraft()
	p.layout()
	cmd := p.checkCode(code)
	if cmd == nil {
		return w.next()
	}
	return cmd
}
