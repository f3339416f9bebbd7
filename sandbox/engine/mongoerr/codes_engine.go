package mongoerr

// Location codes raised by command parsing (find/aggregate $sort rules).
const (
	Location15974 = 15974
	Location15975 = 15975
	Location17312 = 17312
	Location17419 = 17419
	Location17420 = 17420
)

// AmbiguousIndexKeyPattern is raised when dropIndexes names a key pattern
// that several indexes share.
const AmbiguousIndexKeyPattern = 181
