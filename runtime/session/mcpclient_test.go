package session_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// scriptedAsker answers permission prompts with answer and puts
// elicitations to a real terminal Prompt reading the scripted input.
type scriptedAsker struct {
	answer ask.Answer
	prompt *ask.Prompt
	out    *bytes.Buffer

	mu   sync.Mutex
	asks []ask.AskRequest
}

func newScriptedAsker(answer ask.Answer, input string) *scriptedAsker {
	out := &bytes.Buffer{}
	return &scriptedAsker{answer: answer, prompt: ask.NewPrompt(strings.NewReader(input), out), out: out}
}

func (a *scriptedAsker) Ask(_ context.Context, req ask.AskRequest) (ask.Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asks = append(a.asks, req)
	return a.answer, nil
}

func (a *scriptedAsker) Elicit(ctx context.Context, req ask.ElicitRequest) (ask.ElicitAnswer, error) {
	return a.prompt.Elicit(ctx, req)
}

func (a *scriptedAsker) asked() []ask.AskRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.asks)
}

// npmServer is a .mcp.json entry for an npm reference server's command;
// the spec is skipped, saying why, when node or the package is missing.
func npmServer(name, bin string) mcp.Config {
	path := tooltest.NeedNpm(bin)
	return mcp.Config{Servers: map[string]mcp.ServerConfig{name: {Command: path}}}
}

func rules(b runtime.Behavior, list ...string) []permission.Rule {
	out, err := permission.ParseRules(list, b, permission.SourceFlag, "")
	Expect(err).NotTo(HaveOccurred())
	return out
}

var _ = Describe("the session as an MCP client", Label("node"), func() {
	var (
		dir string
		ctx context.Context
	)

	BeforeEach(func() {
		DeferCleanup(tooltest.LeakCheck(GinkgoT()))
		dir = GinkgoT().TempDir()
		ctx = context.Background()
	})

	// open opens a session on the MCP servers of cfg and waits until the
	// tools it needs are listed: server-everything registers the ones
	// that depend on the client's capabilities after the handshake.
	open := func(o session.Options, cfg mcp.Config, need ...string) *session.Session {
		o.Dir, o.Home, o.MCP, o.MCPWait = dir, dir, cfg, 30*time.Second
		s, err := session.Open(ctx, o)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		Eventually(func() []string {
			var names []string
			for _, t := range s.Tools() {
				names = append(names, t.Name())
			}
			return names
		}, 20*time.Second).Should(ContainElements(need), "%v", s.MCP().Servers())
		return s
	}
	exec := func(s *session.Session, name, input string) runtime.Result {
		var res runtime.Result
		for ev := range s.Exec(ctx, []orchestrate.ToolUse{{ID: "c", Name: name, Input: json.RawMessage(input)}}) {
			if ev.Kind == orchestrate.EventResult {
				res = ev.Result
			}
		}
		return res
	}
	// run plays a replay scenario and returns the text of its tool results.
	run := func(s *session.Session) []string {
		var results []string
		for ev := range s.Run(ctx, "go") {
			switch ev.Kind {
			case agent.EventToolResult:
				results = append(results, ev.Call.Result.Text())
			case agent.EventDone:
				Expect(ev.Outcome.Err).NotTo(HaveOccurred())
			}
		}
		return results
	}
	scenario := func(text string) *replay.Provider {
		sc, err := replay.Parse([]byte(text))
		Expect(err).NotTo(HaveOccurred())
		return replay.New(sc, replay.Options{})
	}
	// sampling calls server-everything's sampling tool; the sampling
	// request it makes takes the scenario's second turn.
	sampling := `{"name":"sampling"}
{"blocks":[{"type":"tool_use","id":"s1","name":"mcp__everything__trigger-sampling-request","input":{"prompt":"what is two and two?","maxTokens":50}}]}
{"blocks":[{"type":"text","text":"Two and two make four."}]}
{"blocks":[{"type":"text","text":"done"}]}`

	Describe("roots", func() {
		It("offers the working directories, and tells the servers when the session moves", func() {
			extra := GinkgoT().TempDir()
			moved := filepath.Join(dir, "wt")
			Expect(os.Mkdir(moved, 0o755)).To(Succeed())
			// move changes the working directory as EnterWorktree does.
			move := runtime.Define(runtime.Definition[struct{}]{
				Name:        "Move",
				Description: "Move switches the session into wt.",
				Decode:      func(json.RawMessage) (struct{}, error) { return struct{}{}, nil },
				Call: func(_ context.Context, _ struct{}, c *runtime.Call) (runtime.Result, error) {
					c.ModifyContext(func(tc *runtime.ToolContext) {
						tc.Cwd = moved
						tc.WorkingDirs = append([]string{moved}, tc.WorkingDirs...)
					})
					return runtime.Result{Content: []runtime.Block{runtime.TextBlock("moved")}}, nil
				},
			})
			s := open(session.Options{
				Tools: []runtime.Tool{move},
				Permissions: permission.Sources{AddDirs: []string{extra},
					Rules: rules(runtime.Allow, "mcp__everything", "Move")},
			}, npmServer("everything", "mcp-server-everything"), "mcp__everything__get-roots-list")

			res := exec(s, "mcp__everything__get-roots-list", `{}`)
			Expect(res.IsError).To(BeFalse(), res.Text())
			Expect(res.Text()).To(ContainSubstring("(2 total)"))
			Expect(res.Text()).To(ContainSubstring("URI: file://" + dir + "\n"))
			Expect(res.Text()).To(ContainSubstring("URI: file://" + extra + "\n"))

			Expect(exec(s, "Move", `{}`).Text()).To(Equal("moved"))
			Expect(s.MCP().Roots()).To(Equal([]string{moved, dir, extra}))
			// Exec waits (up to mcp.RootsRefreshWait) for the server to
			// list the roots again after notifications/roots/list_changed;
			// on a loaded machine the node server can take longer, so the
			// spec allows it more time.
			Eventually(func() string { return exec(s, "mcp__everything__get-roots-list", `{}`).Text() }, 15*time.Second).
				Should(And(ContainSubstring("(3 total)"), ContainSubstring("URI: file://"+moved+"\n")))
		})

		It("gives server-filesystem, started without directories, the working directories to serve", func() {
			Expect(os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello roots\n"), 0o644)).To(Succeed())
			s := open(session.Options{Permissions: permission.Sources{Rules: rules(runtime.Allow, "mcp__fs")}},
				npmServer("fs", "mcp-server-filesystem"), "mcp__fs__list_allowed_directories", "mcp__fs__read_text_file")
			real, err := filepath.EvalSymlinks(dir)
			Expect(err).NotTo(HaveOccurred())
			Eventually(func() string { return exec(s, "mcp__fs__list_allowed_directories", `{}`).Text() }, 10*time.Second).
				Should(ContainSubstring(real))
			res := exec(s, "mcp__fs__read_text_file", `{"path":"`+filepath.Join(dir, "hello.txt")+`"}`)
			Expect(res.IsError).To(BeFalse(), res.Text())
			Expect(res.Text()).To(ContainSubstring("hello roots"))
			res = exec(s, "mcp__fs__read_text_file", `{"path":"/etc/hostname"}`)
			Expect(res.Text()).To(ContainSubstring("outside allowed directories"))
		})
	})

	Describe("elicitation", func() {
		It("puts a server's form to the user through the ask handler, typed as the schema says", func() {
			// Required first (name), then by name.
			asker := newScriptedAsker(ask.AnswerDeny, strings.Join([]string{
				"1",               // fill in the form
				"Ada Lovelace",    // name
				"",                // birthdate: optional, skipped
				"y",               // check
				"not-an-email",    // email: asked again
				"ada@example.com", // email
				"",                // firstLine: the default
				"",                // homepage: optional, skipped
				"7",               // integer
				"2",               // legacyTitledEnum: Dogs
				"",                // number: the default
				"1,3",             // titledMultipleSelectEnum
				"3",               // titledSingleSelectEnum
				"2",               // untitledMultipleSelectEnum
				"Joey",            // untitledSingleSelectEnum, by value
			}, "\n")+"\n")
			s := open(session.Options{Permissions: permission.Sources{Asker: asker, Rules: rules(runtime.Allow, "mcp__everything")}},
				npmServer("everything", "mcp-server-everything"), "mcp__everything__trigger-elicitation-request")
			res := exec(s, "mcp__everything__trigger-elicitation-request", `{}`)
			Expect(res.IsError).To(BeFalse(), res.Text())
			Expect(asker.out.String()).To(ContainSubstring(`MCP server "everything" asks for input:`))
			Expect(asker.out.String()).To(ContainSubstring(`"not-an-email" is not an email address.`))
			Expect(res.Text()).To(ContainSubstring("User provided the requested information"))
			raw := res.Text()[strings.Index(res.Text(), "Raw result: ")+len("Raw result: "):]
			var got struct {
				Action  string         `json:"action"`
				Content map[string]any `json:"content"`
			}
			Expect(json.Unmarshal([]byte(raw), &got)).To(Succeed(), raw)
			Expect(got.Action).To(Equal("accept"))
			Expect(got.Content).To(HaveKeyWithValue("name", "Ada Lovelace"))
			Expect(got.Content).To(HaveKeyWithValue("check", true))
			Expect(got.Content).To(HaveKeyWithValue("email", "ada@example.com"))
			Expect(got.Content).To(HaveKeyWithValue("firstLine", "It was a dark and stormy night."))
			Expect(got.Content).NotTo(HaveKey("homepage"))
			Expect(got.Content).To(HaveKeyWithValue("integer", 7.0))
			Expect(got.Content).To(HaveKeyWithValue("legacyTitledEnum", "pet-2"))
			Expect(got.Content).To(HaveKeyWithValue("number", 3.14))
			Expect(got.Content).To(HaveKeyWithValue("titledMultipleSelectEnum", []any{"fish-1", "fish-3"}))
			Expect(got.Content).To(HaveKeyWithValue("titledSingleSelectEnum", "hero-3"))
			Expect(got.Content).To(HaveKeyWithValue("untitledMultipleSelectEnum", []any{"Piano"}))
			Expect(got.Content).To(HaveKeyWithValue("untitledSingleSelectEnum", "Joey"))
		})

		It("shows a URL and says whether the user opened it", func() {
			asker := newScriptedAsker(ask.AnswerDeny, "1\n")
			s := open(session.Options{Permissions: permission.Sources{Asker: asker, Rules: rules(runtime.Allow, "mcp__everything")}},
				npmServer("everything", "mcp-server-everything"), "mcp__everything__trigger-url-elicitation")
			res := exec(s, "mcp__everything__trigger-url-elicitation", `{"url":"https://example.com/consent","message":"Sign in to go on."}`)
			Expect(res.IsError).To(BeFalse(), res.Text())
			Expect(asker.out.String()).To(ContainSubstring("Sign in to go on.\n  URL: https://example.com/consent\n"))
			Expect(res.Text()).To(ContainSubstring("User completed the URL elicitation flow"))
		})

		It("declines with a reason, told to the model, when nobody can answer", func() {
			prov := scenario(`{"name":"elicit"}
{"blocks":[{"type":"tool_use","id":"e1","name":"mcp__everything__trigger-elicitation-request","input":{}}]}
{"blocks":[{"type":"text","text":"done"}]}`)
			s := open(session.Options{Provider: prov, Permissions: permission.Sources{Rules: rules(runtime.Allow, "mcp__everything")}},
				npmServer("everything", "mcp-server-everything"), "mcp__everything__trigger-elicitation-request")
			results := run(s)
			Expect(results).To(HaveLen(1))
			Expect(results[0]).To(ContainSubstring("User declined to provide the requested information"))
			Expect(results[0]).To(ContainSubstring(`"agentcore/declineReason": "agentcore declined MCP server \"everything\"'s request for input (form mode) without asking: nobody can answer it in this run`))
			msgs := s.Messages()
			last := msgs[len(msgs)-2] // the tool results and the notice; then the final answer
			Expect(last.Content[len(last.Content)-1].Text).To(ContainSubstring("nobody can answer it in this run"))
		})
	})

	Describe("sampling", func() {
		It("answers with the session's model when a rule allows it", func() {
			s := open(session.Options{Provider: scenario(sampling),
				Permissions: permission.Sources{Rules: rules(runtime.Allow, "mcp__everything", "McpSampling(everything)")}},
				npmServer("everything", "mcp-server-everything"), "mcp__everything__trigger-sampling-request")
			results := run(s)
			Expect(results).To(HaveLen(1))
			Expect(results[0]).To(ContainSubstring(`"text": "Two and two make four."`))
			Expect(results[0]).To(ContainSubstring(`"model": "replay:sampling"`))
		})

		It("asks the user first, and an always answer allows the server for the session", func() {
			asker := newScriptedAsker(ask.AnswerAllowSession, "")
			twice := `{"name":"sampling"}
{"blocks":[{"type":"tool_use","id":"s1","name":"mcp__everything__trigger-sampling-request","input":{"prompt":"first"}}]}
{"blocks":[{"type":"text","text":"one"}]}
{"blocks":[{"type":"tool_use","id":"s2","name":"mcp__everything__trigger-sampling-request","input":{"prompt":"second"}}]}
{"blocks":[{"type":"text","text":"two"}]}
{"blocks":[{"type":"text","text":"done"}]}`
			s := open(session.Options{Provider: scenario(twice),
				Permissions: permission.Sources{Asker: asker, Rules: rules(runtime.Allow, "mcp__everything")}},
				npmServer("everything", "mcp-server-everything"), "mcp__everything__trigger-sampling-request")
			results := run(s)
			Expect(results).To(HaveLen(2))
			Expect(results[0]).To(ContainSubstring(`"text": "one"`))
			Expect(results[1]).To(ContainSubstring(`"text": "two"`))
			asks := asker.asked()
			Expect(asks).To(HaveLen(1), "the second request is allowed by the session rule")
			Expect(asks[0].Tool).To(Equal("McpSampling"))
			Expect(asks[0].Suggestion).To(Equal("McpSampling(everything)"))
			Expect(asks[0].Detail).To(ContainSubstring("user: Resource trigger-sampling-request context: first"))
		})

		It("refuses in a non-interactive run without a rule, saying how to allow it", func() {
			prov := scenario(`{"name":"sampling"}
{"blocks":[{"type":"tool_use","id":"s1","name":"mcp__everything__trigger-sampling-request","input":{"prompt":"hi"}}]}
{"blocks":[{"type":"text","text":"done"}]}`)
			s := open(session.Options{Provider: prov, Permissions: permission.Sources{Rules: rules(runtime.Allow, "mcp__everything")}},
				npmServer("everything", "mcp-server-everything"), "mcp__everything__trigger-sampling-request")
			results := run(s)
			Expect(results).To(HaveLen(1))
			Expect(results[0]).To(ContainSubstring("McpSampling (everything) needs the user's approval, and this run is non-interactive"))
			Expect(results[0]).To(ContainSubstring("add 'McpSampling(everything)' to permissions.allow"))
		})

		It("is refused by a deny rule even when the user would approve", func() {
			asker := newScriptedAsker(ask.AnswerAllowOnce, "")
			prov := scenario(`{"name":"sampling"}
{"blocks":[{"type":"tool_use","id":"s1","name":"mcp__everything__trigger-sampling-request","input":{"prompt":"hi"}}]}
{"blocks":[{"type":"text","text":"done"}]}`)
			s := open(session.Options{Provider: prov, Permissions: permission.Sources{Asker: asker,
				Rules: append(rules(runtime.Allow, "mcp__everything"), rules(runtime.Deny, "McpSampling")...)}},
				npmServer("everything", "mcp-server-everything"), "mcp__everything__trigger-sampling-request")
			results := run(s)
			Expect(results[0]).To(ContainSubstring("has been denied by the rule McpSampling"))
			Expect(asker.asked()).To(BeEmpty())
		})
	})
})
