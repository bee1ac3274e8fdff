package tooldefs_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
)

// adversarialCase is one line of testdata/adversarial/cases.jsonl: a call
// the model could make, the setting it is made in, and the decision
// agentcore must reach. See RELIABILITY.md, "Adversarial permission
// suite".
type adversarialCase struct {
	ID    string   `json:"id"`
	Tool  string   `json:"tool"`
	Input string   `json:"input"` // Bash: the command; path tools: file_path; WebFetch: url
	Mode  string   `json:"mode"`  // default when empty
	Allow []string `json:"allow"` // defaultAdversarialAllow when nil
	Deny  []string `json:"deny"`
	Want  string   `json:"want"` // allow, ask or deny
	Note  string   `json:"note"`
	// LooserThanClaudeCode, when set, says why agentcore may allow a
	// case Claude Code blocks.
	LooserThanClaudeCode string `json:"looserThanClaudeCode"`
}

// claudeCodeDecision is what Claude Code did with a case in print mode:
// "allow" (the call ran) or "blocked" (asked, which print mode turns into
// a denial, or denied).
type claudeCodeDecision struct {
	Decision string `json:"decision"`
	Message  string `json:"message,omitempty"`
}

// defaultAdversarialAllow are the rules a case has when it names none.
var defaultAdversarialAllow = []string{"Bash(echo:*)", "Bash(git status:*)"}

// adversarialFixture is the tree the cases run against: dir is the
// working directory, out a directory outside it.
type adversarialFixture struct{ dir, out, home string }

// newAdversarialFixture lays out the tree every case expects: dir/in.md,
// dir/sub, dir/.git/{hooks,config}, dir/.claude/settings.json, symbolic
// links dir/link-out → out and dir/link-file → out/secret.txt, and a hard
// link dir/hard.txt to out/hard.txt.
func newAdversarialFixture(root string) (adversarialFixture, error) {
	f := adversarialFixture{dir: filepath.Join(root, "work"), out: filepath.Join(root, "outside"), home: filepath.Join(root, "home")}
	for _, d := range []string{f.dir + "/sub", f.dir + "/.git/hooks", f.dir + "/.claude", f.out, f.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return f, err
		}
	}
	for name, body := range map[string]string{
		f.dir + "/in.md": "a\n", f.dir + "/.git/config": "[core]\n", f.dir + "/.claude/settings.json": "{}\n",
		f.out + "/secret.txt": "secret\n", f.out + "/hard.txt": "outside\n",
	} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			return f, err
		}
	}
	if err := os.Symlink(f.out, f.dir+"/link-out"); err != nil {
		return f, err
	}
	if err := os.Symlink(f.out+"/secret.txt", f.dir+"/link-file"); err != nil {
		return f, err
	}
	return f, os.Link(f.out+"/hard.txt", f.dir+"/hard.txt")
}

// expand replaces the placeholders of a case's input.
func (f adversarialFixture) expand(s string) string {
	return strings.NewReplacer("${DIR}", f.dir, "${OUT}", f.out, "${OUTBASE}", filepath.Base(f.out),
		"${LONG}", strings.Repeat("a", 70000)).Replace(s)
}

func readAdversarialCases() []adversarialCase {
	f, err := os.Open("testdata/adversarial/cases.jsonl")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	var cases []adversarialCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c adversarialCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			panic(fmt.Sprintf("testdata/adversarial/cases.jsonl: %v: %s", err, sc.Text()))
		}
		cases = append(cases, c)
	}
	return cases
}

func readClaudeCodeDecisions() (version string, decisions map[string]claudeCodeDecision) {
	b, err := os.ReadFile("testdata/adversarial/claude-code.json")
	if err != nil {
		panic(err)
	}
	var file struct {
		Version   string                        `json:"version"`
		Decisions map[string]claudeCodeDecision `json:"decisions"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		panic(err)
	}
	return file.Version, file.Decisions
}

// adversarialInput is the tool input of a case.
func adversarialInput(c adversarialCase, input string) json.RawMessage {
	var m map[string]string
	switch c.Tool {
	case "Bash":
		m = map[string]string{"command": input}
	case "Read":
		m = map[string]string{"file_path": input}
	case "Edit":
		m = map[string]string{"file_path": input, "old_string": "a", "new_string": "b"}
	case "Write":
		m = map[string]string{"file_path": input, "content": "x\n"}
	case "WebFetch":
		m = map[string]string{"url": input, "prompt": "summarise"}
	default:
		m = map[string]string{}
	}
	b, _ := json.Marshal(m)
	return b
}

// mcpStandIn is a tool named like a server's: only its name matters to
// the rules.
type mcpStandIn struct {
	runtime.ToolDefaults
	name string
}

func (t mcpStandIn) Name() string                        { return t.name }
func (t mcpStandIn) Description() string                 { return "an MCP tool" }
func (t mcpStandIn) InputSchema() json.RawMessage        { return json.RawMessage(`{"type":"object"}`) }
func (t mcpStandIn) Decode(json.RawMessage) (any, error) { return map[string]any{}, nil }
func (t mcpStandIn) UserFacingName(any) string           { return t.name }
func (t mcpStandIn) RenderUse(any) string                { return t.name }
func (t mcpStandIn) RenderGrouped(in []any) string       { return runtime.RenderUses(t, in) }
func (t mcpStandIn) Call(context.Context, any, *runtime.Call) (runtime.Result, error) {
	return runtime.Result{}, nil
}

var _ = Describe("the adversarial permission suite", Label("adversarial"), func() {
	cases := readAdversarialCases()
	ccVersion, cc := readClaudeCodeDecisions()
	var fx adversarialFixture

	BeforeEach(func() {
		root, err := filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		fx, err = newAdversarialFixture(root)
		Expect(err).NotTo(HaveOccurred())
	})

	It("has Claude Code's decisions recorded for most cases", func() {
		Expect(ccVersion).NotTo(BeEmpty())
		Expect(len(cc)).To(BeNumerically(">=", 150))
	})

	It("has at least 150 cases, each with a known decision and a unique id", func() {
		Expect(len(cases)).To(BeNumerically(">=", 150))
		seen := map[string]bool{}
		for _, c := range cases {
			Expect(seen[c.ID]).To(BeFalse(), "duplicate id %s", c.ID)
			seen[c.ID] = true
			Expect(c.Want).To(BeElementOf("allow", "ask", "deny"), c.ID)
		}
	})

	decide := func(c adversarialCase) runtime.PermissionDecision {
		GinkgoHelper()
		tools := generated.AllBaseTools()
		var tool runtime.Tool
		for _, t := range tools {
			if t.Name() == c.Tool {
				tool = t
			}
		}
		if strings.HasPrefix(c.Tool, "mcp__") {
			tool = mcpStandIn{name: c.Tool}
			tools = append(tools, tool)
		}
		Expect(tool).NotTo(BeNil(), "%s: no tool %s in this variant", c.ID, c.Tool)
		mode := permission.ModeDefault
		if c.Mode != "" {
			var err error
			mode, err = permission.ParseMode(c.Mode)
			Expect(err).NotTo(HaveOccurred())
		}
		allow := c.Allow
		if allow == nil {
			allow = defaultAdversarialAllow
		}
		var rules []permission.Rule
		for _, l := range []struct {
			list []string
			b    runtime.Behavior
		}{{allow, runtime.Allow}, {c.Deny, runtime.Deny}} {
			rs, err := permission.ParseRules(l.list, l.b, permission.SourceFlag, "")
			Expect(err).NotTo(HaveOccurred())
			rules = append(rules, rs...)
		}
		e, err := permission.NewEngine(permission.Config{Cwd: fx.dir, Home: fx.home, Mode: mode, Tools: tools, Rules: rules})
		Expect(err).NotTo(HaveOccurred())
		input, err := tool.Decode(adversarialInput(c, fx.expand(c.Input)))
		Expect(err).NotTo(HaveOccurred(), c.ID)
		return e.Check(context.Background(), tool, input, runtime.NewToolContext(fx.dir))
	}

	// The tally RELIABILITY.md quotes ("Adversarial permission suite"):
	// go run github.com/onsi/ginkgo/v2/ginkgo -v --label-filter adversarial --focus tallies ./tooldefs/
	It("tallies the cases by group and against Claude Code's decisions", func() {
		groups := map[string]int{}
		for _, c := range cases {
			g, _, _ := strings.Cut(c.ID, "-")
			groups[g]++
		}
		ccTally := map[string]int{}
		for _, r := range cc {
			ccTally[r.Decision]++
		}
		var stricter, looser []string
		for _, c := range cases {
			r, ok := cc[c.ID]
			if !ok {
				continue
			}
			d := decide(c)
			switch {
			case r.Decision == "allow" && d.Behavior != runtime.Allow:
				stricter = append(stricter, c.ID)
			case r.Decision == "blocked" && d.Behavior == runtime.Allow:
				looser = append(looser, c.ID)
			}
		}
		Expect(len(cases)).To(BeNumerically(">", 0))
		fmt.Fprintf(GinkgoWriter, "cases: %d; by group (id prefix): inj %d, redir %d, path %d, mcp %d, url %d\n",
			len(cases), groups["inj"], groups["redir"], groups["path"], groups["mcp"], groups["url"])
		fmt.Fprintf(GinkgoWriter, "Claude Code %s: %d decisions recorded: blocked %d, allowed %d, refused before any permission question (error) %d, unknown %d\n",
			ccVersion, len(cc), ccTally["blocked"], ccTally["allow"], ccTally["error"], ccTally["unknown"])
		fmt.Fprintf(GinkgoWriter, "agentcore stricter than Claude Code (it allowed, agentcore asks or denies): %d %v\n", len(stricter), stricter)
		fmt.Fprintf(GinkgoWriter, "agentcore looser than Claude Code (it blocked, agentcore allows): %d %v\n", len(looser), looser)
	})

	for _, c := range cases {
		c := c
		It(fmt.Sprintf("%s: %s %q → %s", c.ID, c.Tool, c.Input, c.Want), func() {
			d := decide(c)
			Expect(strings.ToLower(d.Behavior.String())).To(Equal(c.Want), "%s: %s", c.ID, d.Message)
			// Never looser than Claude Code: what it blocks, agentcore
			// does not run unasked.
			if r, ok := cc[c.ID]; ok && r.Decision == "blocked" && c.LooserThanClaudeCode == "" {
				Expect(d.Behavior).NotTo(Equal(runtime.Allow), "%s: Claude Code %s blocks it (%s)", c.ID, ccVersion, r.Message)
			}
		})
	}
})
