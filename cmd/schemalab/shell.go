package main

import "context"

// runShell implements `schemalab shell`; args are the arguments after the
// subcommand name, with global flags already parsed into g.
func runShell(ctx context.Context, g *globalOptions, args []string) int {
	_, _, _ = ctx, g, args
	return 2
}
