package engine

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"regexp"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/sealedfile"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// snapshotFileMagic starts every snapshot file (sealedfile).
const snapshotFileMagic = "schemalab snapshot\n"

// maxSnapshotFile bounds a file "load" reads, and one "persist" writes.
const maxSnapshotFile = 1 << 30

// snapshotFileName is what a client may name a file: one name in the
// engine's snapshot directory, never a path.
var snapshotFileName = regexp.MustCompile(`^[0-9a-z][0-9a-z._-]{0,127}$`)

// snapshotFilePath checks the file a persist or load names.
func (e *Engine) snapshotFilePath(file string, has bool) (string, error) {
	if e.snapshotDir == "" {
		return "", mongoerr.New(mongoerr.IllegalOperation,
			"this server keeps no snapshot files: only the embedded sandbox of `schemalab` itself has a snapshot directory")
	}
	if !has {
		return "", mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'schemalabSnapshot.file' is missing but a required field")
	}
	if !snapshotFileName.MatchString(file) {
		return "", mongoerr.Newf(mongoerr.BadValue,
			"snapshot file name '%s' must be 1 to 128 of a-z, 0-9, '.', '_' and '-', starting with a letter or digit", file)
	}
	return filepath.Join(e.snapshotDir, file), nil
}

// persistSnapshot writes s to path as a sealed file, which a reader sees
// whole or not at all.
func persistSnapshot(path string, s *savedDatabase) (int64, error) {
	if len(s.buckets) > 0 {
		return 0, mongoerr.Newf(mongoerr.IllegalOperation, "%v: database %s has time-series collections", catalog.ErrNotPersistable, s.DB)
	}
	var payload bytes.Buffer
	if err := s.Encode(&payload); err != nil {
		if errors.Is(err, catalog.ErrNotPersistable) {
			return 0, mongoerr.New(mongoerr.IllegalOperation, err.Error())
		}
		return 0, mongoerr.Newf(mongoerr.InternalError, "encode the snapshot: %v", err)
	}
	if payload.Len() > maxSnapshotFile {
		return 0, mongoerr.Newf(mongoerr.IllegalOperation, "the snapshot of %s is %d bytes, more than a snapshot file may hold", s.DB, payload.Len())
	}
	if err := sealedfile.Write(path, snapshotFileMagic, vocab.SnapshotFileFormat, payload.Bytes()); err != nil {
		return 0, mongoerr.Newf(mongoerr.InternalError, "write a snapshot file: %v", err)
	}
	return int64(payload.Len()), nil
}

// readSnapshotFile reads and checks the payload of the snapshot file at
// path. A file that is missing is NoSuchKey; one sealedfile refuses (a
// symlink, cut short, another format, a failed checksum) is
// DataCorruptionDetected, and nothing of it is used.
func readSnapshotFile(path string) ([]byte, error) {
	payload, err := sealedfile.Read(path, snapshotFileMagic, vocab.SnapshotFileFormat, maxSnapshotFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, mongoerr.Newf(mongoerr.NoSuchKey, "no snapshot file %s", filepath.Base(path))
	}
	if err != nil {
		return nil, mongoerr.Newf(mongoerr.DataCorruptionDetected, "snapshot file %v", err)
	}
	return payload, nil
}

// loadSnapshot reads the snapshot file at path as a snapshot of db.
func (e *Engine) loadSnapshot(path, db string, now time.Time) (*savedDatabase, error) {
	payload, err := readSnapshotFile(path)
	if err != nil {
		return nil, err
	}
	compile := func(options bson.D) (*validation.Validator, error) {
		spec, _ := value.Get(options, "validator").(bson.D)
		return validation.Compile(spec, bson.NewDateTimeFromTime(now), nil, validation.EncryptAllowed(options))
	}
	s, err := e.catalog.DecodeSnapshot(payload, db, now, compile)
	if err != nil {
		// The checksum held, so the file is one this format wrote; a
		// payload it cannot read is still refused, never half used.
		return nil, mongoerr.Newf(mongoerr.DataCorruptionDetected, "snapshot file %s is not usable: %v", filepath.Base(path), err)
	}
	return &savedDatabase{Snapshot: s}, nil
}
