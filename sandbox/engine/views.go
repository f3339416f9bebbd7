package engine

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/aggregate"
	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/stages"
)

// Read-only views as mongod 8.0 keeps them: a catalog entry of kind
// "view" whose options are {viewOn, pipeline}, mirrored in the database's
// system.views (the entry a time-series collection also writes there).
// A read of a view runs as an aggregation of the resolved pipeline over
// the collection at the end of the chain of views (ResolvedView); writes
// and index commands refuse the namespace.

// maxViewDepth is ViewGraph::kMaxViewDepth.
const maxViewDepth = 20

// isView reports whether db.coll is a view, by a name lookup.
func (e *Engine) isView(db, coll string) bool {
	return e.catalog.Kind(db, coll) == catalog.KindView
}

// viewDefinition is a view's viewOn and pipeline as its options hold them.
func viewDefinition(c *catalog.Collection) (string, bson.A) {
	on, _ := value.Get(c.Options, "viewOn").(string)
	p, _ := value.Get(c.Options, "pipeline").(bson.A)
	return on, p
}

// resolveView follows db.coll's chain of views in v to the collection it
// reads, prepending each view's pipeline to pipeline, as
// view_catalog_helpers::resolveView does; ok is false when db.coll is not
// a view. A view pipeline that starts with $collStats stops the
// resolution at the namespace it is defined on. A view on a time-series
// collection reads its buckets: the time-series collection is itself a
// view, whose pipeline unpacks them.
func resolveView(v *catalog.View, db, coll string, pipeline bson.A) (string, bson.A, bool, error) {
	name, resolved := coll, pipeline
	for depth := 0; depth < maxViewDepth; depth++ {
		c := v.Collection(db, name)
		if backing, p, ok := readBuckets(v, c, resolved); ok && depth > 0 {
			return backing, p, true, nil
		}
		if c == nil || c.Kind != catalog.KindView {
			return name, resolved, depth > 0, nil
		}
		on, p := viewDefinition(c)
		name = on
		resolved = append(append(bson.A{}, p...), resolved...)
		if len(p) > 0 {
			if first, ok := p[0].(bson.D); ok && len(first) > 0 && first[0].Key == "$collStats" {
				return name, resolved, true, nil
			}
		}
	}
	// Twenty views resolved and still no collection: mongod refuses even
	// when the next name is one.
	return "", nil, true, mongoerr.Newf(mongoerr.ViewDepthLimitExceeded,
		"View depth too deep or view cycle detected; maximum depth is %d", maxViewDepth)
}

// readCommand is the hook at the top of find, count, distinct and
// aggregate: a view or a time-series collection is read through the
// aggregation its definition makes of the command.
func (e *Engine) readCommand(req *request) (bson.D, bool, error) {
	if out, ok, err := e.viewRead(req); ok {
		return out, true, err
	}
	return e.timeseriesRead(req)
}

// viewRead answers a read of a view.
func (e *Engine) viewRead(req *request) (bson.D, bool, error) {
	coll, ok := req.cmd[0].Value.(string)
	if !ok || !e.isView(req.db, coll) {
		return nil, false, nil
	}
	user, hint, err := viewReadPipeline(req)
	if err != nil {
		return nil, true, err
	}
	if req.name == "aggregate" && len(user) > 0 {
		// $collStats first reads the view's own metadata: runAggregate
		// resolves the view for every other pipeline, $indexStats too.
		if first, ok := user[0].(bson.D); ok && len(first) == 1 && first[0].Key == "$collStats" {
			return nil, false, nil
		}
	}
	v := e.pipelineView(req.db, coll, user)
	backing, pipeline, ok, err := resolveView(v, req.db, coll, user)
	if err != nil || !ok {
		return nil, ok, err
	}
	if req.apiStrict() {
		// The view's stages are checked again with the reader's API
		// parameters, as the resolved pipeline is validated.
		if err := aggregate.CheckAPIStrict(pipeline, req.conn.internal); err != nil {
			return nil, true, err
		}
	}
	if req.name == "aggregate" {
		if s, _ := parseAggregate(req); s != nil && s.explain {
			out, err := e.explainView(req, "queryPlanner")
			return out, true, err
		}
	}
	out, err := e.readPipeline(req, v, backing, ns(req.db, coll), pipeline, hint)
	return out, true, err
}

// viewReadPipeline is the aggregation a read command makes over a view
// (query_request_conversion.cpp for find, count's and distinct's view
// paths): its filter, then sort, skip, limit and projection. The read's
// hint goes with it, to the query over the view's collection.
func viewReadPipeline(req *request) (bson.A, any, error) {
	var p bson.A
	match := func(filter bson.D) {
		if len(filter) > 0 {
			p = append(p, bson.D{{Key: "$match", Value: filter}})
		}
	}
	switch req.name {
	case "find":
		s, err := parseFind(req)
		if err != nil {
			return nil, nil, err
		}
		if err := findAsAggregation(req.cmd, s); err != nil {
			return nil, nil, err
		}
		match(s.filter)
		return append(p, s.stagesAfterFilter()...), s.hint, nil
	case "count":
		s, err := parseCount(req)
		if err != nil {
			return nil, nil, err
		}
		match(s.filter)
		if s.skip > 0 {
			p = append(p, bson.D{{Key: "$skip", Value: s.skip}})
		}
		if s.limit > 0 {
			p = append(p, bson.D{{Key: "$limit", Value: s.limit}})
		}
		return append(p, bson.D{{Key: "$count", Value: "count"}}), s.hint, nil
	case "distinct":
		s, _, err := parseDistinct(req)
		if err != nil {
			return nil, nil, err
		}
		match(s.filter)
		return p, s.hint, nil
	}
	s, err := parseAggregate(req)
	if err != nil {
		return nil, nil, err
	}
	return s.pipeline, s.hint, nil
}

// explainView explains a read of a view as the aggregation it runs over
// the view's collection, the resolved pipeline first.
func (e *Engine) explainView(req *request, verbosity string) (bson.D, error) {
	coll, _ := req.cmd[0].Value.(string)
	user, hint, err := viewReadPipeline(req)
	if err != nil {
		return nil, err
	}
	v := e.pipelineView(req.db, coll, user)
	backing, pipeline, _, err := resolveView(v, req.db, coll, user)
	if err != nil {
		return nil, err
	}
	sub := *req
	sub.name = "aggregate"
	sub.cmd = bson.D{{Key: "aggregate", Value: backing}, {Key: "pipeline", Value: pipeline}, {Key: "explain", Value: true}, {Key: "$db", Value: req.db}}
	if hint != nil {
		sub.cmd = append(sub.cmd, bson.E{Key: "hint", Value: hint})
	}
	return e.explainPipeline(&sub, &aggregateSpec{coll: backing, pipeline: pipeline, explain: true, hint: hint}, verbosity, e.pipelineView(req.db, backing, pipeline))
}

// viewForeign resolves a foreign collection of $lookup, $graphLookup or
// $unionWith that is a view or a time-series collection: the pipeline to
// run over its collection.
func viewForeign(v *catalog.View, db, coll string, pipeline bson.A) (string, bson.A, bool, error) {
	c := v.Collection(db, coll)
	if backing, p, ok := readBuckets(v, c, pipeline); ok {
		return backing, p, true, nil
	}
	if c == nil || c.Kind != catalog.KindView {
		return coll, pipeline, false, nil
	}
	return resolveView(v, db, coll, pipeline)
}

// readBuckets is pipeline read from c when c is a time-series collection
// (a view too, in mongod): over its buckets collection, unpacked first.
func readBuckets(v *catalog.View, c *catalog.Collection, pipeline bson.A) (string, bson.A, bool) {
	if c == nil || c.Kind != catalog.KindTimeseries {
		return "", nil, false
	}
	ts, ok := timeseriesIn(v, c.DB, c.Name)
	if !ok {
		return "", nil, false
	}
	return ts.buckets.Name, append(unpackPipeline(ts, nil), pipeline...), true
}

// viewCreateOptions are the create options a view may have besides
// viewOn and pipeline.
var viewCreateOptions = map[string]bool{"viewOn": true, "pipeline": true}

// checkViewFields is the IDL parse of create's and collMod's viewOn and
// pipeline (create.idl, coll_mod.idl), in the command's field order:
// viewOn is a string that create_command_validation's
// validateViewOnNotEmpty refuses when empty, pipeline an array<object>.
func checkViewFields(cmd bson.D, cmdName string) error {
	for _, f := range cmd[1:] {
		switch f.Key {
		case "viewOn":
			on, ok := f.Value.(string)
			if !ok {
				return mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '%s.viewOn' is the wrong type '%s', expected type 'string'", cmdName, value.TypeName(f.Value))
			}
			if on == "" {
				return mongoerr.New(mongoerr.BadValue, "'viewOn' cannot be empty")
			}
		case "pipeline":
			arr, ok := f.Value.(bson.A)
			if !ok {
				return mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '%s.pipeline' is the wrong type '%s', expected type 'array'", cmdName, value.TypeName(f.Value))
			}
			for i, st := range arr {
				if _, ok := st.(bson.D); !ok {
					return mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '%s.pipeline.%d' is the wrong type '%s', expected type 'object'", cmdName, i, value.TypeName(st))
				}
			}
		}
	}
	return nil
}

// parseViewDefinition checks a view's viewOn and pipeline, whose types
// checkViewFields has checked, as ViewCatalog::_validatePipeline does.
func (e *Engine) parseViewDefinition(req *request, collName, on string, p bson.A) error {
	if err := catalog.ValidateNamespace(req.db, on); err != nil {
		return err
	}
	viewNS := ns(req.db, collName)
	for i, st := range p {
		d := st.(bson.D)
		if len(d) == 0 {
			continue // the parse below refuses it
		}
		if s, ok := stages.Lookup(d[0].Key); ok && s.Writes() {
			return mongoerr.Newf(mongoerr.OptionNotSupportedOnView,
				"Invalid pipeline for view %s :: caused by :: The aggregation stage %s in location %d of the pipeline cannot be used in the view definition of %s because it writes to disk",
				viewNS, d[0].Key, i, viewNS)
		}
	}
	if req.apiStrict() {
		if err := aggregate.CheckAPIStrict(p, req.conn.internal); err != nil {
			return err
		}
	}
	sub := *req
	sub.name, sub.viewDefinition = "aggregate", true
	if _, err := e.preparePipeline(&sub, e.pipelineView(req.db, on, p), on, p, nil, nil); err != nil {
		return err
	}
	return nil
}

// viewRefs are the namespaces a view definition reads: its viewOn and
// the foreign collections of its pipeline (ViewCatalog::_validatePipeline
// collects them for the view graph).
func viewRefs(db, on string, pipeline bson.A) []string {
	refs := []string{on}
	for _, n := range pipelineNamespaces(db, pipeline, nil) {
		if n.DB == db {
			refs = append(refs, n.Coll)
		}
	}
	return refs
}

// checkViewGraph validates the view graph of db with coll defined as
// reading refs, as ViewGraph::insertAndValidate does: no cycle through
// coll, and no chain of views through it deeper than maxViewDepth.
func checkViewGraph(ch *catalog.Change, db, coll string, refs []string) error {
	children := map[string][]string{coll: refs}
	parents := map[string][]string{}
	for _, c := range ch.Collections() {
		if c.Kind != catalog.KindView || c.Name == coll {
			continue
		}
		on, p := viewDefinition(c)
		children[c.Name] = viewRefs(db, on, p)
	}
	for from, to := range children {
		for _, t := range to {
			parents[t] = append(parents[t], from)
		}
	}
	depthErr := mongoerr.Newf(mongoerr.ViewDepthLimitExceeded, "View depth limit exceeded; maximum depth is %d", maxViewDepth)
	height := map[string]int{}
	var trail []string
	var down func(name string, depth int) error
	down = func(name string, depth int) error {
		trail = append(trail, name)
		if depth > 0 && name == coll {
			msg := "View cycle detected: " + ns(db, trail[len(trail)-1])
			for i := len(trail) - 1; i >= 0; i-- {
				msg += " => " + ns(db, trail[i])
			}
			return mongoerr.New(mongoerr.GraphContainsCycle, msg)
		}
		if depth > maxViewDepth {
			return depthErr
		}
		h := 0
		for _, child := range children[name] {
			if _, done := height[child]; done {
				h = max(h, height[child])
				continue
			}
			if err := down(child, depth+1); err != nil {
				return err
			}
			h = max(h, height[child])
		}
		trail = trail[:len(trail)-1]
		height[name] = h + 1
		return nil
	}
	if err := down(coll, 0); err != nil {
		return err
	}
	childrenHeight := height[coll] - 1
	up := map[string]int{}
	var climb func(name string, depth int) error
	climb = func(name string, depth int) error {
		if depth > maxViewDepth {
			return depthErr
		}
		h := 0
		for _, p := range parents[name] {
			if _, done := up[p]; !done {
				if err := climb(p, depth+1); err != nil {
					return err
				}
			}
			h = max(h, up[p])
		}
		up[name] = h + 1
		return nil
	}
	if err := climb(coll, 0); err != nil {
		return err
	}
	if up[coll]+childrenHeight-1 > maxViewDepth {
		return depthErr
	}
	return nil
}

// createView is create with viewOn: the view's catalog entry and its
// system.views document, in one namespace change.
func (e *Engine) createView(req *request, collName string) (bson.D, error) {
	a := newArgs(req)
	viewOn, _ := a.get("viewOn")
	pipeline, _ := a.get("pipeline")
	for _, f := range req.cmd[1:] {
		if genericArguments[f.Key] || viewCreateOptions[f.Key] {
			continue
		}
		return nil, mongoerr.Newf(mongoerr.NotImplemented,
			"create option '%s' with a view is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it", f.Key)
	}
	if err := checkViewName(req.db, collName); err != nil {
		return nil, err
	}
	on := viewOn.(string)
	p, _ := pipeline.(bson.A)
	if p == nil {
		p = bson.A{}
	}
	if err := e.parseViewDefinition(req, collName, on, p); err != nil {
		return nil, err
	}
	opts := bson.D{{Key: "viewOn", Value: on}, {Key: "pipeline", Value: p}}
	nsName := ns(req.db, collName)
	err := e.catalog.ChangeNamespace(req.db, func(ch *catalog.Change) error {
		if c := ch.Snapshot(collName); c != nil {
			if c.Kind == catalog.KindView && value.Compare(c.Options, opts) == 0 {
				return nil
			}
			return mongoerr.Newf(mongoerr.NamespaceExists, "namespace %s already exists, but with different options: %s", nsName, existingOptions(c))
		}
		if err := checkViewGraph(ch, req.db, collName, viewRefs(req.db, on, p)); err != nil {
			return err
		}
		view, err := ch.Create(collName, opts)
		if err != nil {
			return err
		}
		view.Kind = catalog.KindView
		return writeViewEntry(ch, nsName, on, p)
	})
	if err != nil {
		return nil, err
	}
	return bson.D{}, nil
}

// checkViewName refuses the names create refuses for a view: those of
// collections, and system.views itself (create_collection.cpp).
func checkViewName(db, coll string) error {
	if coll == "system.views" {
		return mongoerr.Newf(mongoerr.InvalidNamespace, "Cannot create a view called '%s'", coll)
	}
	return catalog.ValidateNamespace(db, coll)
}

// writeViewEntry sets nsName's document in system.views.
func writeViewEntry(ch *catalog.Change, nsName, on string, pipeline bson.A) error {
	return ch.Write("system.views", true, func(views *catalog.Collection) error {
		doc := bson.D{{Key: "_id", Value: nsName}, {Key: "viewOn", Value: on}, {Key: "pipeline", Value: pipeline}}
		if rid, ok := findRecord(views, bson.D{{Key: "_id", Value: nsName}}); ok {
			return views.Replace(rid, doc)
		}
		_, err := views.Insert(doc)
		return err
	})
}

// deleteViewEntry removes nsName's document from system.views.
func deleteViewEntry(ch *catalog.Change, nsName string) {
	_ = ch.Write("system.views", false, func(views *catalog.Collection) error {
		if views != nil {
			if rid, ok := findRecord(views, bson.D{{Key: "_id", Value: nsName}}); ok {
				views.Delete(rid)
			}
		}
		return nil
	})
}

// dropView drops a view as part of ch: its catalog entry and its
// system.views document.
func dropView(ch *catalog.Change, view *catalog.Collection) bson.D {
	ch.Drop(view.Name)
	deleteViewEntry(ch, view.NS())
	return bson.D{{Key: "ns", Value: view.NS()}}
}

// collModView is collMod on a view: viewOn and pipeline replace its
// definition; other options are refused (parseCollModRequest's
// getNotSupportedOnViewError: only viewOn and pipeline apply to a view).
func (e *Engine) collModView(req *request, collName string) (bson.D, error) {
	a := newArgs(req)
	viewOn, hasOn := a.get("viewOn")
	pipeline, hasPipeline := a.get("pipeline")
	for _, f := range req.cmd[1:] {
		if genericArguments[f.Key] || viewCreateOptions[f.Key] {
			continue
		}
		return nil, mongoerr.Newf(mongoerr.InvalidOptions, "option not supported on a view: %s", f.Key)
	}
	if !hasOn && !hasPipeline {
		return bson.D{}, nil
	}
	// The new definition is parsed before the namespace change: parsing
	// snapshots the collections it reads, which the change's lock blocks.
	cur := e.catalog.Snapshot(req.db, collName)
	if cur == nil || cur.Kind != catalog.KindView {
		return nil, mongoerr.New(mongoerr.NamespaceNotFound, "ns does not exist")
	}
	on, p := viewDefinition(cur)
	if hasOn {
		on = viewOn.(string)
	}
	if hasPipeline {
		p = pipeline.(bson.A)
	}
	if err := e.parseViewDefinition(req, collName, on, p); err != nil {
		return nil, err
	}
	err := e.catalog.ChangeNamespace(req.db, func(ch *catalog.Change) error {
		c := ch.Snapshot(collName)
		if c == nil || c.Kind != catalog.KindView {
			return mongoerr.New(mongoerr.NamespaceNotFound, "ns does not exist")
		}
		if err := checkViewGraph(ch, req.db, collName, viewRefs(req.db, on, p)); err != nil {
			return err
		}
		opts := bson.D{{Key: "viewOn", Value: on}, {Key: "pipeline", Value: p}}
		err := ch.Write(collName, false, func(view *catalog.Collection) error {
			view.Options = opts
			return nil
		})
		if err != nil {
			return err
		}
		return writeViewEntry(ch, ns(req.db, collName), on, p)
	})
	if err != nil {
		return nil, err
	}
	return bson.D{}, nil
}

// viewCommandRefusal is the refusal, on a view, of the commands that need
// a collection's storage or indexes (views_all_commands.js).
func viewCommandRefusal(name, nsName string) error {
	if name == "createIndexes" {
		// runCreateIndexesOnNewCollection (create_indexes_cmd.cpp).
		return mongoerr.New(mongoerr.CommandNotSupportedOnView, "Cannot create indexes on a view")
	}
	if name == "dropIndexes" {
		// dropIndexes' checkView (drop_indexes.cpp).
		return mongoerr.New(mongoerr.CommandNotSupportedOnView, "Cannot drop indexes on view "+nsName)
	}
	db, coll, _ := strings.Cut(nsName, ".")
	return errViewNotCollection(db, coll)
}

// viewQueryStages is a foreign read's filter, sort and limit as the
// stages that follow a view's pipeline.
func viewQueryStages(filter, sort bson.D, limit int64) bson.A {
	var p bson.A
	if len(filter) > 0 {
		p = append(p, bson.D{{Key: "$match", Value: filter}})
	}
	if len(sort) > 0 {
		p = append(p, bson.D{{Key: "$sort", Value: sort}})
	}
	if limit > 0 {
		p = append(p, bson.D{{Key: "$limit", Value: limit}})
	}
	return p
}

// findAsAggregation refuses the find options an aggregation cannot carry,
// in the order query_request_helper::asAggregationCommand checks them.
func findAsAggregation(cmd bson.D, s *findSpec) error {
	set := func(name string) bool {
		switch v := value.Get(cmd, name).(type) {
		case bson.D:
			return len(v) > 0
		case bool:
			return v
		}
		return false
	}
	unsupported := func(name string) error {
		return mongoerr.Newf(mongoerr.InvalidPipelineOperator, "Option %s not supported in aggregation.", name)
	}
	for _, name := range []string{"min", "max", "returnKey", "showRecordId"} {
		if set(name) {
			return unsupported(name)
		}
	}
	if set("tailable") {
		return mongoerr.New(mongoerr.InvalidPipelineOperator, "Tailable cursors are not supported in aggregation.")
	}
	for _, name := range []string{"noCursorTimeout", "allowPartialResults"} {
		if set(name) {
			return unsupported(name)
		}
	}
	if !value.IsMissing(value.Get(s.sort, "$natural")) {
		return mongoerr.New(mongoerr.InvalidPipelineOperator, "Sort option $natural not supported in aggregation.")
	}
	if s.singleBatch && s.limit != 1 {
		return unsupported("singleBatch")
	}
	for _, name := range []string{"readOnce", "allowSpeculativeMajorityRead", "$_requestResumeToken"} {
		if set(name) {
			return unsupported(name)
		}
	}
	if set("$_resumeAfter") {
		return unsupported("$_resumeAfter")
	}
	return nil
}
