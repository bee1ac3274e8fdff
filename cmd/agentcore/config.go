package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentcore/agentcore/runtime/memory"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/settings"
)

// newConfigCmd is agentcore config: what a session in this directory
// reads.
func newConfigCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show the configuration a session here reads",
	}
	cmd.AddCommand(newConfigSourcesCmd())
	return cmd
}

// sourceEntry is one file config sources lists.
type sourceEntry struct {
	// Kind is user, project, local or flag for settings; user or project
	// for memory files.
	Kind string `json:"kind"`
	// Type is settings or memory.
	Type  string `json:"type"`
	Path  string `json:"path"`
	Found bool   `json:"found"`
	// What a settings file contributes.
	Allow       int      `json:"allow,omitempty"`
	Deny        int      `json:"deny,omitempty"`
	Ask         int      `json:"ask,omitempty"`
	Hooks       []string `json:"hooks,omitempty"`
	Env         []string `json:"env,omitempty"`
	Model       string   `json:"model,omitempty"`
	DefaultMode string   `json:"defaultMode,omitempty"`
	Directories int      `json:"additionalDirectories,omitempty"`
	// Chars is a memory file's length in the system prompt.
	Chars     int  `json:"chars,omitempty"`
	Truncated bool `json:"truncated,omitempty"`
}

func newConfigSourcesCmd() *cobra.Command {
	var perm permissionFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "sources",
		Short: "List the settings and memory files a session here reads, and what each contributes",
		Long: `List the settings files a session in this directory looks for, in precedence
order (a later file wins a conflict: user < project < local < --settings; at
each level Claude Code's .claude file first, agentcore's .agentcore file after
it), with what each contributes: permission rules, hooks, env keys, the model.
Then the memory files (CLAUDE.md, CLAUDE.local.md, AGENTS.md) that join the
system prompt, in the order they do.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cwd, err := os.Getwd()
			if err != nil {
				return fmt.Errorf("no working directory: %w", err)
			}
			entries, err := configSources(&perm, cwd)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(entries)
			}
			printSources(cmd.OutOrStdout(), entries)
			return nil
		},
	}
	perm.registerSettings(cmd.Flags())
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	return cmd
}

// configSources lists the settings files perm's flags make a session in
// cwd read, and the memory files.
func configSources(perm *permissionFlags, cwd string) ([]sourceEntry, error) {
	files, _, err := perm.readSettings(cwd)
	if err != nil {
		return nil, err
	}
	var out []sourceEntry
	for _, f := range files {
		s := f.Settings
		e := sourceEntry{Kind: settingsKind(f.Source), Type: "settings", Path: f.Path, Found: f.Found,
			Allow: len(s.Permissions.Allow), Deny: len(s.Permissions.Deny), Ask: len(s.Permissions.Ask),
			Model: s.Model, DefaultMode: s.Permissions.DefaultMode, Directories: len(s.Permissions.AdditionalDirectories)}
		for ev := range s.Hooks {
			if s.Hooks.Has(ev) {
				e.Hooks = append(e.Hooks, string(ev))
			}
		}
		slices.Sort(e.Hooks)
		for k := range s.Env {
			e.Env = append(e.Env, k)
		}
		slices.Sort(e.Env)
		out = append(out, e)
	}
	mem, err := perm.memoryFiles(cwd)
	for _, m := range mem {
		out = append(out, sourceEntry{Kind: m.Scope, Type: "memory", Path: m.Path, Found: true,
			Chars: len([]rune(m.Content)), Truncated: m.Truncated})
	}
	return out, err
}

// settingsKind is the short name of a settings level.
func settingsKind(s permission.Source) string {
	switch s {
	case permission.SourceUser:
		return "user"
	case permission.SourceProject:
		return "project"
	case permission.SourceLocal:
		return "local"
	case settings.SourceFlagSettings:
		return "flag"
	}
	return string(s)
}

// printSources writes entries as two aligned lists.
func printSources(w io.Writer, entries []sourceEntry) {
	width := 0
	for _, e := range entries {
		width = max(width, len(e.Path))
	}
	section := ""
	for _, e := range entries {
		if e.Type != section {
			section = e.Type
			if section == "settings" {
				fmt.Fprintln(w, "Settings files, lowest precedence first (a later file wins a conflict):")
			} else {
				fmt.Fprintln(w, "\nMemory files, in the system prompt in this order:")
			}
		}
		fmt.Fprintf(w, "  %-8s %-*s  %s\n", e.Kind, width, e.Path, e.summary())
	}
	if !slices.ContainsFunc(entries, func(e sourceEntry) bool { return e.Type == "memory" }) {
		fmt.Fprintln(w, "\nMemory files: none (CLAUDE.md, CLAUDE.local.md or AGENTS.md here or above, ~/.claude/CLAUDE.md, ~/.agentcore/AGENTS.md)")
	}
}

// summary says what an entry contributes.
func (e sourceEntry) summary() string {
	if !e.Found {
		return "not found"
	}
	if e.Type == "memory" {
		s := fmt.Sprintf("%d chars", e.Chars)
		if e.Truncated {
			s += fmt.Sprintf(" (cut at %d)", memory.MaxFileChars)
		}
		return s
	}
	var parts []string
	if n := e.Allow + e.Deny + e.Ask; n > 0 {
		var kinds []string
		for _, k := range []struct {
			n    int
			name string
		}{{e.Allow, "allow"}, {e.Deny, "deny"}, {e.Ask, "ask"}} {
			if k.n > 0 {
				kinds = append(kinds, fmt.Sprintf("%d %s", k.n, k.name))
			}
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", plural(n, "rule"), strings.Join(kinds, ", ")))
	}
	if e.DefaultMode != "" {
		parts = append(parts, "defaultMode "+e.DefaultMode)
	}
	if e.Directories > 0 {
		parts = append(parts, plural(e.Directories, "additional directory"))
	}
	if len(e.Hooks) > 0 {
		parts = append(parts, "hooks: "+strings.Join(e.Hooks, ", "))
	}
	if len(e.Env) > 0 {
		parts = append(parts, "env: "+strings.Join(e.Env, ", "))
	}
	if e.Model != "" {
		parts = append(parts, "model "+e.Model)
	}
	if len(parts) == 0 {
		return "found: no permissions, hooks, env or model"
	}
	return strings.Join(parts, "; ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(word, "y"))
	}
	return fmt.Sprintf("%d %ss", n, word)
}
