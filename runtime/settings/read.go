package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Selection says which settings files a session reads (the settings
// part of permission.Sources).
type Selection struct {
	// SettingsFiles reads the user's, the project's and the local settings
	// files. The CLI does; a program embedding the engine chooses, as the
	// Agent SDK's settingSources do.
	SettingsFiles bool
	// OnlySources, when not nil, limits the settings files read to these
	// levels (SourceUser, SourceProject, SourceLocal): Claude Code's
	// --setting-sources. nil reads all three.
	OnlySources []Source
	// SettingsFlag is Claude Code's --settings: a JSON object or the path
	// of a settings file, read above the local settings whatever
	// OnlySources says.
	SettingsFlag string
	// ConfigDir is the user's settings directory; empty means
	// $AGENTCORE_CONFIG_DIR, else HOME/.agentcore.
	ConfigDir string
}

// SourceFlagSettings marks the settings given with --settings (Claude
// Code's flagSettings): above the local settings, below the flags.
const SourceFlagSettings Source = "--settings"

// SettingSources are the levels of settings files a session may read,
// as --setting-sources names them.
var SettingSources = map[string]Source{"user": SourceUser, "project": SourceProject, "local": SourceLocal}

// ParseSettingSources parses a --setting-sources value, "user,project,local"
// or a part of it; "" reads none of the files (only --settings).
func ParseSettingSources(s string) ([]Source, error) {
	out := []Source{}
	for _, name := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		src, ok := SettingSources[strings.ToLower(name)]
		if !ok {
			return nil, fmt.Errorf("unknown setting source %q: use user, project and/or local, separated by commas", name)
		}
		if !slices.Contains(out, src) {
			out = append(out, src)
		}
	}
	return out, nil
}

// FlagSettings reads a --settings value: a JSON object, or the path of a
// file holding one (relative to cwd). A missing file is an error here:
// the user named it.
func FlagSettings(value, cwd string) (SettingsFile, error) {
	f := SettingsFile{Source: SourceFlagSettings, Found: true}
	v := strings.TrimSpace(value)
	if strings.HasPrefix(v, "{") {
		f.Path = "--settings"
		dec := json.NewDecoder(bytes.NewReader([]byte(v)))
		if err := dec.Decode(&f.Settings); err != nil {
			return f, fmt.Errorf("--settings is not a valid settings object (%w): pass a JSON object or the path of a settings file", err)
		}
		return f, nil
	}
	path := v
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	f.Path = path
	s, found, err := ReadSettingsFile(path)
	if err != nil {
		return f, err
	}
	if !found {
		return f, fmt.Errorf("--settings %s: %w: pass an existing settings file or a JSON object", value, fs.ErrNotExist)
	}
	f.Settings = s
	return f, nil
}

// ReadSettings reads the settings files of a session in cwd as src asks
// (SettingsPaths says which files, in which order): every file looked for, in
// precedence order, with its contents when found, and their merge. A
// file that is not valid JSON is an error naming it.
func ReadSettings(cwd, home string, src Selection) ([]SettingsFile, Settings, error) {
	var files []SettingsFile
	if src.SettingsFiles {
		for _, f := range SettingsPaths(settingsDirs(home, src), claudeConfigDir(home), ProjectRoot(cwd, home)) {
			if src.OnlySources == nil || slices.Contains(src.OnlySources, f.Source) {
				files = append(files, f)
			}
		}
	}
	var errs []string
	for i := range files {
		f := &files[i]
		s, found, err := ReadSettingsFile(f.Path)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		f.Found, f.Settings = found, s
	}
	if src.SettingsFlag != "" {
		f, err := FlagSettings(src.SettingsFlag, cwd)
		if err != nil {
			errs = append(errs, err.Error())
		} else {
			files = append(files, f)
		}
	}
	if len(errs) > 0 {
		return files, Settings{}, errors.New(strings.Join(errs, "; "))
	}
	return files, Merge(files), nil
}

// settingsDirs is the user's agentcore directory: src.ConfigDir, else
// $AGENTCORE_CONFIG_DIR, else HOME/.agentcore.
func settingsDirs(home string, src Selection) string {
	if src.ConfigDir != "" {
		return src.ConfigDir
	}
	if d := os.Getenv("AGENTCORE_CONFIG_DIR"); d != "" {
		return d
	}
	if home != "" {
		return filepath.Join(home, ".agentcore")
	}
	return ""
}

// claudeConfigDir is Claude Code's user directory: $CLAUDE_CONFIG_DIR,
// else HOME/.claude.
func claudeConfigDir(home string) string {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	if home != "" {
		return filepath.Join(home, ".claude")
	}
	return ""
}
