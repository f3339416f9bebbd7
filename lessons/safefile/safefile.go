// Package safefile reads the files schemalab is told to read (progress, a
// watched exercise, key and password files) only if they are what they
// claim to be: a regular file of bounded size. A FIFO in a file's place
// would block the reader forever, /dev/zero would fill its memory, and a
// directory or a device is no file of ours either. It writes the files
// schemalab keeps (progress, shell history) atomically.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/schemalab/schemalab/sandbox/sealedfile"
)

// ErrNotRegular and ErrTooLarge are what Read's errors match (errors.Is).
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("too large")
)

// Error is a file Read would not read.
type Error struct {
	Path string
	// Kind is what the file is instead ("a FIFO", "a directory", ...);
	// Size and Limit are set for a file over the limit.
	Kind        string
	Size, Limit int64
}

func (e *Error) Error() string {
	if e.Kind == "" {
		return fmt.Sprintf("%s is %d bytes, more than the %d it may be", e.Path, e.Size, e.Limit)
	}
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, e.Kind)
}

func (e *Error) Is(target error) bool {
	return e.Kind != "" && target == ErrNotRegular || e.Kind == "" && target == ErrTooLarge
}

// Read returns the contents of path if it is a regular file (after
// symbolic links) of at most limit bytes. It opens the file without
// blocking (a FIFO with no writer does not hold it up), checks what it is
// on the open file, and reads at most limit bytes of it. A missing file
// is fs.ErrNotExist, as os.ReadFile says.
func Read(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if kind := kindOf(info.Mode()); kind != "" {
		return nil, &Error{Path: path, Kind: kind}
	}
	if info.Size() > limit {
		return nil, &Error{Path: path, Size: info.Size(), Limit: limit}
	}
	// The file may grow while it is read.
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &Error{Path: path, Size: int64(len(data)), Limit: limit}
	}
	return data, nil
}

// kindOf names what a file that is not regular is; "" for a regular one.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// Write replaces path's contents with data atomically
// (sealedfile.WriteAtomic). The directory is made if it is missing.
func Write(path string, data []byte) error { return sealedfile.WriteAtomic(path, 0o755, data) }
