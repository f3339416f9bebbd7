// Package content holds the built-in lessons, one Markdown file each, in
// the format described in README.md beside this file.
package content

import "embed"

// FS holds the lesson files; README.md, the authoring guide, is skipped by
// the loader.
//
//go:embed *.md id
var FS embed.FS
