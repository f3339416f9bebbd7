// Command schemalab is a terminal course and playground for MongoDB
// schema-design patterns.
package main

import (
	"context"
	"os"
)

func main() {
	var g globalOptions
	os.Exit(runShell(context.Background(), &g, os.Args[1:]))
}
