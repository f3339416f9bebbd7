package aggregate

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

type unwindStage struct {
	path       string // without '$'
	parts      []string
	preserve   bool
	indexField string
	indexParts []string
	// limitPushed is the smallest $limit copied in front of this $unwind
	// (DocumentSourceUnwind's _smallestLimitPushedDown), 0 for none.
	limitPushed int64
}

func parseUnwind(spec any, _ *parser) ([]Stage, error) {
	s := &unwindStage{}
	var prefixed string
	switch x := spec.(type) {
	case string:
		prefixed = x
	case bson.D:
		havePath := false
		for _, e := range x {
			switch e.Key {
			case "path":
				str, ok := e.Value.(string)
				if !ok {
					return nil, mongoerr.Newf(mongoerr.ErrUnwindPathNotString, "expected a string as the path for $unwind stage, got %s", typeNameOf(e.Value))
				}
				prefixed, havePath = str, true
			case "preserveNullAndEmptyArrays":
				b, ok := e.Value.(bool)
				if !ok {
					return nil, mongoerr.Newf(mongoerr.ErrUnwindPreserveNotBool, "expected a boolean for the preserveNullAndEmptyArrays option to $unwind stage, got %s", typeNameOf(e.Value))
				}
				s.preserve = b
			case "includeArrayIndex":
				str, ok := e.Value.(string)
				if !ok || str == "" {
					return nil, mongoerr.Newf(mongoerr.ErrUnwindIndexNotString, "expected a non-empty string for the includeArrayIndex  option to $unwind stage, got %s", typeNameOf(e.Value))
				}
				if str[0] == '$' {
					return nil, mongoerr.Newf(mongoerr.ErrUnwindIndexDollar, "includeArrayIndex option to $unwind stage should not be prefixed with a '$': %s", str)
				}
				if err := projection.ValidateFieldPath(str); err != nil {
					return nil, err
				}
				s.indexField = str
			default:
				return nil, mongoerr.Newf(mongoerr.ErrUnwindUnknownOption, "unrecognized option to $unwind stage: %s", e.Key)
			}
		}
		if !havePath {
			return nil, mongoerr.New(mongoerr.ErrUnwindNoPath, "no path specified to $unwind stage")
		}
	default:
		return nil, mongoerr.Newf(mongoerr.ErrUnwindType, "expected either a string or an object as specification for $unwind stage, got %s", typeNameOf(spec))
	}
	if !strings.HasPrefix(prefixed, "$") {
		return nil, mongoerr.Newf(mongoerr.ErrUnwindPathNotDollar, "path option to $unwind stage should be prefixed with a '$': %s", prefixed)
	}
	s.path = prefixed[1:]
	if err := projection.ValidateFieldPath(s.path); err != nil {
		return nil, err
	}
	s.parts = splitPath(s.path)
	if s.indexField != "" {
		s.indexParts = splitPath(s.indexField)
	}
	return []Stage{s}, nil
}

func (s *unwindStage) Name() string { return "$unwind" }

// unwinding is how an absorbed $unwind shows inside $lookup and
// $graphLookup in explain.
func (s *unwindStage) unwinding() bson.D {
	d := bson.D{{Key: "preserveNullAndEmptyArrays", Value: s.preserve}}
	if s.indexField != "" {
		d = append(d, bson.E{Key: "includeArrayIndex", Value: s.indexField})
	}
	return d
}

func (s *unwindStage) Spec() bson.D {
	body := bson.D{{Key: "path", Value: "$" + s.path}}
	if s.indexField != "" {
		body = append(body, bson.E{Key: "includeArrayIndex", Value: s.indexField})
	}
	if s.preserve {
		body = append(body, bson.E{Key: "preserveNullAndEmptyArrays", Value: true})
	}
	return stageSpec("$unwind", body)
}

func (s *unwindStage) open(in Iterator, _ *runtime) (Iterator, error) {
	var cur bson.D
	var arr bson.A
	idx := 0
	return funcIterator(func() (bson.D, bool, error) {
		for {
			if idx < len(arr) {
				out := setNested(cur, s.parts, arr[idx])
				if s.indexParts != nil {
					out = setNested(out, s.indexParts, int64(idx))
				}
				idx++
				return out, true, nil
			}
			d, ok, err := in.Next()
			if !ok || err != nil {
				return nil, false, err
			}
			cur, arr, idx = d, nil, 0
			v := getNested(d, s.parts)
			switch x := v.(type) {
			case bson.A:
				if len(x) > 0 {
					arr = x
					continue
				}
				if s.preserve {
					// An empty array is removed from a preserved document.
					return s.withIndex(setNested(d, s.parts, value.Missing{}), nil), true, nil
				}
			case nil, value.Missing, bson.Undefined:
				if s.preserve {
					return s.withIndex(d, nil), true, nil
				}
			default:
				// A non-array value is kept as if it were a one-element array,
				// but its index is null (manual: $unwind includeArrayIndex).
				return s.withIndex(d, nil), true, nil
			}
		}
	}), nil
}

func (s *unwindStage) withIndex(d bson.D, idx any) bson.D {
	if s.indexParts == nil {
		return d
	}
	return setNested(d, s.indexParts, idx)
}
