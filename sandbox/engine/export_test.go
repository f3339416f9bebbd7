package engine

import "slices"

// ExplainableCommands lists every name, aliases included, whose command
// table entry has an explain entry, so that the driver tests can check
// they cover each one.
func ExplainableCommands() []string {
	var names []string
	for name, c := range commandTable(commands()) {
		if c.explain != nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}
