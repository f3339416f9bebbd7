package engine

import (
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The profile command (src/mongo/db/commands/profile_common.cpp,
// profile.idl, dbcommands_d.cpp CmdProfile). The sandbox has no
// profiler: no operation is ever recorded, so every database stays at
// level 0 and system.profile never exists. What the command does at level
// 0 the sandbox does as mongod does: read the settings (a level outside
// [0, 2], mongosh's db.getProfilingStatus() sends -1), change the
// server-wide slowms and sampleRate, and set or unset a database's filter.
// Levels 1 and 2, which would start recording, are refused with
// NotImplemented rather than accepted and then silently never recorded.

// profileSettings are the profiler's settings: slowms and sampleRate are
// server-wide (serverGlobalParams), the filter is per database
// (DatabaseProfileSettings).
type profileSettings struct {
	mu         sync.Mutex
	slowMS     int32
	sampleRate float64
	filters    map[string]bson.D
}

func newProfileSettings() *profileSettings {
	// mongod's defaults: --slowms 100, --slowOpSampleRate 1.0.
	return &profileSettings{slowMS: 100, sampleRate: 1.0, filters: map[string]bson.D{}}
}

func cmdProfile(e *Engine, req *request) (bson.D, error) {
	a := newArgs(req)
	level, isNum := value.SafeNumberLong(req.cmd[0].Value)
	if !isNum {
		return nil, a.wrongType("profile", req.cmd[0].Value, "types '[long, int, decimal, double']")
	}
	slowMS, hasSlowMS, err := a.int64Arg("slowms")
	if err != nil {
		return nil, err
	}
	var sampleRate float64
	v, hasSampleRate := a.get("sampleRate")
	if hasSampleRate {
		// The IDL type is double, not safeDouble: only a double is taken.
		f, ok := v.(float64)
		if !ok {
			return nil, a.wrongType("sampleRate", v, "type 'double'")
		}
		sampleRate = f
	}
	var filterSpec bson.D
	unset := false
	fv, hasFilter := a.get("filter")
	if hasFilter {
		// parseObjectOrUnset, while the command is parsed.
		switch x := fv.(type) {
		case bson.D:
			filterSpec = x
		case string:
			if x != "unset" {
				return nil, mongoerr.New(mongoerr.BadValue, "Expected an object, or the string 'unset'.")
			}
			unset = true
		default:
			return nil, mongoerr.New(mongoerr.BadValue, "Expected an object, or the string 'unset'.")
		}
	}
	if hasSampleRate && (sampleRate < 0 || sampleRate > 1) {
		return nil, mongoerr.New(mongoerr.BadValue, "'sampleRate' must be between 0.0 and 1.0 inclusive")
	}
	// _applyProfilingLevel: the filter is parsed (ProfileFilterImpl) once
	// the arguments are known to be valid.
	var filter bson.D
	if filterSpec != nil {
		f, err := query.Compile(filterSpec, query.Options{Now: req.now})
		if err != nil {
			return nil, err
		}
		filter = f.Serialize()
	}
	if level == 1 || level == 2 {
		return nil, mongoerr.Newf(mongoerr.NotImplemented,
			"profiling level %d (recording operations in system.profile) is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it", level)
	}

	p := e.profile
	p.mu.Lock()
	defer p.mu.Unlock()
	oldFilter, hadFilter := p.filters[req.db]
	reply := bson.D{
		{Key: "was", Value: int32(0)},
		{Key: "slowms", Value: p.slowMS},
		{Key: "sampleRate", Value: p.sampleRate},
	}
	if hadFilter {
		reply = append(reply, bson.E{Key: "filter", Value: oldFilter})
	}
	if hadFilter || hasFilter {
		reply = append(reply, bson.E{Key: "note", Value: "When a filter expression is set, slowms and sampleRate are not used for profiling and slow-query log lines."})
	}
	switch {
	case unset:
		delete(p.filters, req.db)
	case hasFilter:
		p.filters[req.db] = filter
	}
	if hasSlowMS {
		// serverGlobalParams.slowMS is an int.
		p.slowMS = int32(slowMS)
	}
	if hasSampleRate {
		p.sampleRate = sampleRate
	}
	return reply, nil
}
