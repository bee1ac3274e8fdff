package session

import (
	"maps"
	"slices"
)

// applySettingsEnv gives the settings' env (Claude Code's "env" key: the
// variables every session's commands get) to the processes the tools
// start: the tool context's Env, which sub-agents inherit. The process's
// own environment is the front end's business (the CLI exports the
// values, as Claude Code does).
func (s *Session) applySettingsEnv() {
	env := s.engine.Settings().Env
	if len(env) == 0 {
		return
	}
	if s.tc.Env == nil {
		s.tc.Env = make(map[string]string, len(env))
	}
	maps.Copy(s.tc.Env, env)
}

// settingsEnvList is the settings' env as KEY=value, sorted, for the hooks.
func (s *Session) settingsEnvList() []string {
	env := s.engine.Settings().Env
	out := make([]string, 0, len(env))
	for _, k := range slices.Sorted(maps.Keys(env)) {
		out = append(out, k+"="+env[k])
	}
	return out
}
