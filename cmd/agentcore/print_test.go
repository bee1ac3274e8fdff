//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// answeringAPI is a Messages API on loopback that answers every request
// with text, keeping the request bodies.
func answeringAPI(text string) (*httptest.Server, func() []map[string]any) {
	return recordingAPI(func(_ int, w http.ResponseWriter) {
		fakeReply{InputTokens: 5, OutputTokens: 2, Blocks: []fakeBlock{{Text: text}}}.write(w)
	})
}

// agentcoreRoot runs `agentcore args…` (no subcommand) in a temp dir with
// stdin and extra environment; it returns stdout, stderr and the exit code.
func agentcoreRoot(stdin string, env []string, args ...string) (string, string, int) {
	dir := GinkgoT().TempDir()
	return invoke(invocation{dir: dir, home: dir, configDir: dir, stdin: stdin, env: env}, args...)
}

var _ = Describe("agentcore -p, Claude Code's print mode", func() {
	It("prints only the final answer on stdout, the prompt positional", func() {
		srv, bodies := answeringAPI("pong")
		stdout, stderr, code := agentcoreRoot("", []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL},
			"-p", "ping", "--model", "claude-fake-1", "--append-system-prompt", "Answer in one word.")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(Equal("pong\n"))
		Expect(stderr).NotTo(ContainSubstring("pong"), "no transcript without --verbose")
		Expect(bodies()).To(HaveLen(1))
		body := bodies()[0]
		Expect(body).To(HaveKeyWithValue("model", "claude-fake-1"), "a bare model name is Anthropic's")
		system, _ := json.Marshal(body["system"])
		Expect(string(system)).To(ContainSubstring("Answer in one word."))
		Expect(string(system)).To(ContainSubstring("agentcore"), "appended to the default prompt, not replacing it")
		msgs, _ := json.Marshal(body["messages"])
		Expect(string(msgs)).To(ContainSubstring(`"ping"`))
	})

	It("reads the prompt from standard input and shows the transcript on stderr with --verbose", func() {
		srv, bodies := answeringAPI("pong")
		stdout, stderr, code := agentcoreRoot("ping from stdin\n", []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL},
			"-p", "--verbose", "--model", "anthropic:fake")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(Equal("pong\n"))
		Expect(stderr).To(ContainSubstring("> ping from stdin"))
		msgs, _ := json.Marshal(bodies()[0]["messages"])
		Expect(string(msgs)).To(ContainSubstring("ping from stdin"))
	})

	It("fails without a key or a model, saying how to set one, instead of playing the replay model", func() {
		stdout, stderr, code := agentcoreRoot("", nil, "-p", "hello")
		Expect(code).To(Equal(1))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(ContainSubstring("set ANTHROPIC_API_KEY"))
		Expect(stderr).To(ContainSubstring("--model: replay"))
	})

	It("runs offline when the replay model is named", func() {
		stdout, stderr, code := agentcoreRoot("", nil, "-p", "--model", "replay", "look around")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring("This was a scripted replay"))
		Expect(stdout).NotTo(ContainSubstring("●"), "only the answer")
	})

	It("takes rule flags in Claude Code's forms: several values after one flag, commas, kebab-case", func() {
		stdout, stderr, code := agentcoreRoot("", nil, "tools", "--json",
			"--disallowedTools", "Write", "Edit", "--disallowed-tools", "NotebookEdit,WebFetch")
		Expect(code).To(Equal(0), stderr)
		var tools []map[string]any
		Expect(json.Unmarshal([]byte(stdout), &tools)).To(Succeed())
		var names []string
		for _, t := range tools {
			names = append(names, t["name"].(string))
		}
		Expect(names).To(ContainElement("Read"))
		Expect(names).NotTo(ContainElements("Write"))
		Expect(names).NotTo(ContainElements("Edit"))
		Expect(names).NotTo(ContainElements("NotebookEdit"))
		Expect(names).NotTo(ContainElements("WebFetch"))
	})
})
