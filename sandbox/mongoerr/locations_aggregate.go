package mongoerr

// Location codes of the aggregation pipeline: mongod's uassert numbers,
// named for what went wrong (FerretDB style), each with the file that
// raises it, under src/mongo/db/pipeline/ unless a path says otherwise.
const (
	ErrAccMinMaxNSpecNotObject     = 5787900 // accumulator_multi.cpp
	ErrAccNMissingInput            = 5787907 // accumulator_multi.cpp
	ErrAccNMissingN                = 5787906 // accumulator_multi.cpp
	ErrAccNNotIntegral             = 5787903 // accumulator_multi.cpp
	ErrAccNNotNumber               = 5787902 // accumulator_multi.cpp
	ErrAccNNotPositive             = 5787908 // accumulator_multi.cpp
	ErrAccNSpecNotObject           = 5787801 // accumulator_multi.cpp
	ErrAccNUnknownArgument         = 5787901 // accumulator_multi.cpp
	ErrAccTopMissingN              = 5788003 // accumulator_multi.cpp
	ErrAccTopMissingOutput         = 5788004 // accumulator_multi.cpp
	ErrAccTopMissingSortBy         = 5788005 // accumulator_multi.cpp
	ErrAccTopSpecNotObject         = 5788001 // accumulator_multi.cpp
	ErrAccTopUnknownArgument       = 5788002 // accumulator_multi.cpp
	ErrChangeStreamNotReplicaSet   = 40573   // document_source_change_stream.cpp
	ErrDensifyBoundsDescending     = 5733402 // document_source_densify.cpp
	ErrDensifyBoundsInvalid        = 5733404 // document_source_densify.cpp
	ErrDensifyBoundsNotTwo         = 5733403 // document_source_densify.cpp
	ErrDensifyBoundsString         = 5946802 // document_source_densify.cpp
	ErrDensifyBoundsType           = 5946800 // document_source_densify.cpp
	ErrDensifyDateBoundsMixed      = 5733405 // document_source_densify.cpp
	ErrDensifyDateBoundsNoUnit     = 5733410 // document_source_densify.cpp
	ErrDensifyDateStepNotWhole     = 6586400 // document_source_densify.cpp
	ErrDensifyFieldHasPartition    = 9554500 // document_source_densify.cpp
	ErrDensifyMemoryExceeded       = 6007200 // document_source_densify.h
	ErrDensifyNumericBoundsMixed   = 5733406 // document_source_densify.cpp
	ErrDensifyNumericBoundsUnit    = 5733409 // document_source_densify.cpp
	ErrDensifyPartitionHasField    = 8993000 // document_source_densify.cpp
	ErrDensifyPartitionNeedsFields = 5733408 // document_source_densify.cpp
	ErrDensifyStepNotPositive      = 5733401 // document_source_densify.cpp
	ErrDensifyTooManyDocs          = 5897900 // document_source_densify.cpp
	ErrDensifyValueType            = 5733201 // document_source_densify.h
	ErrDensifyValueUnitMismatch    = 6053600 // document_source_densify.h
	ErrDerivativeDateNeedsUnit     = 5624901 // window_function/window_function_exec_derivative.cpp
	ErrDerivativeInputNullish      = 5624903 // window_function/window_function_exec_derivative.cpp
	ErrDerivativeNeedsNumber       = 5624902 // window_function/window_function_exec_derivative.cpp
	ErrDerivativeUnitNeedsDate     = 5624900 // window_function/window_function_exec_derivative.cpp
	ErrFillMethodAndValue          = 6050201 // document_source_fill.cpp
	ErrFillOutputEmpty             = 6050203 // document_source_fill.cpp
	ErrFillOutputNotObject         = 6050200 // document_source_fill.cpp
	ErrFillTwoPartitions           = 6050204 // document_source_fill.cpp
	ErrFillUnknownMethod           = 6050202 // document_source_fill.cpp
	ErrIntegralInput               = 5423900 // window_function/window_function_integral.cpp
	ErrIntegralNeedsNumber         = 5423902 // window_function/window_function_integral.cpp
	ErrIntegralUnitNeedsDate       = 5423901 // window_function/window_function_integral.cpp
	ErrLinearFillRepeatedSort      = 6050106 // window_function/window_function_exec_linear_fill.cpp
	ErrLinearFillSortBy            = 605001  // window_function/window_function_expression.h
	ErrPipelineTooLong             = 7749501 // pipeline.cpp
	ErrRedactBadResult             = 17053   // document_source_redact.cpp
	ErrStageNotFirst               = 40602   // pipeline.cpp
	ErrStageNotInFacet             = 40600   // document_source_facet.cpp
	ErrStageNotInLookup            = 51047   // document_source_lookup.cpp
	ErrStageNotInUnionWith         = 31441   // document_source_union_with.cpp
	ErrStageNotLast                = 40601   // pipeline.cpp
	ErrStageNotOneField            = 40323   // document_source.cpp
	ErrStageUnrecognized           = 40324   // document_source.cpp
	ErrWindowBoundsBackwards       = 5339900 // window_function/window_bounds.cpp
	ErrWindowDocumentsNeedSortBy   = 5339901 // window_function/window_bounds.cpp
	ErrWindowMemoryExceeded        = 5414201 // document_source_set_window_fields.cpp
	ErrWindowOutputConflict        = 6307900 // document_source_set_window_fields.cpp
	ErrWindowRangeDateNeedsUnit    = 5429413 // window_function/partition_iterator.cpp
	ErrWindowRangeNeedsDate        = 5429513 // window_function/partition_iterator.cpp
	ErrWindowRangeNeedsNumber      = 5429414 // window_function/partition_iterator.cpp
	ErrWindowRangeNeedsOneSortBy   = 5339902 // window_function/window_bounds.cpp
	ErrWindowRankArguments         = 5371601 // window_function/window_function_expression.h
	ErrWindowRankNotEmpty          = 5371603 // window_function/window_function_expression.h
	ErrWindowRankSortBy            = 5371602 // window_function/window_function_expression.h
	ErrWindowUnitTooLarge          = 5490710 // window_function/window_function_expression.h
)
