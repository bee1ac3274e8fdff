package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ProjectConfigFile is the project's MCP configuration file, at the root
// of the working directory, as in Claude Code.
const ProjectConfigFile = ".mcp.json"

// Transport kinds of a ServerConfig.
const (
	// TransportStdio starts Command and speaks MCP over its stdin/stdout.
	TransportStdio = "stdio"
	// TransportHTTP speaks streamable HTTP to URL.
	TransportHTTP = "http"
	// TransportSSE speaks the older HTTP+SSE transport to URL.
	TransportSSE = "sse"
	// TransportSDK is an Agent SDK host's in-process server, reached
	// through InProcess (a HostTransport); only code configures one.
	TransportSDK = "sdk"
)

// ServerConfig is one entry of "mcpServers" in Claude Code's format:
//
//	{"command": "npx", "args": ["-y", "pkg"], "env": {"KEY": "${KEY}"}}
//	{"type": "http", "url": "https://host/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}
//
// Strings may refer to environment variables as ${VAR} or
// ${VAR:-default}; they are expanded when the server is started.
type ServerConfig struct {
	// Type is "stdio" (the default when empty), "http" or "sse".
	Type string `json:"type,omitempty"`
	// Command and Args start a stdio server.
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	// Env is added to the environment a stdio server starts with.
	Env map[string]string `json:"env,omitempty"`
	// URL is the endpoint of an http or sse server.
	URL string `json:"url,omitempty"`
	// Headers are sent with every request to an http or sse server.
	Headers map[string]string `json:"headers,omitempty"`

	// InProcess carries a TransportSDK server's messages.
	InProcess sdk.Transport `json:"-"`

	// Source is the file (or "--mcp-config") the entry was read from.
	Source string `json:"-"`
}

// Transport returns the entry's transport kind, "stdio" when unset.
func (c ServerConfig) Transport() string {
	if c.Type == "" {
		return TransportStdio
	}
	return c.Type
}

// Config is a set of MCP servers by name: the "mcpServers" object of an
// .mcp.json file.
type Config struct {
	Servers map[string]ServerConfig `json:"mcpServers"`
}

// Names returns the server names, sorted.
func (c Config) Names() []string {
	return slices.Sorted(maps.Keys(c.Servers))
}

// ParseConfig parses an .mcp.json document; source names it in errors.
func ParseConfig(data []byte, source string) (Config, error) {
	var raw struct {
		Servers map[string]json.RawMessage `json:"mcpServers"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		return Config{}, fmt.Errorf("%s: not a valid MCP config (want {\"mcpServers\": {...}}): %w", source, err)
	}
	cfg := Config{Servers: make(map[string]ServerConfig, len(raw.Servers))}
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(raw.Servers)) {
		if name == "" {
			errs = append(errs, fmt.Errorf("%s: a server has an empty name: give it a name of letters, digits, \"-\" or \"_\"", source))
			continue
		}
		var sc ServerConfig
		if err := json.Unmarshal(raw.Servers[name], &sc); err != nil {
			errs = append(errs, fmt.Errorf("%s: server %q: %w", source, name, err))
			continue
		}
		sc.Source = source
		if err := validServerName(name); err != nil {
			errs = append(errs, fmt.Errorf("%s: server %q: %w", source, name, err))
			continue
		}
		if err := sc.validate(); err != nil {
			errs = append(errs, fmt.Errorf("%s: server %q: %w", source, name, err))
			continue
		}
		cfg.Servers[name] = sc
	}
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	return cfg, nil
}

// validServerName refuses a server name whose tool names could be read
// as another server's: mcp__<server>__<tool> splits at the first "__",
// so a server named "github__x" (or "github_", or "github.") would have
// its tools match the rule mcp__github of the server "github".
func validServerName(name string) error {
	n := NormalizeName(name)
	if n == "" || strings.Contains(n, "__") || strings.HasSuffix(n, "_") || strings.HasPrefix(n, "_") {
		return fmt.Errorf("the name %q would make tool names (%s) that rules for another server match: use letters, digits, - and single _ inside the name", name, ToolName(name, "tool"))
	}
	return nil
}

func (c ServerConfig) validate() error {
	switch c.Transport() {
	case TransportStdio:
		if c.Command == "" {
			return errors.New(`a stdio server needs "command" (or set "type" to "http" or "sse" and give "url")`)
		}
		if c.URL != "" {
			return errors.New(`"url" given for a stdio server: set "type" to "http" or "sse"`)
		}
	case TransportHTTP, TransportSSE:
		if c.URL == "" {
			return fmt.Errorf(`an %s server needs "url"`, c.Type)
		}
		if c.Command != "" {
			return fmt.Errorf(`"command" given for an %s server: drop "type" to start a stdio server`, c.Type)
		}
	case TransportSDK:
		if c.InProcess == nil {
			return errors.New(`"type" "sdk" is an Agent SDK host's in-process server (createSdkMcpServer), which only the SDK's own connection provides: give a file a stdio, http or sse server`)
		}
	default:
		return fmt.Errorf(`unknown "type" %q: use "stdio", "http" or "sse"`, c.Type)
	}
	return nil
}

// LoadConfigFile reads an MCP config file.
func LoadConfigFile(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("read MCP config: %w", err)
	}
	return ParseConfig(data, path)
}

// LoadProjectConfig reads dir/.mcp.json; a missing file, or an empty one
// (the Bash sandbox's stand-in for a missing .mcp.json, left behind if
// agentcore was killed), is an empty config, not an error.
func LoadProjectConfig(dir string) (Config, error) {
	path := filepath.Join(dir, ProjectConfigFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(bytes.TrimSpace(data)) == 0) {
		return Config{Servers: map[string]ServerConfig{}}, nil
	}
	if err != nil {
		return Config{}, fmt.Errorf("read MCP config: %w", err)
	}
	return ParseConfig(data, path)
}

// LoadFlagConfig reads one --mcp-config value: a file path, or the JSON
// document itself when the value starts with "{".
func LoadFlagConfig(value string) (Config, error) {
	if v := strings.TrimSpace(value); strings.HasPrefix(v, "{") {
		return ParseConfig([]byte(v), "--mcp-config")
	}
	return LoadConfigFile(value)
}

// Merge combines configs; a server named in a later config replaces the
// same name in an earlier one.
func Merge(cfgs ...Config) Config {
	out := Config{Servers: map[string]ServerConfig{}}
	for _, c := range cfgs {
		maps.Copy(out.Servers, c.Servers)
	}
	return out
}

// ResolveConfig merges the MCP configuration a session uses:
// dir/.mcp.json (unless onlyExtra), then every extra value in order, each
// a config file's path or its JSON text; later servers of the same name
// win. (The CLI's --mcp-config values are the extras, --strict-mcp-config
// is onlyExtra.)
func ResolveConfig(dir string, extra []string, onlyExtra bool) (Config, error) {
	var cfgs []Config
	if !onlyExtra {
		c, err := LoadProjectConfig(dir)
		if err != nil {
			return Config{}, err
		}
		cfgs = append(cfgs, c)
	}
	for _, v := range extra {
		c, err := LoadFlagConfig(v)
		if err != nil {
			return Config{}, err
		}
		cfgs = append(cfgs, c)
	}
	return Merge(cfgs...), nil
}

// expandEnv expands ${VAR} and ${VAR:-default} in s. Missing variables
// without a default are reported, and expand to "".
func expandEnv(s string, lookup func(string) (string, bool)) (string, []string) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	var missing []string
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		expr := s[i+2 : i+j]
		name, def, hasDef := strings.Cut(expr, ":-")
		if v, ok := lookup(name); ok {
			b.WriteString(v)
		} else if hasDef {
			b.WriteString(def)
		} else {
			missing = append(missing, name)
		}
		s = s[i+j+1:]
	}
	return b.String(), missing
}

// expanded returns c with environment references expanded, or an error
// naming every missing variable.
func (c ServerConfig) expanded(lookup func(string) (string, bool)) (ServerConfig, error) {
	var missing []string
	exp := func(s string) string {
		v, m := expandEnv(s, lookup)
		missing = append(missing, m...)
		return v
	}
	out := c
	out.Command = exp(c.Command)
	out.URL = exp(c.URL)
	out.Args = make([]string, len(c.Args))
	for i, a := range c.Args {
		out.Args[i] = exp(a)
	}
	expMap := func(m map[string]string) map[string]string {
		if m == nil {
			return nil
		}
		r := make(map[string]string, len(m))
		for _, k := range slices.Sorted(maps.Keys(m)) {
			r[k] = exp(m[k])
		}
		return r
	}
	out.Env = expMap(c.Env)
	out.Headers = expMap(c.Headers)
	if len(missing) > 0 {
		slices.Sort(missing)
		missing = slices.Compact(missing)
		return out, fmt.Errorf("environment variable(s) %s not set (referenced in %s); set them or write ${VAR:-default}",
			strings.Join(missing, ", "), c.Source)
	}
	return out, nil
}

// DefaultStartupTimeout is how long a session waits for its MCP servers
// before the first model request when neither MCP_TIMEOUT nor the
// mcp.startupTimeoutMs setting says: Claude Code's MCP_TIMEOUT default,
// which its print mode waits for. A server that fails says so at once and
// is not waited for.
const DefaultStartupTimeout = 30 * time.Second

// InteractiveStartupTimeout is the wait when neither MCP_TIMEOUT nor the
// setting says and a person waits at the terminal: the session shows
// sooner, and a server that connects later joins between turns.
const InteractiveStartupTimeout = 5 * time.Second

// EnvStartupTimeout is the environment variable (milliseconds, as Claude
// Code's) that wins over the mcp.startupTimeoutMs setting. It also bounds
// each server's start (Options.ConnectTimeout): a server not up by then
// has failed. The setting bounds only the wait before the first request,
// so a slower server still joins later and is announced then.
const EnvStartupTimeout = "MCP_TIMEOUT"

// ResolveStartupTimeout picks the wait for the MCP servers: MCP_TIMEOUT
// from getenv, else the setting (milliseconds; 0 means unset), else
// DefaultStartupTimeout. A value that is not a whole number of
// milliseconds ≥ 0 is an error naming where it came from.
func ResolveStartupTimeout(getenv func(string) string, settingMs int) (time.Duration, error) {
	if v := strings.TrimSpace(getenv(EnvStartupTimeout)); v != "" {
		ms, err := strconv.Atoi(v)
		if err != nil || ms < 0 {
			return 0, fmt.Errorf("%s=%q: want a whole number of milliseconds, e.g. %s=10000", EnvStartupTimeout, v, EnvStartupTimeout)
		}
		return time.Duration(ms) * time.Millisecond, nil
	}
	if settingMs < 0 {
		return 0, fmt.Errorf("the setting mcp.startupTimeoutMs is %d: want a whole number of milliseconds ≥ 0", settingMs)
	}
	if settingMs > 0 {
		return time.Duration(settingMs) * time.Millisecond, nil
	}
	return DefaultStartupTimeout, nil
}
