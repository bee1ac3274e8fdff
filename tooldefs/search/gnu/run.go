package gnu

// Programs are the commands this package implements, by name.
var Programs = []string{"grep", "find"}

// Run runs program prog ("grep" or "find") with args, the words after the
// program name, and returns its exit status; ok is false for any other
// name.
func Run(prog string, args []string, std Stdio) (code int, ok bool) {
	switch prog {
	case "grep":
		return Grep(args, std), true
	case "find":
		return Find(args, std), true
	}
	return 0, false
}
