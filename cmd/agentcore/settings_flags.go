package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/agentcore/agentcore/runtime/memory"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/settings"
)

// registerSettings adds Claude Code's settings flags.
func (f *permissionFlags) registerSettings(fl *pflag.FlagSet) {
	fl.StringVar(&f.settings, "settings", "", "a settings file or a JSON string, read above the settings files (Claude Code's --settings)")
	fl.Func("setting-sources", "the settings files to read: user, project and/or local, comma-separated (default all; --settings is always read)", func(v string) error {
		f.settingSources = &v
		_, err := settings.ParseSettingSources(v)
		return err
	})
}

// settingsSources puts --settings and --setting-sources into src.
func (f *permissionFlags) settingsSources(src *permission.Sources) error {
	src.SettingsFlag = f.settings
	if f.settingSources != nil {
		only, err := settings.ParseSettingSources(*f.settingSources)
		if err != nil {
			return fmt.Errorf("--setting-sources: %w", err)
		}
		src.OnlySources = only
	}
	return nil
}

// readSettings reads the settings files the flags name, for what the
// command line needs before the session opens: the env and the model.
func (f *permissionFlags) readSettings(cwd string) ([]settings.SettingsFile, settings.Settings, error) {
	src, err := f.sources()
	if err != nil {
		return nil, settings.Settings{}, err
	}
	home, _ := os.UserHomeDir()
	files, s, err := settings.ReadSettings(cwd, home, src.Selection())
	if err != nil {
		return files, s, fmt.Errorf("settings: %w", err)
	}
	f.read.cwd, f.read.files = cwd, files
	return files, s, nil
}

// applySettings does what Claude Code does with the settings at start:
// their env is exported to the process (so the model's provider, the MCP
// servers and every command see it, over the variables already set), and
// their model is the default when neither --model nor ANTHROPIC_MODEL
// names one. It returns the model to use.
func (f *runFlags) applySettings() (string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return f.model, fmt.Errorf("no working directory: %w", err)
	}
	_, s, err := f.session.perm.readSettings(cwd)
	if err != nil {
		return f.model, err
	}
	keys := make([]string, 0, len(s.Env))
	for k := range s.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return f.model, fmt.Errorf("settings: env key %q is not a variable name: fix the env object", k)
		}
		if err := os.Setenv(k, s.Env[k]); err != nil {
			return f.model, fmt.Errorf("settings: env %s: %w", k, err)
		}
	}
	if f.model == "" && os.Getenv("ANTHROPIC_MODEL") == "" && s.Model != "" {
		return s.Model, nil
	}
	return f.model, nil
}

// memoryFiles are the instruction files of a session in cwd, limited as
// --setting-sources limits the settings, as Claude Code does: the user's
// files need "user", CLAUDE.local.md "local", the project's others
// "project".
func (f *permissionFlags) memoryFiles(cwd string) ([]memory.File, error) {
	home, _ := os.UserHomeDir()
	files, err := memory.Find(cwd, home, claudeConfigDir(home))
	if f.settingSources == nil {
		return files, err
	}
	only, perr := settings.ParseSettingSources(*f.settingSources)
	if perr != nil {
		return nil, fmt.Errorf("--setting-sources: %w", perr)
	}
	kept := files[:0]
	for _, m := range files {
		level := permission.SourceProject
		switch {
		case m.Scope == "user":
			level = permission.SourceUser
		case filepath.Base(m.Path) == "CLAUDE.local.md":
			level = permission.SourceLocal
		}
		if slices.Contains(only, level) {
			kept = append(kept, m)
		}
	}
	return kept, err
}
