package runtime

// Behavior is the outcome of a permission check.
type Behavior int

const (
	// Passthrough defers to the rules and mode; the fail-closed default of
	// a tool's own check.
	Passthrough Behavior = iota
	// Allow lets the call run.
	Allow
	// Deny refuses the call.
	Deny
	// Ask asks the user (or denies in non-interactive runs).
	Ask
)

// String returns the behaviour's lower-case name.
func (b Behavior) String() string {
	switch b {
	case Allow:
		return "allow"
	case Deny:
		return "deny"
	case Ask:
		return "ask"
	default:
		return "passthrough"
	}
}

// PermissionDecision is the answer of a permission check.
type PermissionDecision struct {
	Behavior Behavior
	// Message tells the model (on deny) or the user (on ask) why.
	Message string
}
