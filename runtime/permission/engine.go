package permission

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agentcore/agentcore/runtime"
	userask "github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/fspath"
	"github.com/agentcore/agentcore/runtime/settings"
	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// Sources are what Load builds a session's engine from besides the
// working directory and the home directory. Values are typed: a front end
// parses its own flags (ParseRules, SplitRuleList, ParseMode) first.
type Sources struct {
	// SettingsFiles reads the user's, the project's and the local settings
	// files (see Load). The CLI does; a program embedding the engine
	// chooses, as the Agent SDK's settingSources do.
	SettingsFiles bool
	// OnlySources, when not nil, limits the settings files read to these
	// levels (SourceUser, SourceProject, SourceLocal): Claude Code's
	// --setting-sources. nil reads all three.
	OnlySources []settings.Source
	// SettingsFlag is Claude Code's --settings: a JSON object or the path
	// of a settings file, read above the local settings whatever
	// OnlySources says.
	SettingsFlag string
	// ConfigDir is the user's settings directory; empty means
	// HOME/.agentcore (agentcore passes $AGENTCORE_CONFIG_DIR).
	ConfigDir string
	// ClaudeConfigDir is Claude Code's user directory; empty means
	// HOME/.claude (agentcore passes $CLAUDE_CONFIG_DIR).
	ClaudeConfigDir string
	// Mode overrides the settings' permissions.defaultMode; empty keeps
	// it (default when no file sets one).
	Mode Mode
	// Rules are added to the settings files' rules.
	Rules []Rule
	// AddDirs are more working directories; relative ones are relative to
	// the working directory.
	AddDirs []string
	// Tools are the session's tools (see Engine.UseTools).
	Tools []runtime.Tool
	// Asker answers asks; nil denies them (see SetAsker).
	Asker userask.Asker
	// Advice words the how-to-allow sentences of messages.
	Advice Advice
	// Files, when not nil, are the settings files as settings.ReadSettings
	// already read them for this working directory and Selection (the CLI
	// reads them once, before the session opens, for their env and
	// model); Load then reads no file again. nil reads them.
	Files []settings.SettingsFile
}

// Selection is the settings part of src, as settings.ReadSettings takes it.
func (src Sources) Selection() settings.Selection {
	return settings.Selection{SettingsFiles: src.SettingsFiles, OnlySources: src.OnlySources,
		SettingsFlag: src.SettingsFlag, ConfigDir: src.ConfigDir, ClaudeConfigDir: src.ClaudeConfigDir}
}

// Advice words the sentences that tell the user how to allow what was
// asked about or denied. The zero value names the settings files; a front
// end with flags names its flags (agentcore's CLI: --allowedTools,
// --add-dir).
type Advice struct {
	// AllowRule says how to add an allow rule, e.g. "pass --allowedTools
	// 'Bash(npm test:*)' or add it to permissions.allow in
	// .agentcore/settings.json". nil gives the settings-file sentence.
	AllowRule func(rule string) string
	// AddDir says how to add a working directory. nil gives the
	// settings-file sentence.
	AddDir func(dir string) string
}

func (a Advice) allowRule(rule string) string {
	if a.AllowRule != nil {
		return a.AllowRule(rule)
	}
	return fmt.Sprintf("add '%s' to permissions.allow in .agentcore/settings.json", rule)
}

func (a Advice) addDir(dir string) string {
	if a.AddDir != nil {
		return a.AddDir(dir)
	}
	return fmt.Sprintf("add %s to permissions.additionalDirectories in .agentcore/settings.json", dir)
}

// Config builds an Engine without reading any file (see Load for that).
type Config struct {
	// Cwd is the start directory: the base of relative path patterns and
	// the working directory when a ToolContext has none.
	Cwd string
	// Root is the project root, the base of "/path" patterns; Cwd if empty.
	Root string
	// Home is the user's home directory, the base of "~/path" patterns;
	// empty means os.UserHomeDir.
	Home string
	// Mode is the permission mode; empty means default.
	Mode Mode
	// Rules are the allow, deny and ask rules.
	Rules []Rule
	// AddDirs are extra working directories.
	AddDirs []string
	// Settings is the merged settings the rules came from, for callers
	// that read other values (toolSearch).
	Settings settings.Settings
	// Files are the settings files that were looked for.
	Files []settings.SettingsFile
	// Asker answers "ask" in CanUseTool; nil denies (NonInteractive).
	Asker userask.Asker
	// Tools are the session's tools, as UseTools takes them. Without
	// them a rule governs only the tool it names: Read(./secrets/**)
	// would not stop Grep.
	Tools []runtime.Tool
	// Advice words the how-to-allow sentences of messages.
	Advice Advice
}

// Engine is the permission pipeline of one session. It is safe for
// concurrent use.
type Engine struct {
	mu   sync.RWMutex
	mode Mode
	// prePlan is the mode SetMode last switched to plan from.
	prePlan Mode
	rules   []Rule
	session []Rule
	// temporary are rules added for a while (AddTemporaryRules), by key.
	temporary map[int][]Rule
	tempSeq   int
	base      pathBase
	// realBase is base with its directories' symlinks resolved.
	realBase pathBase
	addDirs  []string
	// readDirs may be read, not written, by tools (AddReadDir).
	readDirs []string
	settings settings.Settings
	files    []settings.SettingsFile
	asker    userask.Asker
	askMu    sync.Mutex
	// notify is called before each prompt (SetAskNotifier).
	notify func(context.Context, userask.AskRequest)
	// requestHook decides a call before anyone is asked
	// (SetPermissionRequestHook).
	requestHook PermissionRequestHook
	// families maps a tool name or alias to the permission family its
	// rules govern (UseTools).
	families map[string]runtime.PermissionFamily
	advice   Advice
	// pinned maps a working directory, as a context names it, to where
	// it led at the first check that named it (workingDirs), as base and
	// addDirs are pinned when the engine is built: a directory later
	// replaced by a symlink does not move what counts as inside, and
	// checks do not lstat the same directories again.
	pinMu  sync.Mutex
	pinned map[string]string
}

// maxPinned bounds Engine.pinned; past it the map starts again.
const maxPinned = 256

// NewEngine builds an engine from explicit values.
func NewEngine(cfg Config) (*Engine, error) {
	mode := cfg.Mode
	if mode == "" {
		mode = ModeDefault
	}
	if _, err := ParseMode(string(mode)); err != nil {
		return nil, err
	}
	cwd := cfg.Cwd
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("permission engine: no working directory: %w", err)
		}
		cwd = wd
	}
	cwd, _ = filepath.Abs(cwd)
	root := cfg.Root
	if root == "" {
		root = cwd
	}
	if cfg.Home == "" {
		// "~" must mean the real home, or "~/.ssh" would look like a
		// directory under the working directory.
		if h, err := os.UserHomeDir(); err == nil {
			cfg.Home = h
		} else {
			cfg.Home = "/nonexistent-home"
		}
	}
	for _, r := range cfg.Rules {
		if r.Behavior != runtime.Allow && r.Behavior != runtime.Deny && r.Behavior != runtime.Ask {
			return nil, fmt.Errorf("permission rule %s: behaviour must be allow, deny or ask", r)
		}
	}
	var dirs []string
	for _, d := range cfg.AddDirs {
		d = expandHome(d, cfg.Home)
		if !filepath.IsAbs(d) {
			d = filepath.Join(cwd, d)
		}
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("additional working directory %s does not exist or is not a directory", d)
		}
		dirs = append(dirs, d)
	}
	e := &Engine{
		mode:     mode,
		rules:    append([]Rule(nil), cfg.Rules...),
		base:     pathBase{root: root, cwd: cwd, home: cfg.Home},
		addDirs:  resolveDirs(dirs, cwd, nil),
		settings: cfg.Settings,
		files:    cfg.Files,
		asker:    cfg.Asker,
		advice:   cfg.Advice,
	}
	e.realBase = e.base
	for _, d := range []*string{&e.realBase.root, &e.realBase.cwd, &e.realBase.home} {
		if r, err := ResolvePath(*d, "/"); err == nil && *d != "" {
			*d = r
		}
	}
	e.UseTools(cfg.Tools)
	return e, nil
}

// Load builds the session's engine from the settings files and src.
//
// Settings files (with src.SettingsFiles), later overriding earlier: the
// user's (~/.claude/settings.json, then ~/.agentcore/settings.json), the
// project's (.claude/settings.json, then .agentcore/settings.json in the
// project root, the nearest directory above cwd holding .agentcore or
// .claude) and the local ones (.claude/settings.local.json, then
// .agentcore/settings.local.json) — SettingsPaths — limited to
// src.OnlySources when set, then src.SettingsFlag (--settings). Rule lists from every file and from
// src accumulate — a deny anywhere wins because deny rules are checked
// first; defaultMode comes from the last file that sets it and src.Mode
// overrides it. Without src.Asker the engine denies every ask until
// SetAsker gives it a prompt.
func Load(cwd, home string, src Sources) (*Engine, error) {
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("permission engine: no working directory: %w", err)
		}
		cwd = wd
	}
	cwd, _ = filepath.Abs(cwd)
	root := settings.ProjectRoot(cwd, home)
	files, merged := src.Files, settings.Settings{}
	if files != nil {
		merged = settings.Merge(files)
	} else {
		var err error
		if files, merged, err = settings.ReadSettings(cwd, home, src.Selection()); err != nil {
			return nil, fmt.Errorf("permission settings: %w", err)
		}
	}
	var rules []Rule
	var addDirs []string
	var errs []string
	for i := range files {
		f := &files[i]
		s := f.Settings
		for _, list := range []struct {
			rules []string
			b     runtime.Behavior
		}{{s.Permissions.Allow, runtime.Allow}, {s.Permissions.Deny, runtime.Deny}, {s.Permissions.Ask, runtime.Ask}} {
			rs, err := ParseRules(list.rules, list.b, f.Source, f.Path)
			if err != nil {
				errs = append(errs, err.Error())
			}
			rules = append(rules, rs...)
		}
		dirBase := root
		if f.Source == SourceUser {
			dirBase = home
		}
		// Claude Code resolves a user file's sandbox paths against the
		// file's own directory (~/.claude), a project file's against the
		// project root.
		sbBase := root
		if f.Source == SourceUser {
			sbBase = filepath.Dir(f.Path)
		}
		f.Settings.Sandbox.Filesystem = s.Sandbox.Filesystem.Absolute(sbBase, home)
		for _, d := range s.Permissions.AdditionalDirectories {
			d = expandHome(d, home)
			if !filepath.IsAbs(d) {
				d = filepath.Join(dirBase, d)
			}
			addDirs = append(addDirs, d)
		}
	}
	// The sandbox paths were made absolute file by file above, each
	// against its own base; merge them again.
	merged.Sandbox = settings.Merge(files).Sandbox
	rules = append(rules, src.Rules...)
	if len(errs) > 0 {
		return nil, fmt.Errorf("permission settings: %s", strings.Join(errs, "; "))
	}
	mode := src.Mode
	if mode == "" {
		m, err := ParseMode(merged.Permissions.DefaultMode)
		if err != nil {
			return nil, fmt.Errorf("permission settings: permissions.defaultMode: %w", err)
		}
		mode = m
	}
	for _, d := range src.AddDirs {
		d = expandHome(d, home)
		if !filepath.IsAbs(d) {
			d = filepath.Join(cwd, d)
		}
		addDirs = append(addDirs, d)
	}
	return NewEngine(Config{
		Cwd: cwd, Root: root, Home: home, Mode: mode, Rules: rules,
		AddDirs: addDirs, Settings: merged, Files: files,
		Tools: src.Tools, Asker: src.Asker, Advice: src.Advice,
	})
}

// Mode returns the current mode.
func (e *Engine) Mode() Mode {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.mode
}

// SetMode changes the mode, e.g. when the model leaves plan mode. A
// switch into plan mode from another mode remembers that mode for
// ModeBeforePlan.
func (e *Engine) SetMode(m Mode) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if m == ModePlan && e.mode != ModePlan {
		e.prePlan = e.mode
	}
	e.mode = m
}

// ModeBeforePlan returns the mode the session was in when SetMode last
// switched it to plan mode, the mode leaving plan mode goes back to
// (Claude Code's prePlanMode); default when the session started in plan
// mode.
func (e *Engine) ModeBeforePlan() Mode {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.prePlan == "" {
		return ModeDefault
	}
	return e.prePlan
}

// SetAsker sets the handler for "ask" (nil: deny, as in non-interactive runs).
func (e *Engine) SetAsker(a userask.Asker) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.asker = a
}

// Asker returns the handler SetAsker set, nil when none is.
func (e *Engine) Asker() userask.Asker {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.asker
}

// SetAskNotifier sets f to be called just before the Asker is asked
// about a call, that is when the user (or the SDK host) is about to be
// asked: the session runs Claude Code's Notification hooks there. f runs
// under the prompt lock, before the prompt shows; nil removes it.
func (e *Engine) SetAskNotifier(f func(ctx context.Context, req userask.AskRequest)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.notify = f
}

// PermissionRequestHook is called when a call needs approval, before
// anyone is asked (and before a non-interactive run denies it): Claude
// Code's PermissionRequest hooks. It returns decided false to leave the
// call to the Asker; otherwise d (Allow, with an optional UpdatedInput,
// or Deny) is the answer.
type PermissionRequestHook func(ctx context.Context, req userask.AskRequest) (d runtime.PermissionDecision, decided bool)

// SetPermissionRequestHook sets f to decide calls that need approval
// before the Asker is asked; nil removes it.
func (e *Engine) SetPermissionRequestHook(f PermissionRequestHook) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.requestHook = f
}

// notifyAsk calls the notifier, if any.
func (e *Engine) notifyAsk(ctx context.Context, req userask.AskRequest) {
	e.mu.RLock()
	f := e.notify
	e.mu.RUnlock()
	if f != nil {
		f(ctx, req)
	}
}

// Settings returns the merged settings the engine was loaded from.
func (e *Engine) Settings() settings.Settings { return e.settings }

// Files returns the settings files that were looked for, found or not.
func (e *Engine) Files() []settings.SettingsFile { return e.files }

// Rules returns every rule: settings and flags, then session rules.
func (e *Engine) Rules() []Rule {
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := append(append([]Rule(nil), e.rules...), e.session...)
	for k := 0; k <= e.tempSeq; k++ {
		out = append(out, e.temporary[k]...)
	}
	return out
}

// AddTemporaryRules adds rules, labelled with source, until remove is
// called (a skill's allowed-tools hold for the rest of the turn). Deny
// rules are still checked first, so a temporary allow never overrides
// one. remove is safe to call more than once.
func (e *Engine) AddTemporaryRules(rules []Rule, source Source) (remove func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.tempSeq++
	key := e.tempSeq
	rs := make([]Rule, len(rules))
	for i, r := range rules {
		r.Source = source
		rs[i] = r
	}
	if e.temporary == nil {
		e.temporary = map[int][]Rule{}
	}
	e.temporary[key] = rs
	return func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		delete(e.temporary, key)
	}
}

// AddSessionRule adds a rule for the rest of the session (the prompt's
// "always" answer).
func (e *Engine) AddSessionRule(r Rule) {
	r.Source = SourceSession
	e.mu.Lock()
	defer e.mu.Unlock()
	e.session = append(e.session, r)
}

// UseTools tells the engine the session's tools. Rules naming a tool by
// an alias are rewritten to its name (matching accepts aliases anyway;
// this is for listings), and each tool's Traits().PermissionFamily
// decides which other tools' calls its rules govern: Read declares
// read-path, so Read(./secrets/**) also stops Grep reading ./secrets.
// Call it again when the tools change; the last call wins.
func (e *Engine) UseTools(tools []runtime.Tool) {
	families := map[string]runtime.PermissionFamily{}
	names := map[string]string{}
	for _, t := range tools {
		name, aliases, fam, ok := describeTool(t)
		if !ok {
			continue
		}
		for _, n := range append([]string{name}, aliases...) {
			if _, dup := names[n]; !dup {
				names[n] = name
				if fam != runtime.FamilyNone {
					families[n] = fam
				}
			}
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.families = families
	for _, rs := range [][]Rule{e.rules, e.session} {
		for i := range rs {
			if n, ok := names[rs[i].Tool]; ok {
				rs[i].Tool = n
			}
		}
	}
}

// describeTool reads what UseTools needs of t; ok is false when t
// panics.
func describeTool(t runtime.Tool) (name string, aliases []string, fam runtime.PermissionFamily, ok bool) {
	err := runtime.Try("Name/Aliases/Traits", func() { name, aliases, fam = t.Name(), t.Aliases(), t.Traits().PermissionFamily })
	return name, aliases, fam, err == nil
}

// familyMap returns the tool → permission family map of UseTools.
func (e *Engine) familyMap() map[string]runtime.PermissionFamily {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.families
}

// DeniesTool reports whether a blanket deny rule (Bash, Bash(*),
// mcp__server, mcp__server__*) removes the tool from the pool, so the
// model never sees it. It has the signature pool.Options.DenyTool takes.
func (e *Engine) DeniesTool(t runtime.Tool) bool {
	for _, r := range e.Rules() {
		if r.Behavior == runtime.Deny && r.Whole() && r.matchesToolName(t) {
			return true
		}
	}
	return false
}

// WorkingDirs returns the resolved directories file tools may touch: the
// context's working directories (the start directory when it has none)
// and the additional directories.
func (e *Engine) WorkingDirs(tc *runtime.ToolContext) []string {
	return e.workingDirs(tc, nil)
}

// workingDirs is WorkingDirs resolving through res.
func (e *Engine) workingDirs(tc *runtime.ToolContext, res *fspath.Resolver) []string {
	var dirs []string
	cwd := e.base.cwd
	if tc != nil {
		dirs = append(dirs, tc.WorkingDirs...)
		if tc.Cwd != "" {
			cwd = tc.Cwd
		}
	}
	if len(dirs) == 0 {
		dirs = append(dirs, e.base.cwd)
	}
	out := make([]string, 0, len(dirs)+len(e.addDirs))
	e.pinMu.Lock()
	defer e.pinMu.Unlock()
	for _, d := range dirs {
		if d == "" {
			continue
		}
		abs := joinRaw(cwd, d)
		r, ok := e.pinned[abs]
		if !ok {
			var err error
			if r, err = resolveWith(res, abs, "/"); err != nil {
				// A directory that cannot be resolved holds nothing the
				// resolved paths of calls could lie in; it is looked at
				// again next time.
				continue
			}
			if e.pinned == nil || len(e.pinned) >= maxPinned {
				e.pinned = map[string]string{}
			}
			e.pinned[abs] = r
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return append(out, e.addDirs...)
}

// call is what one permission check knows about a call.
type call struct {
	// inv is the call bound once; nil for the Write a shell line's
	// write stands for (writeCall).
	inv    *runtime.Invocation
	tool   runtime.Tool
	input  any
	target runtime.Target
	// lexical and resolved are the absolute path of a path target, before
	// and after resolving symlinks.
	lexical, resolved string
	// resolveErr is set when the path target's symlinks cannot be
	// resolved (a loop); the path then counts as outside every working
	// directory and resolved is the lexical path.
	resolveErr error
	shell      *shellAnalysis
	dirs       []string
	// readDirs are the engine's AddReadDir directories.
	readDirs []string
	// cwd is the directory relative paths of this call are resolved in.
	cwd string
	// families is the engine's tool → permission family map when the
	// call was made (UseTools replaces the map, never changes it).
	families map[string]runtime.PermissionFamily
	// familyOnly is set for the Write a shell line's write stands for
	// (writeCall): rules govern it through their family only, so the
	// shell tool's own command rules are never read as path patterns.
	familyOnly bool
	// res resolves the paths of this check, each directory examined once.
	res *fspath.Resolver
}

func (e *Engine) newCall(inv *runtime.Invocation, tc *runtime.ToolContext) (*call, error) {
	if inv.TargetErr != nil {
		var crash *runtime.Panic
		if errors.As(inv.TargetErr, &crash) {
			return nil, fmt.Errorf("%s: permission target failed (%v); the call is denied", inv.ToolName, crash.Value)
		}
		return nil, fmt.Errorf("%s: permission target failed (%w); the call is denied", inv.ToolName, inv.TargetErr)
	}
	target := inv.Target
	res := &fspath.Resolver{}
	c := &call{inv: inv, tool: inv.Tool, input: inv.Input, target: target, dirs: e.workingDirs(tc, res), families: e.familyMap(), res: res, readDirs: e.readDirList()}
	cwd := e.base.cwd
	if tc != nil && tc.Cwd != "" {
		cwd = tc.Cwd
	}
	c.cwd = cwd
	switch target.Kind {
	case runtime.TargetPath:
		p := expandHome(target.Value, e.base.home)
		if p == "" {
			p = cwd
		}
		p = joinRaw(cwd, p)
		c.lexical = filepath.Clean(p)
		c.resolved, c.resolveErr = resolveWith(c.res, p, cwd)
		if c.resolveErr != nil {
			c.resolved = c.lexical
		}
	case runtime.TargetCommand:
		cmd := target.Shell
		if cmd == nil || cmd.Source != target.Value {
			cmd = shellsyntax.ParseCommand(target.Value)
		}
		c.shell = analyzeShell(cmd, shellEnv{
			cwd: cwd, home: e.base.home, dirs: c.dirs, root: e.base.root, res: res,
			inside: func(p string) bool {
				r, err := resolveWith(c.res, p, cwd)
				return err == nil && insideAny(r, c.dirs)
			},
			protect: func(p string) bool {
				if IsProtectedPath(p) {
					return true
				}
				r, err := resolveWith(c.res, p, cwd)
				return err == nil && IsProtectedPath(r)
			},
		})
	}
	return c, nil
}

// Check runs the permission pipeline for one call of t with a decoded
// input and returns allow, deny or ask (never passthrough). It does not
// prompt; CanUseTool does. CheckInvocation is Check of a call bound
// already.
func (e *Engine) Check(ctx context.Context, t runtime.Tool, input any, tc *runtime.ToolContext) runtime.PermissionDecision {
	if t == nil {
		return deny("no tool given to the permission check")
	}
	return e.CheckInvocation(ctx, runtime.NewInvocation(t, input), tc)
}

// CheckInvocation is Check of the bound call inv: it reads inv's answers
// (the permission target with a shell command's parse, read-only) rather
// than asking the tool again.
func (e *Engine) CheckInvocation(ctx context.Context, inv *runtime.Invocation, tc *runtime.ToolContext) runtime.PermissionDecision {
	d, _, _ := e.check(ctx, inv, tc)
	return d
}

// check is CheckInvocation that also returns the call and whether an
// allow rule could settle an "ask" (false for ask rules, protected paths
// and the tool's own ask, which come before allow rules).
func (e *Engine) check(ctx context.Context, inv *runtime.Invocation, tc *runtime.ToolContext) (runtime.PermissionDecision, *call, bool) {
	if inv == nil || inv.Tool == nil {
		return deny("no tool given to the permission check"), nil, false
	}
	c, err := e.newCall(inv, tc)
	if err != nil {
		return deny(err.Error()), nil, false
	}
	d, coverable := e.pipeline(ctx, c, tc)
	return d, c, coverable
}

func (e *Engine) pipeline(ctx context.Context, c *call, tc *runtime.ToolContext) (runtime.PermissionDecision, bool) {
	t, input := c.tool, c.input
	rules := e.Rules()
	mode := e.Mode()

	// 1. Deny rules hold in every mode; a shell line's writes meet the
	// deny rules a Write of the same path would.
	for _, r := range rules {
		if r.Behavior == runtime.Deny && e.matches(r, c) {
			return deny(fmt.Sprintf("Permission to use %s%s has been denied by the rule %s.", t.Name(), c.describeTarget(), r.describe())), false
		}
	}
	if d, ok := e.writeRules(c, rules, runtime.Deny); ok {
		return d, false
	}
	// A shell line's reads meet the deny rules a Read of the same path
	// would; the analysis may overread (an operand that is not read), so
	// it asks rather than denies.
	if msg := e.readDenials(c, rules); msg != "" {
		return ask(fmt.Sprintf("%s%s needs approval: %s", t.Name(), c.describeTarget(), msg)), false
	}
	// 2. Ask rules, also in bypass mode.
	for _, r := range rules {
		if r.Behavior == runtime.Ask && e.matches(r, c) {
			return ask(fmt.Sprintf("%s%s needs approval: the rule %s asks for it.", t.Name(), c.describeTarget(), r.describe())), false
		}
	}
	if d, ok := e.writeRules(c, rules, runtime.Ask); ok {
		return d, false
	}
	// A PreToolUse hook's ask asks (deny rules were checked first).
	hook, hooked := runtime.HookDecision(ctx)
	if hooked && hook.Behavior == runtime.Ask {
		msg := hook.Message
		if msg == "" {
			msg = fmt.Sprintf("%s%s needs approval: a PreToolUse hook asks for it.", t.Name(), c.describeTarget())
		}
		return ask(msg), false
	}
	// 3. Safety checks: protected paths and the working directories.
	if d, stop, coverable := e.safety(c, rules); stop {
		return d, coverable
	}
	// A hook's allow settles what deny rules, ask rules and the safety
	// checks left open, except a change in plan mode.
	if hooked && hook.Behavior == runtime.Allow && (mode != ModePlan || c.readOnly()) {
		return runtime.PermissionDecision{Behavior: runtime.Allow}, false
	}
	// 4. The tool's own check.
	own := safeCheck(ctx, t, input, tc)
	switch own.Behavior {
	case runtime.Deny:
		if own.Message == "" {
			own.Message = fmt.Sprintf("%s refused this call.", t.Name())
		}
		return own, false
	case runtime.Ask:
		if own.Message == "" {
			own.Message = fmt.Sprintf("%s%s needs approval.", t.Name(), c.describeTarget())
		}
		if own.EveryMode {
			// Only the user settles it: not the mode (bypass included),
			// not an allow rule, and no rule is offered to remember;
			// plan mode still refuses a change.
			if mode == ModePlan && !c.readOnly() {
				return deny(fmt.Sprintf("Plan mode: %s%s changes things, and plan mode allows only read-only tools. Finish the plan and leave plan mode first.", t.Name(), c.describeTarget())), false
			}
			return ask(own.Message), false
		}
		if mode != ModeBypass {
			return own, false
		}
	case runtime.Allow:
		return own, false
	}
	// 5. The mode. A shell line that writes a file is not read-only,
	// whatever the classifier says.
	readOnly := c.readOnly() && (c.shell == nil || len(c.shell.writes) == 0)
	switch {
	case mode == ModePlan && !readOnly:
		return deny(fmt.Sprintf("Plan mode: %s%s changes things, and plan mode allows only read-only tools. Finish the plan and leave plan mode first.", t.Name(), c.describeTarget())), false
	case mode == ModeBypass:
		return runtime.PermissionDecision{Behavior: runtime.Allow}, false
	case readOnly && c.autoRead() && e.argsStayInside(c, rules):
		return runtime.PermissionDecision{Behavior: runtime.Allow}, false
	case mode == ModeAcceptEdits && c.target.Kind == runtime.TargetPath && c.target.Writes && c.inside():
		return runtime.PermissionDecision{Behavior: runtime.Allow}, false
	case mode == ModeAcceptEdits && c.target.Kind == runtime.TargetCommand && e.editsOnly(c, rules):
		// A shell line whose only effects are file edits inside the
		// working directories, as an Edit there would be.
		return runtime.PermissionDecision{Behavior: runtime.Allow}, false
	}
	// A shell line's writes must each pass as a Write of that path
	// would, whatever allows the command (shellWrites); only a blanket
	// allow rule for the tool allows them all.
	var pending []string
	if c.shell != nil {
		pending = e.pendingWrites(c, rules, mode)
	}
	// 6. Allow rules, with the commands of a shell line that need none
	// (allowedWithFree).
	if e.allowed(rules, c) || e.allowedWithFree(rules, c, mode) {
		if len(pending) == 0 || e.wholeAllowed(rules, c) {
			return runtime.PermissionDecision{Behavior: runtime.Allow}, false
		}
		return ask(writesMessage(pending)), false
	}
	// 7. Otherwise ask.
	msg := fmt.Sprintf("%s%s needs approval.", t.Name(), c.describeTarget())
	if c.shell != nil && len(c.shell.taints) > 0 {
		msg += " No allow rule can cover it because it contains " + strings.Join(c.shell.taints, ", ") + "."
	}
	if len(pending) > 0 {
		return ask(msg + " " + writesMessage(pending)), false
	}
	return ask(msg), c.suggestion() != ""
}

// safety runs the checks that hold in every mode.
func (e *Engine) safety(c *call, rules []Rule) (d runtime.PermissionDecision, stop, coverable bool) {
	switch c.target.Kind {
	case runtime.TargetPath:
		if c.target.Writes && (IsProtectedPath(c.lexical) || IsProtectedPath(c.resolved)) {
			return ask(fmt.Sprintf("%s wants to write %s, a protected path (%s always need approval).", c.tool.Name(), c.lexical, ProtectedPaths)), true, false
		}
		if c.target.Writes {
			if n := hardLinks(c.resolved); n > 1 {
				return ask(fmt.Sprintf("%s wants to write %s, a file with %d hard links: writing it changes every other name of it too, which may lie outside the working directories.", c.tool.Name(), c.lexical, n)), true, false
			}
		}
		if !c.inside() && !e.allowed(rules, c) {
			where := c.lexical
			switch {
			case c.resolveErr != nil:
				where = fmt.Sprintf("%s (whose symlinks cannot be resolved: %v)", c.lexical, c.resolveErr)
			case c.resolved != c.lexical:
				where = fmt.Sprintf("%s (really %s)", c.lexical, c.resolved)
			}
			return ask(fmt.Sprintf("%s wants to %s %s, outside the working directories %s. To allow it, %s.",
				c.tool.Name(), readOrWrite(c.target.Writes), where, strings.Join(c.dirs, ", "), e.advice.addDir(filepath.Dir(c.resolved)))), true, true
		}
	case runtime.TargetCommand:
		if len(c.shell.protected) > 0 {
			return ask(fmt.Sprintf("%s wants to write or delete %s: protected paths (%s) need approval in every mode.",
				c.tool.Name(), strings.Join(c.shell.protected, ", "), ProtectedPaths)), true, false
		}
	}
	return runtime.PermissionDecision{}, false, false
}

// inside reports whether a path target lies in a working directory once
// its symlinks are resolved; one that cannot be resolved does not.
func (c *call) inside() bool {
	if c.resolveErr != nil {
		return false
	}
	return insideAny(c.resolved, c.dirs) || (!c.target.Writes && insideAny(c.resolved, c.readDirs))
}

// AddReadDir lets tools read, not write, the files under dir as if it
// were a working directory: the session's own files the model is told
// to read (a large tool result written to a file), as Claude Code reads
// its session directory. dir is resolved (symlinks too) now.
func (e *Engine) AddReadDir(dir string) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return
	}
	// The directory may not exist yet (a session's tool-results
	// directory): its nearest existing parent is found with one stat a
	// level and resolved, the rest joined as it is.
	rest, p := "", d
	for {
		if _, err := os.Stat(p); err == nil {
			break
		}
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		rest, p = filepath.Join(filepath.Base(p), rest), parent
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		d = filepath.Join(r, rest)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if !slices.Contains(e.readDirs, d) {
		e.readDirs = append(e.readDirs, d)
	}
}

// readDirList returns the AddReadDir directories.
func (e *Engine) readDirList() []string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.readDirs
}

// autoRead reports whether a read-only call may run without a rule in
// default mode: a path inside the working directories (the safety step
// has already stopped others), a shell line with nothing a prefix rule
// could not cover and no output redirection, or a built-in tool without a
// target. Network fetches and MCP tools always need a rule or the user's
// word.
func (c *call) autoRead() bool {
	switch c.target.Kind {
	case runtime.TargetPath:
		return c.inside()
	case runtime.TargetCommand:
		return c.shell.parseErr == nil && len(c.shell.taints) == 0 && len(c.shell.writes) == 0
	case runtime.TargetURL:
		return false
	}
	// An MCP server's read-only hint is its own claim: its tools need a
	// rule or the user's word.
	return !strings.HasPrefix(c.tool.Name(), "mcp__")
}

// argsStayInside reports, for a shell line, whether every path-like
// argument (absolute, ~, or containing a slash or "..") lies inside the
// working directories and no deny rule of the read-path family (Read's)
// names it, so "cat
// ~/.ssh/id_rsa" is not auto-allowed as read-only; a cd's directory counts
// as such an argument, so "cd src && pwd" is and "cd /etc && ls" is not.
// Other targets pass.
func (e *Engine) argsStayInside(c *call, rules []Rule) bool {
	if c.target.Kind != runtime.TargetCommand {
		return true
	}
	// A cd's directory is a path whatever it looks like; the words after
	// it may be relative to any directory the line has been in, so each
	// is checked against all of them.
	cwds := []string{c.cwd}
	inside := func(w string) (string, bool) {
		var last string
		for _, cwd := range cwds {
			p := joinRaw(cwd, expandHome(w, e.base.home))
			resolved, err := resolveWith(c.res, p, cwd)
			if err != nil || !insideAny(resolved, c.dirs) {
				return "", false
			}
			for _, r := range rules {
				if r.Behavior == runtime.Deny && c.families[r.Tool] == runtime.FamilyReadPath && !r.Whole() &&
					(matchPath(r.Content, filepath.Clean(p), e.base) || matchPath(r.Content, resolved, e.base)) {
					return "", false
				}
			}
			last = resolved
		}
		return last, true
	}
	for _, cmd := range c.shell.cmds {
		cd := len(cmd.words) > 0 && isCdWord(cmd.words[0]) && cmd.literal[0]
		if c.shell.followed {
			// The line's directory changes were followed: each command
			// is judged where it runs.
			if cmd.cwds == nil {
				return false
			}
			cwds = cmd.cwds
		}
		for i, w := range cmd.words {
			if i == 0 || !cmd.literal[i] {
				continue
			}
			if cd && !strings.HasPrefix(w, "-") {
				dir, ok := inside(w)
				if !ok {
					return false
				}
				if !c.shell.followed {
					cwds = append(cwds, dir)
				}
				continue
			}
			if j := strings.IndexByte(w, '='); j > 0 && strings.HasPrefix(w, "-") {
				w = w[j+1:]
			}
			if strings.HasPrefix(w, "-") {
				continue
			}
			if !(strings.Contains(w, "/") || strings.HasPrefix(w, "~") || strings.HasPrefix(w, "..") || strings.HasPrefix(w, ".")) {
				// A bare name is a path only when it exists; a symlink
				// may lead out of the working directories, in any
				// directory the command may run in.
				if !slices.ContainsFunc(cwds, func(d string) bool {
					fi, err := os.Lstat(joinRaw(d, w))
					return err == nil && fi.Mode()&os.ModeSymlink != 0
				}) {
					continue
				}
			}
			if _, ok := inside(w); !ok {
				return false
			}
		}
	}
	return true
}

func (c *call) describeTarget() string {
	switch c.target.Kind {
	case runtime.TargetCommand:
		return fmt.Sprintf(" with command %q", c.target.Value)
	case runtime.TargetPath:
		return fmt.Sprintf(" on %s", c.lexical)
	case runtime.TargetURL:
		return fmt.Sprintf(" for %s", c.target.Value)
	}
	if c.target.Value != "" {
		return fmt.Sprintf(" (%s)", c.target.Value)
	}
	return ""
}

// applies reports whether the rule concerns the call's tool: the rule
// names it, or the rule's tool declares a permission family the call
// belongs to (Read's path rules apply to every tool that reads a path,
// Edit's to every tool that writes one, and an Edit allow rule also
// allows reading). A blanket rule (Read, Edit) governs its tool only.
func (c *call) applies(r Rule) bool {
	if !c.familyOnly && r.matchesToolName(c.tool) {
		return true
	}
	if r.Whole() {
		return false
	}
	return c.families[r.Tool].Covers(c.target, r.Behavior == runtime.Allow)
}

// matches reports whether a deny or ask rule matches the call: for a
// shell line, any simple command in any of its forms.
func (e *Engine) matches(r Rule, c *call) bool {
	if !c.applies(r) {
		return false
	}
	if r.Whole() {
		return true
	}
	switch c.target.Kind {
	case runtime.TargetCommand:
		if matchCommand(r.Content, c.target.Value) {
			return true
		}
		for i := range c.shell.cmds {
			for _, f := range c.shell.denyFormsOf(i) {
				if matchCommand(r.Content, f) {
					return true
				}
			}
		}
		return false
	case runtime.TargetPath:
		return matchPath(r.Content, c.lexical, e.base) || matchPath(r.Content, c.resolved, e.base)
	case runtime.TargetURL:
		return matchURL(r.Content, c.target.Value)
	}
	return c.target.Value != "" && matchCommand(r.Content, c.target.Value)
}

// allowed reports whether allow rules cover the call: for a shell line,
// every simple command, and only when nothing in the line taints it.
func (e *Engine) allowed(rules []Rule, c *call) bool {
	var allows []Rule
	for _, r := range rules {
		if r.Behavior == runtime.Allow && c.applies(r) {
			if r.Whole() {
				return true
			}
			allows = append(allows, r)
		}
	}
	if len(allows) == 0 {
		return false
	}
	switch c.target.Kind {
	case runtime.TargetCommand:
		if c.shell.parseErr != nil || len(c.shell.taints) > 0 || len(c.shell.cmds) == 0 {
			return false
		}
		for i := range c.shell.cmds {
			if !anyAllowForm(allows, c.shell.allowFormsOf(i)) {
				return false
			}
		}
		return true
	case runtime.TargetPath:
		for _, r := range allows {
			if matchPath(r.Content, c.resolved, e.base) {
				return true
			}
		}
	case runtime.TargetURL:
		for _, r := range allows {
			if matchURL(r.Content, c.target.Value) {
				return true
			}
		}
	default:
		for _, r := range allows {
			if c.target.Value != "" && matchCommand(r.Content, c.target.Value) {
				return true
			}
		}
	}
	return false
}

func anyAllowForm(allows []Rule, forms []allowForm) bool {
	for _, f := range forms {
		for _, r := range allows {
			if matchCommand(r.Content, f.text) && literalWords(r.Content) >= f.reach {
				return true
			}
		}
	}
	return false
}

// suggestion is the rule the prompt's "always" answer adds, or "" when
// the call cannot be covered by one.
func (c *call) suggestion() string {
	name := c.tool.Name()
	switch c.target.Kind {
	case runtime.TargetCommand:
		if c.shell.parseErr != nil || len(c.shell.taints) > 0 || len(c.shell.cmds) != 1 {
			return ""
		}
		return Rule{Tool: name, Content: c.shell.cmds[0].text(true)}.String()
	case runtime.TargetPath:
		if IsProtectedPath(c.resolved) || IsProtectedPath(c.lexical) {
			return ""
		}
		return Rule{Tool: name, Content: "/" + filepath.ToSlash(filepath.Dir(c.resolved)) + "/**"}.String()
	case runtime.TargetURL:
		if h := hostOf(c.target.Value); h != "" {
			return Rule{Tool: name, Content: "domain:" + h}.String()
		}
		return ""
	}
	if c.target.Value != "" {
		// A named target (McpSampling(server)): the rule covers that name.
		return Rule{Tool: name, Content: c.target.Value}.String()
	}
	return name
}

func deny(msg string) runtime.PermissionDecision {
	return runtime.PermissionDecision{Behavior: runtime.Deny, Message: msg}
}

func ask(msg string) runtime.PermissionDecision {
	return runtime.PermissionDecision{Behavior: runtime.Ask, Message: msg}
}

// safeCheck calls the tool's CheckPermissions; a panic denies.
func safeCheck(ctx context.Context, t runtime.Tool, input any, tc *runtime.ToolContext) runtime.PermissionDecision {
	d, err := runtime.Guard("CheckPermissions", func() runtime.PermissionDecision { return t.CheckPermissions(ctx, input, tc) })
	var crash *runtime.Panic
	if errors.As(err, &crash) {
		return deny(fmt.Sprintf("%s: its permission check failed (%v); the call is denied", t.Name(), crash.Value))
	}
	return d
}

// readOnly is the call's bound IsReadOnly answer; a call without one
// is not read-only.
func (c *call) readOnly() bool { return c.inv != nil && c.inv.ReadOnly }

// readOrWrite is the verb of a path target.
func readOrWrite(writes bool) string {
	if writes {
		return "write"
	}
	return "read"
}
