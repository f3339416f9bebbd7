// Package lineedit is a small line editor for the interactive shell:
// a prompt, cursor movement, and history recalled with the arrow keys.
// It needs no dependency beyond the terminal's raw mode.
package lineedit

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// ErrInterrupted is returned by ReadLine when the user presses Ctrl+C.
var ErrInterrupted = errors.New("interrupted")

const maxHistory = 1000

// Editor reads lines from a terminal (or, when in is not one, plain lines).
type Editor struct {
	in      *os.File
	out     io.Writer
	reader  *bufio.Reader
	history []string
}

// New makes an editor reading in and echoing to out.
func New(in *os.File, out io.Writer) *Editor {
	return &Editor{in: in, out: out, reader: bufio.NewReader(in)}
}

// AddHistory records an entry (multi-line entries are kept whole).
func (e *Editor) AddHistory(line string) {
	if line == "" || (len(e.history) > 0 && e.history[len(e.history)-1] == line) {
		return
	}
	e.history = append(e.history, line)
	if len(e.history) > maxHistory {
		e.history = e.history[len(e.history)-maxHistory:]
	}
}

// LoadHistory reads entries saved by SaveHistory; errors are ignored
// because history is a convenience.
func (e *Editor) LoadHistory(path string) {
	if path == "" {
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return
	}
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" {
			e.AddHistory(strings.ReplaceAll(l, `\n`, "\n"))
		}
	}
}

// SaveHistory writes the history, one entry per line.
func (e *Editor) SaveHistory(path string) {
	if path == "" {
		return
	}
	_ = os.MkdirAll(filepath.Dir(path), 0o700)
	var sb strings.Builder
	for _, h := range e.history {
		sb.WriteString(strings.ReplaceAll(h, "\n", `\n`))
		sb.WriteByte('\n')
	}
	_ = os.WriteFile(path, []byte(sb.String()), 0o600)
}

// ReadLine shows prompt and returns the line typed, without its newline.
// It returns io.EOF on Ctrl+D at an empty line.
func (e *Editor) ReadLine(prompt string) (string, error) {
	restore, err := makeRaw(e.in)
	if err != nil {
		// Not a terminal: read a plain line.
		io.WriteString(e.out, prompt)
		line, err := e.reader.ReadString('\n')
		if err != nil && line == "" {
			return "", io.EOF
		}
		return strings.TrimRight(line, "\r\n"), nil
	}
	defer restore()
	return e.edit(prompt)
}

func (e *Editor) edit(prompt string) (string, error) {
	var buf []rune
	pos := 0
	histIdx := len(e.history)
	saved := ""
	redraw := func() {
		io.WriteString(e.out, "\r\x1b[K"+prompt+string(buf))
		if back := len(buf) - pos; back > 0 {
			io.WriteString(e.out, "\x1b["+itoa(back)+"D")
		}
	}
	redraw()
	for {
		r, _, err := e.reader.ReadRune()
		if err != nil {
			return "", io.EOF
		}
		switch r {
		case '\r', '\n':
			io.WriteString(e.out, "\r\n")
			return string(buf), nil
		case 3: // Ctrl+C
			io.WriteString(e.out, "^C\r\n")
			return "", ErrInterrupted
		case 4: // Ctrl+D
			if len(buf) == 0 {
				io.WriteString(e.out, "\r\n")
				return "", io.EOF
			}
			if pos < len(buf) {
				buf = append(buf[:pos], buf[pos+1:]...)
			}
		case 127, 8: // Backspace
			if pos > 0 {
				buf = append(buf[:pos-1], buf[pos:]...)
				pos--
			}
		case 1: // Ctrl+A
			pos = 0
		case 5: // Ctrl+E
			pos = len(buf)
		case 11: // Ctrl+K
			buf = buf[:pos]
		case 21: // Ctrl+U
			buf = buf[pos:]
			pos = 0
		case 27: // escape sequence
			seq := e.readEscape()
			switch seq {
			case "[A": // up
				if histIdx > 0 {
					if histIdx == len(e.history) {
						saved = string(buf)
					}
					histIdx--
					buf = []rune(e.history[histIdx])
					pos = len(buf)
				}
			case "[B": // down
				if histIdx < len(e.history) {
					histIdx++
					if histIdx == len(e.history) {
						buf = []rune(saved)
					} else {
						buf = []rune(e.history[histIdx])
					}
					pos = len(buf)
				}
			case "[C":
				if pos < len(buf) {
					pos++
				}
			case "[D":
				if pos > 0 {
					pos--
				}
			case "[H", "OH", "[1~":
				pos = 0
			case "[F", "OF", "[4~":
				pos = len(buf)
			case "[3~":
				if pos < len(buf) {
					buf = append(buf[:pos], buf[pos+1:]...)
				}
			}
		case '\t':
			buf = insert(buf, pos, []rune("  "))
			pos += 2
		default:
			if r >= 32 && r != utf8.RuneError {
				buf = insert(buf, pos, []rune{r})
				pos++
			}
		}
		redraw()
	}
}

func (e *Editor) readEscape() string {
	var sb strings.Builder
	for range 4 {
		r, _, err := e.reader.ReadRune()
		if err != nil {
			break
		}
		sb.WriteRune(r)
		if (r >= 'A' && r <= 'Z') || r == '~' {
			break
		}
	}
	return sb.String()
}

func insert(buf []rune, pos int, rs []rune) []rune {
	out := make([]rune, 0, len(buf)+len(rs))
	out = append(out, buf[:pos]...)
	out = append(out, rs...)
	return append(out, buf[pos:]...)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}
