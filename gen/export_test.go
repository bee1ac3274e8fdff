package gen

// Snake and IsToolName are exported for the tests.
var (
	Snake      = snake
	IsToolName = isToolName
)

// OptionalMethodNames lists the optional tooldef methods toolgen knows.
func OptionalMethodNames() []string {
	var out []string
	for _, m := range optionalMethods {
		out = append(out, m.name)
	}
	return out
}
