package sandbox

// Config is the confinement a session asks of the shell commands its
// tools run (settings' sandbox.enabled, or the CLI's --sandbox): the
// model of what a command may write, read and reach. The session makes
// its Sandbox from it (New).
//
// Paths are absolute. The working directories are always writable; the
// lists add to them.
type Config struct {
	// AllowWrite are paths writable beyond the working directories and
	// a private /tmp.
	AllowWrite []string
	// Protected are paths relative to every working directory kept
	// read-only inside it (.git/hooks, .git/config, the settings files,
	// .mcp.json); DenyWrite are absolute paths kept read-only
	// (sandbox.filesystem.denyWrite).
	Protected, DenyWrite []string
	// DenyRead are paths hidden from commands (with the credential files
	// and the agent's own directories the session adds); AllowRead are
	// paths under them shown again (sandbox.filesystem.allowRead).
	DenyRead, AllowRead []string
	// Secrets are the environment variables commands run without.
	Secrets Secrets
	// Limits bound what one command may take (sandbox.limits).
	Limits Limits
	// FailIfUnavailable refuses to run commands when the sandbox cannot
	// start (sandbox.failIfUnavailable); without it the session runs them
	// unconfined and its first result says so.
	FailIfUnavailable bool
	// AllowedDomains are the hosts the settings allow
	// (sandbox.network.allowedDomains); none means no network. A
	// confinement that cannot filter by host (bubblewrap) shares the whole
	// network when any host is allowed, and the session's front end says
	// so at start.
	AllowedDomains []string
	// DeniedDomains are hosts refused even when AllowedDomains match.
	DeniedDomains []string
	// AllowUnsandboxed lets a call ask to run outside the sandbox
	// (sandbox.allowUnsandboxedCommands, default true); false refuses
	// such calls.
	AllowUnsandboxed bool
}
