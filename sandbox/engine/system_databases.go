package engine

import (
	"fmt"
	"math"
	"os"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// startupLogSize is the size mongod gives local.startup_log
// (logStartup in mongod_main.cpp: a 10 MB capped collection).
const startupLogSize = 10 * 1024 * 1024

// sessionsTTLSeconds is localLogicalSessionTimeoutMinutes (30) in seconds:
// the expireAfterSeconds of config.system.sessions' lsidTTLIndex
// (sessions_collection.cpp, generateCreateIndexesCmd).
const sessionsTTLSeconds = 30 * 60

// createSystemDatabases gives a fresh sandbox the three databases every
// fresh mongod has, so that `show dbs` and listDatabases list admin,
// config and local as they do on a new server:
//   - admin.system.version holds the featureCompatibilityVersion document
//     (FeatureCompatibilityVersion::initializeForStartup on a clean start);
//   - local.startup_log holds one document per start (logStartup);
//   - config.system.sessions, with its lsidTTLIndex, is created empty at
//     startup by the logical session cache on a standalone
//     (SessionsCollectionStandalone::setupSessionsCollection).
func (e *Engine) createSystemDatabases() {
	// A failure here can only be a bug in the names below; the sandbox
	// still serves without these databases, so it is not fatal.
	_ = e.catalog.Write("admin", "system.version", true, func(c *catalog.Collection) error {
		_, err := c.Insert(bson.D{{Key: "_id", Value: "featureCompatibilityVersion"}, {Key: "version", Value: fcvVersion}})
		return err
	})
	if _, err := e.catalog.CreateCollection("local", "startup_log",
		bson.D{{Key: "capped", Value: true}, {Key: "size", Value: appendNumber(startupLogSize)}}); err == nil {
		_ = e.catalog.Write("local", "startup_log", false, func(c *catalog.Collection) error {
			_, err := c.Insert(e.startupLogEntry(""))
			return err
		})
	}
	ttl, err := index.ParseSpec(bson.D{
		{Key: "v", Value: int32(2)},
		{Key: "key", Value: bson.D{{Key: "lastUse", Value: int32(1)}}},
		{Key: "name", Value: "lsidTTLIndex"},
		{Key: "expireAfterSeconds", Value: int32(sessionsTTLSeconds)},
	}, false)
	if err == nil {
		_, _ = e.catalog.CreateIndexes("config", "system.sessions", []index.Spec{ttl})
	}
}

// startupLogEntry is the document logStartup writes: the host and the
// start time in the _id, the start time twice, the options the server was
// started with (an embedded sandbox has none until it listens) and
// buildInfo.
func (e *Engine) startupLogEntry(listenAddr string) bson.D {
	host, _ := os.Hostname()
	_, cmdLine := commandLine(listenAddr)
	build, _ := cmdBuildInfo(e, nil)
	return bson.D{
		{Key: "_id", Value: fmt.Sprintf("%s-%d", host, e.started.UnixMilli())},
		{Key: "hostname", Value: host},
		{Key: "startTime", Value: bson.NewDateTimeFromTime(e.started.Truncate(time.Second))},
		{Key: "startTimeLocal", Value: e.started.Format("Mon Jan _2 15:04:05.000")},
		{Key: "cmdLine", Value: cmdLine},
		{Key: "pid", Value: int64(os.Getpid())},
		{Key: "buildinfo", Value: build},
	}
}

// Listening records that a server accepts clients on listenAddr: this
// start's local.startup_log entry takes the command line that says so,
// the one getCmdLineOpts reports on its connections.
func (e *Engine) Listening(listenAddr string) {
	entry := e.startupLogEntry(listenAddr)
	_ = e.catalog.Write("local", "startup_log", false, func(c *catalog.Collection) error {
		var rid int64
		c.ScanBackward(math.MaxInt64, func(r *catalog.Record) bool {
			if value.Get(r.Doc, "_id") == value.Get(entry, "_id") {
				rid = r.ID
				return false
			}
			return true
		})
		if rid == 0 {
			return nil
		}
		return c.Replace(rid, entry)
	})
}
