//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

// promptAPI is a fake Messages API that answers every request with
// answer and keeps each request's messages, as JSON.
type promptAPI struct {
	mu       sync.Mutex
	messages []string
}

func (a *promptAPI) start(answer string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct{ Messages json.RawMessage }
		_ = json.NewDecoder(r.Body).Decode(&body)
		a.mu.Lock()
		a.messages = append(a.messages, string(body.Messages))
		a.mu.Unlock()
		fakeReply{InputTokens: 5, OutputTokens: 2, Blocks: []fakeBlock{{Text: answer}}}.write(w)
	}))
	DeferCleanup(srv.Close)
	return srv.URL
}

func (a *promptAPI) requests() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.messages...)
}

// mcpSession runs the interactive session against api with the MCP
// servers of servers (name → command), and waits until /mcp shows want.
func mcpSession(servers map[string]string, apiURL, want string) tmuxTerm {
	GinkgoHelper()
	dir := GinkgoT().TempDir()
	cfg := map[string]any{}
	for name, cmd := range servers {
		cfg[name] = map[string]any{"command": cmd}
	}
	data, err := json.Marshal(map[string]any{"mcpServers": cfg})
	Expect(err).NotTo(HaveOccurred())
	Expect(os.WriteFile(filepath.Join(dir, ".mcp.json"), data, 0o644)).To(Succeed())
	t := startSessionEnv(dir, 120, 40, []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + apiURL}, "--model", "anthropic:fake")
	// The servers connect in the background: ask again until they are up.
	Eventually(func() string {
		t.typeLine("/mcp")
		time.Sleep(300 * time.Millisecond)
		return t.screen()
	}, 30*time.Second, 200*time.Millisecond).Should(ContainSubstring(want))
	return t
}

var _ = Describe("MCP prompts as slash commands in the interactive session (tmux)", Label("tmux"), func() {
	BeforeEach(func() {
		tooltest.Need(tooltest.Tmux)
	})

	It("lists a server's prompts in /mcp and /help, and /mcp__server__prompt ARGS sends the prompt's text to the model", func() {
		toolserver, err := gexec.Build("github.com/agentcore/agentcore/runtime/mcp/testdata/toolserver")
		Expect(err).NotTo(HaveOccurred())
		var api promptAPI
		t := mcpSession(map[string]string{"tools": toolserver}, api.start("GREETING-SENT"), "tools (stdio): connected, 12 tools, 4 prompts")
		scr := t.screen()
		Expect(scr).To(ContainSubstring("/mcp__tools__greet name [style]  Asks for a greeting of name, in style if given."))
		Expect(scr).To(ContainSubstring("/mcp__tools__mixed  Returns one message of every content type."))

		t.typeLine("/help")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(MatchRegexp(
			`/mcp__tools__greet\s+MCP prompt \(tools\) name \[style\]: Asks for a greeting of name, in style if given\.`))

		t.typeLine("/mcp__tools__greet")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring(
			`missing required argument name; usage: /mcp__tools__greet name [style]`))
		t.typeLine("/mcp__tools__broken")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring(
			`/mcp__tools__broken: MCP server "tools": prompt "broken" failed`))
		Expect(api.requests()).To(BeEmpty(), "a command that fails asks the model nothing")

		t.typeLine("/mcp__tools__greet Ada as a sonnet")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("GREETING-SENT"))
		Expect(t.all()).To(ContainSubstring("> /mcp__tools__greet Ada as a sonnet"))
		Expect(t.all()).NotTo(ContainSubstring("Write a greeting for Ada"), "the prompt goes to the model, not on the screen")
		reqs := api.requests()
		Expect(reqs).To(HaveLen(1))
		Expect(reqs[0]).To(ContainSubstring("Write a greeting for Ada in the style: as a sonnet."))
		Expect(reqs[0]).NotTo(ContainSubstring("/mcp__tools__greet"), "the model gets the prompt's messages, not the command")
		Eventually(t.screen, 5*time.Second, 100*time.Millisecond).Should(ContainSubstring("· ready"))
	})

	It("runs the reference server-everything's args-prompt", Label("node"), func() {
		bin := tooltest.NeedNpm("mcp-server-everything")
		var api promptAPI
		t := mcpSession(map[string]string{"everything": bin}, api.start("WEATHER-ASKED"), "/mcp__everything__args-prompt city [state]")
		t.typeLine("/mcp__everything__args-prompt Boston MA")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("WEATHER-ASKED"))
		reqs := api.requests()
		Expect(reqs).To(HaveLen(1))
		Expect(reqs[0]).To(ContainSubstring("What's weather in Boston, MA?"))
	})
})
