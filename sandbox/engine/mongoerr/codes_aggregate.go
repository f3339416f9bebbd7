package mongoerr

// Named codes raised by the aggregation stages.
const (
	IDLFailedToParse             = 40414 // a required field of a stage spec is missing
	MergeStageNoMatchingDocument = 13113 // $merge whenNotMatched: "fail"
)

func init() {
	// codeNames is a read-only table after initialization; these entries
	// extend it with the names mongod reports for the codes above.
	codeNames[IDLFailedToParse] = "IDLFailedToParse"
	codeNames[MergeStageNoMatchingDocument] = "MergeStageNoMatchingDocument"
}
