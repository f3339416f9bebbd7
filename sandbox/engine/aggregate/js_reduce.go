package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// parseInternalJsReduce validates $_internalJsReduce as
// AccumulatorInternalJsReduce::parseInternalJsReduce
// (src/mongo/db/pipeline/accumulator_js_reduce.cpp) does before any
// JavaScript runs, then refuses it as the sandbox refuses $accumulator:
// the sandbox has no JavaScript engine.
func parseInternalJsReduce(op string, arg any, p *parser) error {
	d, ok := arg.(bson.D)
	if !ok {
		return mongoerr.Newf(31326, "%s requires a document argument, but found %s", op, typeNameOf(arg))
	}
	var haveEval, haveData bool
	for _, e := range d {
		switch e.Key {
		case "eval":
			var src string
			switch x := e.Value.(type) {
			case string:
				src = x
			case bson.JavaScript:
				src = string(x)
			default:
				return mongoerr.Newf(31244, "%s requires the 'eval' argument to be of type string, or code but found %s", op, typeNameOf(e.Value))
			}
			haveEval = src != ""
		case "data":
			if _, err := p.compile(e.Value); err != nil {
				return err
			}
			haveData = true
		default:
			return mongoerr.Newf(31243, "Invalid argument specified to %s: %s", op, value.FormatElem(e.Key, e.Value))
		}
	}
	if !haveEval {
		return mongoerr.Newf(31245, "%s requires 'eval' argument, recieved input: %s", op, value.FormatDoc(d))
	}
	if !haveData {
		return mongoerr.Newf(31349, "%s requires 'data' argument, recieved input: %s", op, value.FormatDoc(d))
	}
	return mongoerr.Newf(mongoerr.NotImplemented,
		"%s is not supported by the schemalab sandbox; run this step against a real MongoDB with --uri", op)
}
