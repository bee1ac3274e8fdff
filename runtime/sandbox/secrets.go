package sandbox

import (
	"path/filepath"
	"slices"
	"strings"
)

// CredentialEnv are the environment variables that hold the agent's own
// credentials (model providers, cloud): no command sees them unless the
// settings keep one outside the sandbox (Secrets.Keep).
var CredentialEnv = []string{
	"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN",
	"OPENAI_API_KEY",
	"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
}

// Secrets says which environment variables commands run without: the
// session makes it from the settings (sandbox.credentials) and offers it
// to tools as a service of the tool context, sandbox on or off.
type Secrets struct {
	// Env are names removed beyond CredentialEnv
	// (sandbox.credentials.env).
	Env []string
	// Keep are names a command run outside the sandbox keeps
	// (sandbox.credentials.keepEnv); inside it nothing is kept.
	Keep []string
}

// Unset is the names removed from a command's environment: CredentialEnv
// and s.Env, less s.Keep when the command runs outside the sandbox. A nil
// s removes CredentialEnv.
func (s *Secrets) Unset(sandboxed bool) []string {
	names := slices.Clone(CredentialEnv)
	if s == nil {
		return names
	}
	names = append(names, s.Env...)
	if !sandboxed {
		names = slices.DeleteFunc(names, func(n string) bool { return slices.Contains(s.Keep, n) })
	}
	return names
}

// Scrub returns env (KEY=VALUE pairs) without the variables named in
// unset.
func Scrub(env, unset []string) []string {
	if len(unset) == 0 {
		return env
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(unset, name) {
			out = append(out, kv)
		}
	}
	return out
}

// CredentialFiles are the files and directories under home that hold
// credentials for other services, hidden from sandboxed commands unless
// the settings allow reading them (sandbox.filesystem.allowRead).
func CredentialFiles(home string) []string {
	if home == "" {
		return nil
	}
	var out []string
	for _, rel := range []string{".ssh", ".aws", ".config/gcloud", ".netrc", ".docker/config.json", ".git-credentials", ".npmrc"} {
		out = append(out, filepath.Join(home, rel))
	}
	return out
}
