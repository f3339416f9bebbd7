// Package sealedfile writes files that schemalab reads back later and
// must never trust blindly (the embedded server's snapshot files, the
// lesson template cache): each holds a magic string, a format version,
// its payload's length and the payload's SHA-256. Read refuses a file
// that is missing any of them, that is cut short or grown, whose bytes
// changed, or that is not a regular file of its own (a symlink could
// point anywhere).
package sealedfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Corrupt is a file Read will not use, and why.
type Corrupt struct {
	Path   string
	Reason string
}

func (e *Corrupt) Error() string {
	return fmt.Sprintf("%s is not usable: %s", filepath.Base(e.Path), e.Reason)
}

func headerLen(magic string) int { return len(magic) + 4 + 8 + sha256.Size }

// Write replaces path with a sealed file of payload (WriteAtomic); the
// directory is made (0700) if it is missing.
func Write(path, magic string, version uint32, payload []byte) error {
	head := make([]byte, 0, headerLen(magic))
	head = append(head, magic...)
	head = binary.LittleEndian.AppendUint32(head, version)
	head = binary.LittleEndian.AppendUint64(head, uint64(len(payload)))
	sum := sha256.Sum256(payload)
	head = append(head, sum[:]...)

	return WriteAtomic(path, 0o700, head, payload)
}

// WriteAtomic replaces path's contents with parts, one after the other,
// atomically: a temporary file beside it (named path's base, ".tmp-" and
// a random suffix), synced, then renamed over it. A reader sees the old
// contents or the new, never half of them, even if the process dies
// mid-write. The directory is made with dirPerm if it is missing.
func WriteAtomic(path string, dirPerm fs.FileMode, parts ...[]byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	for _, p := range parts {
		if err == nil {
			_, err = tmp.Write(p)
		}
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}

// Read returns the payload of the sealed file at path, written by Write
// with the same magic and version and at most limit bytes long. A missing
// file is fs.ErrNotExist; any other refusal is a *Corrupt.
func Read(path, magic string, version uint32, limit int64) ([]byte, error) {
	corrupt := func(why string) error { return &Corrupt{Path: path, Reason: why} }
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, corrupt(err.Error())
	}
	if !info.Mode().IsRegular() {
		return nil, corrupt("it is not a regular file")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, corrupt(err.Error())
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil || !os.SameFile(info, opened) {
		return nil, corrupt("it changed while it was opened")
	}
	hl := int64(headerLen(magic))
	if opened.Size() < hl || opened.Size() > limit {
		return nil, corrupt(fmt.Sprintf("it has %d bytes", opened.Size()))
	}
	head := make([]byte, hl)
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, corrupt(err.Error())
	}
	if string(head[:len(magic)]) != magic {
		return nil, corrupt("it is not a file of this kind")
	}
	rest := head[len(magic):]
	if v := binary.LittleEndian.Uint32(rest); v != version {
		return nil, corrupt(fmt.Sprintf("it has format %d; this version of schemalab reads format %d", v, version))
	}
	if n := binary.LittleEndian.Uint64(rest[4:]); n != uint64(opened.Size()-hl) {
		return nil, corrupt(fmt.Sprintf("it should hold %d bytes after its header and holds %d", n, opened.Size()-hl))
	}
	payload := make([]byte, opened.Size()-hl)
	if _, err := io.ReadFull(f, payload); err != nil {
		return nil, corrupt(err.Error())
	}
	if sum := sha256.Sum256(payload); !bytes.Equal(sum[:], rest[12:]) {
		return nil, corrupt("its checksum does not match its contents")
	}
	return payload, nil
}
