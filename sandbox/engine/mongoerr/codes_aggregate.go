package mongoerr

// Codes raised by the aggregation stages and IDL-parsed command fields.
const (
	// RequiredFieldMissing is mongod's IDL error for an absent required
	// field ("BSON field '$merge.into' is missing but a required field");
	// it has no name in error_codes.yml, so it reports as Location40414.
	RequiredFieldMissing         = 40414
	MergeStageNoMatchingDocument = 13113 // $merge whenNotMatched: "fail"
)
