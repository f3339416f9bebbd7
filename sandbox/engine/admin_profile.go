package engine

import (
	"sync"
	"sync/atomic"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The profile command (src/mongo/db/commands/profile_common.cpp,
// profile.idl, dbcommands_d.cpp CmdProfile::_applyProfilingLevel): read
// the settings (a level outside [0, 2]: mongosh's db.getProfilingStatus()
// sends -1), change the server-wide slowms and sampleRate, set or unset a
// database's filter, and set its level. Turning profiling on creates the
// database's system.profile (profiler.go), which records the operations.

// profileSettings are the profiler's settings: slowms and sampleRate are
// server-wide (serverGlobalParams), the level and the filter per database
// (DatabaseProfileSettings).
type profileSettings struct {
	mu         sync.Mutex
	slowMS     int32
	sampleRate float64
	filters    map[string]bson.D
	// compiled are the filters as the profiler matches them.
	compiled map[string]*query.Filter
	levels   map[string]int32
	// active tells whether some database has a level above 0: until then
	// Run pays one atomic load per command for the profiler.
	active atomic.Bool
}

func newProfileSettings() *profileSettings {
	// mongod's defaults: --slowms 100, --slowOpSampleRate 1.0.
	return &profileSettings{slowMS: 100, sampleRate: 1.0, filters: map[string]bson.D{},
		compiled: map[string]*query.Filter{}, levels: map[string]int32{}}
}

// level is db's profiling level.
func (p *profileSettings) level(db string) int32 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.levels[db]
}

// levelOneRules are what decides at level 1 whether db's operation is
// profiled: its filter, or slowms and sampleRate.
func (p *profileSettings) levelOneRules(db string) (*query.Filter, int32, float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.compiled[db], p.slowMS, p.sampleRate
}

// dropDatabase forgets db's level and filter, as dropDatabase clears its
// DatabaseProfileSettings (jstests/core/profile_no_such_db.js).
func (p *profileSettings) dropDatabase(db string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.levels, db)
	delete(p.filters, db)
	delete(p.compiled, db)
	p.active.Store(len(p.levels) > 0)
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
	var compiled *query.Filter
	if filterSpec != nil {
		f, err := query.Compile(filterSpec, query.Options{Now: req.now})
		if err != nil {
			return nil, err
		}
		if err := checkProfileFilterFields(filterSpec); err != nil {
			return nil, err
		}
		filter, compiled = f.Serialize(), f
	}
	setLevel := level >= 0 && level <= 2
	if setLevel && level > 0 {
		if err := e.createProfileCollection(req.db); err != nil {
			return nil, err
		}
	}

	p := e.profile
	p.mu.Lock()
	defer p.mu.Unlock()
	oldFilter, hadFilter := p.filters[req.db]
	reply := bson.D{
		{Key: "was", Value: p.levels[req.db]},
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
		delete(p.compiled, req.db)
	case hasFilter:
		p.filters[req.db] = filter
		p.compiled[req.db] = compiled
	}
	switch {
	case setLevel && level > 0:
		p.levels[req.db] = int32(level)
	case setLevel:
		delete(p.levels, req.db)
	}
	p.active.Store(len(p.levels) > 0)
	if hasSlowMS {
		// serverGlobalParams.slowMS is an int.
		p.slowMS = int32(slowMS)
	}
	if hasSampleRate {
		p.sampleRate = sampleRate
	}
	return reply, nil
}
