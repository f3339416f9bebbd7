package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// setQuerySettings and removeQuerySettings (query_settings_cmds.cpp)
// store query settings in the querySettings cluster parameter, which
// exists on replica sets and sharded clusters only: after parsing its
// request, each command refuses to run on a standalone (assertNoStandalone),
// and the sandbox answers as a standalone mongod 8.0. Their listing,
// $querySettings, is always empty here (aggregate/query_settings.go).

func cmdSetQuerySettings(_ *Engine, req *request) (bson.D, error) {
	a := newArgs(req)
	if err := a.checkKnown(true, "settings"); err != nil {
		return nil, err
	}
	if err := queryShapeArg(a); err != nil {
		return nil, err
	}
	if _, ok := a.get("settings"); !ok {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'setQuerySettings.settings' is missing but a required field")
	}
	if _, _, err := a.document("settings"); err != nil {
		return nil, err
	}
	return nil, notOnStandalone(req.name)
}

func cmdRemoveQuerySettings(_ *Engine, req *request) (bson.D, error) {
	a := newArgs(req)
	if err := a.checkKnown(true); err != nil {
		return nil, err
	}
	if err := queryShapeArg(a); err != nil {
		return nil, err
	}
	return nil, notOnStandalone(req.name)
}

// queryShapeArg checks the command's own field: a query instance (a
// document) or a query shape hash (a string).
func queryShapeArg(a args) error {
	switch v := a.doc[0].Value.(type) {
	case bson.D, string:
		return nil
	default:
		return a.wrongType(a.doc[0].Key, v, "types '[string, object']")
	}
}

func notOnStandalone(cmd string) error {
	return mongoerr.Newf(mongoerr.IllegalOperation, "%s can only run on replica sets or sharded clusters", cmd)
}
