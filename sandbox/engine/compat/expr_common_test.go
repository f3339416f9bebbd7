package compat_test

// The contexts mongod adds to an expression's errors, by when they happen:
// planExecutor (cases_test.go) while a pipeline runs, these two before.
const (
	// invalidProject is the context DocumentSourceProject::create adds to
	// whatever its parse throws, an expression's errors included.
	invalidProject = "Invalid $project :: caused by :: "
	// optimizeError is the context Pipeline::optimizePipeline adds to an
	// error raised while optimizing, which evaluates operators over
	// constants.
	optimizeError = "Failed to optimize pipeline :: caused by :: "
)
