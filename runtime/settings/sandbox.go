package settings

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentcore/agentcore/runtime/sandbox"
)

// SandboxProtected are the paths, relative to each working directory,
// that a sandboxed command may not write even though the directory is
// writable: what would let a command run code outside the sandbox later
// (git hooks, git's config with its core.pager and aliases, .mcp.json's
// servers) or change the rules themselves (the settings files).
var SandboxProtected = []string{
	".git/hooks", ".git/config", ".mcp.json",
	".claude/settings.json", ".claude/settings.local.json",
	".agentcore/settings.json", ".agentcore/settings.local.json",
}

// Confinement turns the sandbox settings into the session's
// sandbox.Config. It refuses the keys it cannot honour instead of
// ignoring them: excludedCommands (agentcore runs no command outside the
// sandbox without asking), a custom proxy port (httpProxyPort,
// socksProxyPort), allowManagedDomainsOnly, a negative limit. The error
// names each key. The session adds the credential files and its own
// directories to DenyRead.
func (s SandboxSettings) Confinement() (*sandbox.Config, error) {
	var errs []string
	if len(s.ExcludedCommands) > 0 {
		errs = append(errs, fmt.Sprintf("sandbox.excludedCommands (%s) is not supported: agentcore runs a command outside the sandbox only when the call sets dangerouslyDisableSandbox and the user approves it; remove the key", strings.Join(s.ExcludedCommands, ", ")))
	}
	if s.Network.HTTPProxyPort != 0 || s.Network.SOCKSProxyPort != 0 {
		errs = append(errs, "sandbox.network.httpProxyPort and socksProxyPort (a proxy of your own) are not supported: remove them")
	}
	if s.Network.AllowManagedDomainsOnly != nil && *s.Network.AllowManagedDomainsOnly {
		errs = append(errs, "sandbox.network.allowManagedDomainsOnly is not supported (agentcore reads no managed settings): remove it")
	}
	if s.Limits.MemoryMB < 0 || s.Limits.MaxProcesses < 0 {
		errs = append(errs, fmt.Sprintf("sandbox.limits (memoryMB %d, maxProcesses %d) must not be negative: use 0, or leave the key out, for no bound", s.Limits.MemoryMB, s.Limits.MaxProcesses))
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "; "))
	}
	fs := s.Filesystem
	return &sandbox.Config{
		AllowWrite:       fs.AllowWrite,
		Protected:        SandboxProtected,
		DenyWrite:        fs.DenyWrite,
		DenyRead:         fs.DenyRead,
		AllowRead:        fs.AllowRead,
		AllowedDomains:   s.Network.AllowedDomains,
		DeniedDomains:    s.Network.DeniedDomains,
		AllowUnsandboxed: s.UnsandboxedAllowed(),
		Secrets:          s.Secrets(),
		Limits: sandbox.Limits{
			MemoryBytes: s.Limits.MemoryMB << 20,
			Processes:   s.Limits.MaxProcesses,
		},
		FailIfUnavailable: s.FailIfUnavailable != nil && *s.FailIfUnavailable,
	}, nil
}

// Secrets is which environment variables commands run without
// (sandbox.credentials), sandbox on or off.
func (s SandboxSettings) Secrets() sandbox.Secrets {
	return sandbox.Secrets{Env: s.Credentials.Env, Keep: s.Credentials.KeepEnv}
}
