// Package lsp talks to language servers (the Language Server Protocol,
// JSON-RPC 2.0 over a server's stdin and stdout) for the LSP tool and for
// the diagnostics the file tools add to their results. A Manager starts a
// server lazily, one per server and working directory, keeps the files it
// asked about open in it (re-sent when their content changes), collects
// the diagnostics it publishes, and shuts every server down on Close.
package lsp

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// ServerConfig is one language server, in the shape of an entry of Claude
// Code's plugin .lsp.json (the settings files' "lspServers" object, keyed
// by a name): the command, its arguments, the file extensions it serves
// with their language IDs, and what it is told at start.
type ServerConfig struct {
	// Command is the server's executable (a name looked up on PATH, or a
	// path).
	Command string `json:"command"`
	// Args are its arguments ("--stdio" for most servers).
	Args []string `json:"args,omitempty"`
	// ExtensionToLanguage maps a file extension (".go") to the language ID
	// sent with the file ("go").
	ExtensionToLanguage map[string]string `json:"extensionToLanguage"`
	// Env are variables added to the server's environment.
	Env map[string]string `json:"env,omitempty"`
	// InitializationOptions are sent in the initialize request.
	InitializationOptions any `json:"initializationOptions,omitempty"`
	// Settings answer the server's workspace/configuration requests and
	// are sent with workspace/didChangeConfiguration after start.
	Settings any `json:"settings,omitempty"`
	// StartupTimeout bounds the start and the initialize handshake, in
	// milliseconds; zero is DefaultStartupTimeout.
	StartupTimeout int `json:"startupTimeout,omitempty"`
}

// Servers are the configured servers by name.
type Servers map[string]ServerConfig

// DefaultServers are the servers used when the settings name none for an
// extension: gopls for Go, when it is on PATH (lookPath is exec.LookPath
// when nil).
func DefaultServers(lookPath func(string) (string, error)) Servers {
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	out := Servers{}
	if p, err := lookPath("gopls"); err == nil {
		out["gopls"] = ServerConfig{Command: p, ExtensionToLanguage: map[string]string{".go": "go"}}
	}
	return out
}

// WithDefaults returns s plus each default server whose extensions no
// server of s serves.
func (s Servers) WithDefaults(defaults Servers) Servers {
	out := Servers{}
	for n, c := range s {
		out[n] = c
	}
	for _, n := range sortedNames(defaults) {
		c := defaults[n]
		taken := false
		for ext := range c.ExtensionToLanguage {
			if _, ok := out.For(ext); ok {
				taken = true
			}
		}
		if _, dup := out[n]; !taken && !dup {
			out[n] = c
		}
	}
	return out
}

// For returns the name of the server for a file extension (".go"; case
// does not matter), the first by name when several claim it.
func (s Servers) For(ext string) (string, bool) {
	ext = strings.ToLower(ext)
	for _, n := range sortedNames(s) {
		for e := range s[n].ExtensionToLanguage {
			if strings.ToLower(e) == ext {
				return n, true
			}
		}
	}
	return "", false
}

// Language is the language ID the server gives files like path.
func (c ServerConfig) Language(path string) string {
	ext := strings.ToLower(filepath.Ext(path))
	for e, l := range c.ExtensionToLanguage {
		if strings.ToLower(e) == ext {
			return l
		}
	}
	return strings.TrimPrefix(ext, ".")
}

// Extensions are the extensions of all servers, sorted.
func (s Servers) Extensions() []string {
	var out []string
	for _, c := range s {
		for e := range c.ExtensionToLanguage {
			if !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	slices.Sort(out)
	return out
}

func sortedNames(s Servers) []string {
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
