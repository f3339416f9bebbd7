package lessons

import "github.com/schemalab/schemalab/sandbox/shell"

// InputComplete reports whether src is a complete scratch-shell input, as
// the shell reads it: a shell command line, or JavaScript with no open
// bracket, string or template. An incomplete input goes on on the next
// line, as in mongosh.
func InputComplete(src string) bool { return shell.InputComplete(src) }
