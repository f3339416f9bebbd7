package lessons

import (
	"bytes"
	"encoding/json"
	"path/filepath"

	"github.com/schemalab/schemalab/lessons/safefile"
)

// ShellHistoryLength is how many inputs a lesson's scratch shell
// remembers: mongosh's own bound on its history file (its historyLength
// setting, 1000 by default).
const ShellHistoryLength = 1000

// maxHistoryFile bounds a history file in bytes as well: a thousand
// pasted seed scripts would otherwise make it as large as they are. The
// oldest inputs go first.
const maxHistoryFile = 1 << 20

// ShellHistoryFile is where the scratch shell of lesson keeps its
// history: beside the progress file, one file per lesson, so that a
// damaged one costs nothing but its own inputs.
func (s *Store) ShellHistoryFile(lesson string) string {
	return filepath.Join(filepath.Dir(s.path), "history", lesson+".json")
}

// ShellHistory is the inputs of lesson's scratch shell, oldest first, as
// mongosh keeps its history across sessions. A file that cannot be read
// as one is no history: the next input starts a new one.
func (s *Store) ShellHistory(lesson string) []string {
	raw, err := safefile.Read(s.ShellHistoryFile(lesson), maxHistoryFile)
	if err != nil {
		return nil
	}
	var h []string
	if json.Unmarshal(raw, &h) != nil {
		return nil
	}
	return h
}

// AppendShellHistory is h with input added, unless it repeats the last
// input, and only its ShellHistoryLength newest inputs.
func AppendShellHistory(h []string, input string) []string {
	if n := len(h); n > 0 && h[n-1] == input {
		return h
	}
	h = append(h, input)
	return h[max(len(h)-ShellHistoryLength, 0):]
}

// AddShellHistory records an input of lesson's scratch shell, unless it
// repeats the last one, keeping the newest ShellHistoryLength inputs
// within maxHistoryFile bytes, and returns the history. The file is
// rewritten atomically.
func (s *Store) AddShellHistory(lesson, input string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := AppendShellHistory(s.ShellHistory(lesson), input)
	// The file is a JSON array, one input a line; inputs are dropped
	// oldest first until it is within its bound.
	lines := make([][]byte, len(h))
	size := len("[\n]\n")
	for i, in := range h {
		raw, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		lines[i] = raw
		size += len(raw) + len(",\n")
	}
	for len(h) > 0 && size > maxHistoryFile {
		size -= len(lines[0]) + len(",\n")
		h, lines = h[1:], lines[1:]
	}
	return h, safefile.Write(s.ShellHistoryFile(lesson), append(append([]byte("[\n"), bytes.Join(lines, []byte(",\n"))...), "\n]\n"...))
}
