//go:build !linux

package lineedit

import (
	"errors"
	"os"
)

// IsTerminal reports whether f is a terminal; without raw-mode support on
// this platform, a character device is treated as one.
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func makeRaw(*os.File) (func(), error) { return nil, errors.New("raw mode unsupported") }
