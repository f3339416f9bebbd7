package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// $fill (document_source_fill.cpp) is an alias, as in mongod: the fields
// filled by a method become a $setWindowFields with $locf or $linearFill,
// and the fields filled with a value an $addFields of
// {$ifNull: ["$field", value]}.
func parseFill(spec any, p *parser) ([]Stage, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "The $fill stage specification must be an object, found %s", typeNameOf(spec))
	}
	args, err := parseIDL("$fill", d,
		idlField{name: "sortBy", types: []string{"object"}},
		idlField{name: "partitionBy", types: []string{"string", "object"}},
		idlField{name: "partitionByFields", types: []string{"array"}},
		idlField{name: "output", types: []string{"object"}, required: true})
	if err != nil {
		return nil, err
	}
	var partitionFields []string
	if arr, ok := args["partitionByFields"].(bson.A); ok {
		for i, v := range arr {
			s, ok := v.(string)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '$fill.partitionByFields.%d' is the wrong type '%s', expected type 'string'", i, typeNameOf(v))
			}
			partitionFields = append(partitionFields, s)
		}
	}
	output := args["output"].(bson.D)
	if len(output) == 0 {
		return nil, mongoerr.New(mongoerr.ErrFillOutputEmpty, "The output field in '$fill' must contain an object with at least one element")
	}
	windowOutput, addFields := bson.D{}, bson.D{}
	for _, f := range output {
		fd, ok := f.Value.(bson.D)
		if !ok {
			return nil, mongoerr.New(mongoerr.ErrFillOutputNotObject, "Each fill output specification must be an object with exactly one field")
		}
		o, err := parseIDL("$fill", fd, idlField{name: "method", types: []string{"string"}}, idlField{name: "value"})
		if err != nil {
			return nil, err
		}
		if method, ok := o["method"].(string); ok {
			if _, both := o["value"]; both {
				return nil, mongoerr.New(mongoerr.ErrFillMethodAndValue, "Each fill output specification must have exactly one of 'method' or 'value' fields, not both")
			}
			fn := map[string]string{"locf": "$locf", "linear": "$linearFill"}[method]
			if fn == "" {
				return nil, mongoerr.New(mongoerr.ErrFillUnknownMethod, "Method must be either locf or linear")
			}
			windowOutput = append(windowOutput, bson.E{Key: f.Key, Value: bson.D{{Key: fn, Value: "$" + f.Key}}})
		}
		if v, ok := o["value"]; ok {
			addFields = append(addFields, bson.E{Key: f.Key, Value: bson.D{{Key: "$ifNull", Value: bson.A{"$" + f.Key, v}}}})
		}
	}
	window := bson.D{{Key: "output", Value: windowOutput}}
	if sortBy, ok := args["sortBy"]; ok {
		window = append(window, bson.E{Key: "sortBy", Value: sortBy})
	}
	if partitionBy, ok := args["partitionBy"]; ok {
		if partitionFields != nil {
			return nil, mongoerr.New(mongoerr.ErrFillTwoPartitions, "Maximum one of 'partitionBy' and 'partitionByFields can be specified in '$fill'")
		}
		window = append(window, bson.E{Key: "partitionBy", Value: partitionBy})
	}
	if partitionFields != nil {
		by := bson.D{}
		for _, f := range partitionFields {
			by = append(by, bson.E{Key: f, Value: "$" + f})
		}
		window = append(window, bson.E{Key: "partitionBy", Value: by})
	}
	var out []Stage
	if len(windowOutput) > 0 {
		if out, err = parseSetWindowFields(window, p); err != nil {
			return nil, err
		}
	}
	if len(addFields) > 0 {
		set, err := parseAddFields("$addFields")(addFields, p)
		if err != nil {
			return nil, err
		}
		out = append(out, set...)
	}
	return out, nil
}
