package sandbox

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/vocab"
)

// markerID is the _id of the one marker document.
const markerID = "schemalab"

// ErrNotCreatedBySchemalab matches (errors.Is) the refusal to reset or
// claim a database that holds data but no marker.
var ErrNotCreatedBySchemalab = errors.New("database not created by schemalab")

// ResetDB drops database name so that a lesson starts afresh. It drops only
// names under the prefix, whatever --unsafe-any-db says. On a real server,
// before the first drop of name in this process it checks the _schemalab
// marker: an existing database with collections but no marker was not
// created by schemalab, and ResetDB refuses, saying why. After the drop it
// writes the marker again, so the database stays recognisably
// schemalab's.
func (b *Backend) ResetDB(ctx context.Context, name string) error {
	if !vocab.InPrefix(name, b.prefix) {
		return fmt.Errorf("refusing to reset database %q: only databases starting with the sandbox prefix %q are reset", name, b.prefix)
	}
	if b.Kind != KindEmbedded && !b.isOwned(name) {
		if err := b.verifyMarker(ctx, name, "reset"); err != nil {
			return err
		}
	}
	if err := b.Client.Database(name).Drop(ctx); err != nil {
		return fmt.Errorf("reset database %s: %w", name, err)
	}
	if b.Kind == KindEmbedded {
		return nil
	}
	b.setOwned(name)
	return b.writeMarker(ctx, name)
}

// verifyMarker returns nil when name is safe to treat as schemalab's: it
// does not exist (or is empty), or it holds the marker document.
func (b *Backend) verifyMarker(ctx context.Context, name, verb string) error {
	db := b.Client.Database(name)
	colls, err := db.ListCollectionNames(ctx, bson.D{})
	if err != nil {
		return fmt.Errorf("%s database %s: cannot list its collections to look for the %s marker: %w", verb, name, vocab.MarkerCollection, err)
	}
	if len(colls) == 0 {
		return nil
	}
	if slices.Contains(colls, vocab.MarkerCollection) {
		err := db.Collection(vocab.MarkerCollection).FindOne(ctx, bson.D{{Key: "_id", Value: markerID}}).Err()
		if err == nil {
			return nil
		}
		if !errors.Is(err, mongo.ErrNoDocuments) {
			return fmt.Errorf("%s database %s: cannot read its %s marker: %w", verb, name, vocab.MarkerCollection, err)
		}
	}
	slices.Sort(colls)
	shown := colls
	if len(shown) > 3 {
		shown = append(slices.Clip(shown[:3]), "…")
	}
	return fmt.Errorf("refusing to %s database %q on %s: it already holds collections (%s) but no %s marker, so schemalab did not create it; drop it yourself if it is yours, or choose another --db-prefix: %w",
		verb, name, b.Host, strings.Join(shown, ", "), vocab.MarkerCollection, ErrNotCreatedBySchemalab)
}

func (b *Backend) writeMarker(ctx context.Context, name string) error {
	_, err := b.Client.Database(name).Collection(vocab.MarkerCollection).InsertOne(ctx, bson.D{
		{Key: "_id", Value: markerID},
		{Key: "createdAt", Value: bson.NewDateTimeFromTime(time.Now())},
		{Key: "version", Value: schemalabVersion()},
		{Key: "prefix", Value: b.prefix},
	})
	if err != nil && !mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("mark database %s as schemalab's: %w", name, err)
	}
	return nil
}

func (b *Backend) isOwned(name string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.owned[name]
}

func (b *Backend) setOwned(name string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.owned == nil {
		b.owned = make(map[string]bool)
	}
	b.owned[name] = true
}

func schemalabVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
