// Package content holds the built-in lessons, one Markdown file each, in
// the format described in README.md beside this file, and their
// translations, one folder per language (id/, ru/).
package content

import "embed"

// FS holds the lesson files and the language folders; README.md, the
// authoring guide, is skipped by the loader.
//
//go:embed *.md id ru
var FS embed.FS
