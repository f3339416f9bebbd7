package main

// globalOptions are the flags every subcommand accepts (DESIGN.md,
// "Command line").
type globalOptions struct {
	URI        string // --uri, env MONGODB_URI
	Sandbox    string // --sandbox embedded|mongod|uri
	DBPrefix   string // --db-prefix, default "schemalab_"
	ContentDir string // --content
	NoColor    bool   // --no-color, env NO_COLOR
}
