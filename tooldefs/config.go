//go:build internal || ant

package tooldefs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/configstore"
)

// Config reads or changes one agentcore setting in the user's settings file
// (~/.agentcore/settings.json, or $AGENTCORE_CONFIG_DIR/settings.json).
// Give only "setting" to read its current value; give "value" too to change
// it. Known settings: model, outputStyle, permissions.defaultMode, theme,
// toolSearch, verbose, webSearch.endpoint.
//
// +tool:name=Config
// +tool:localOnly
// +tool:searchHint="read or change agentcore settings"
type Config struct{}

// ConfigInput is the input of Config.
type ConfigInput struct {
	// The setting's key, e.g. "permissions.defaultMode" or "verbose".
	Setting string `json:"setting" jsonschema:"minLength=1"`
	// The new value (a JSON string or boolean). Omit to read the setting.
	Value json.RawMessage `json:"value,omitempty"`
}

// ConfigOutput is what Config did.
type ConfigOutput struct {
	Setting string `json:"setting"`
	// Operation is "get" or "set".
	Operation string `json:"operation"`
	// Value is the value now in force (nil when unset).
	Value any `json:"value"`
	// Previous is the value before a set.
	Previous any `json:"previous,omitempty"`
	// Path is the settings file.
	Path string `json:"path"`
}

// IsReadOnly is true when the call only reads the setting.
func (Config) IsReadOnly(in *ConfigInput) bool { return len(in.Value) == 0 }

// ValidateInput rejects unknown settings and values of the wrong type before
// any permission prompt.
func (Config) ValidateInput(_ context.Context, in *ConfigInput, _ *runtime.ToolContext) error {
	s, err := configstore.Lookup(in.Setting)
	if err != nil {
		return err
	}
	if len(in.Value) > 0 {
		_, err = s.Check(in.Value)
	}
	return err
}

// PermissionTarget is the settings file, written when a value is given.
func (Config) PermissionTarget(in *ConfigInput) runtime.Target {
	return runtime.Target{Kind: runtime.TargetPath, Value: configPath(nil), Writes: len(in.Value) > 0}
}

// Call reads or writes the setting.
func (Config) Call(_ context.Context, in *ConfigInput, c *runtime.Call) (ConfigOutput, error) {
	s, err := configstore.Lookup(in.Setting)
	if err != nil {
		return ConfigOutput{}, err
	}
	store := configstore.Store{Path: configPath(c.Context)}
	prev, _, err := store.Get(s.Key)
	if err != nil {
		return ConfigOutput{}, err
	}
	out := ConfigOutput{Setting: s.Key, Operation: "get", Value: prev, Path: store.Path}
	if len(in.Value) == 0 {
		return out, nil
	}
	v, err := s.Check(in.Value)
	if err != nil {
		return ConfigOutput{}, err
	}
	if err := store.Set(s.Key, v); err != nil {
		return ConfigOutput{}, err
	}
	out.Operation, out.Value, out.Previous = "set", v, prev
	return out, nil
}

// configPath is the user settings file, in AGENTCORE_CONFIG_DIR from the
// tool context's environment (the settings' env), else the session's
// ToolOptions.ConfigDir (agentcore: the variable in its own environment),
// else ~/.agentcore.
func configPath(tc *runtime.ToolContext) string {
	dir := ""
	if tc != nil {
		dir = tc.Env["AGENTCORE_CONFIG_DIR"]
	}
	if dir == "" {
		dir = runtime.ToolOptionsOf(tc).ConfigDir
	}
	if dir != "" {
		return filepath.Join(dir, "settings.json")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = "."
	}
	return configstore.UserPath(home)
}

// ResultBlocks tells the model the value in force.
func (Config) ResultBlocks(out ConfigOutput) []runtime.Block {
	val, _ := json.Marshal(out.Value)
	if out.Operation == "set" {
		prev, _ := json.Marshal(out.Previous)
		return []runtime.Block{runtime.TextBlock(fmt.Sprintf("Set %s to %s (was %s) in %s", out.Setting, val, prev, out.Path))}
	}
	if out.Value == nil {
		return []runtime.Block{runtime.TextBlock(fmt.Sprintf("%s is not set in %s", out.Setting, out.Path))}
	}
	return []runtime.Block{runtime.TextBlock(fmt.Sprintf("%s = %s", out.Setting, val))}
}

// RenderUse shows the setting, and the new value when setting it.
func (Config) RenderUse(in *ConfigInput) string {
	if len(in.Value) == 0 {
		return in.Setting
	}
	return in.Setting + " = " + string(in.Value)
}

// RenderResult summarises the read or the change.
func (Config) RenderResult(_ *ConfigInput, out ConfigOutput) string {
	val, _ := json.Marshal(out.Value)
	if out.Operation == "set" {
		return fmt.Sprintf("Set %s to %s", out.Setting, val)
	}
	if out.Value == nil {
		return out.Setting + " is not set"
	}
	return fmt.Sprintf("%s is %s", out.Setting, val)
}
