package mcp_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

func promptNames(ps []mcp.Prompt) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.CommandName()
	}
	return out
}

func getPrompt(m *mcp.Manager, server, name string, args map[string]string) ([]mcp.PromptMessage, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return m.GetPrompt(ctx, server, name, args)
}

var _ = Describe("MCP prompts", func() {
	Context("with the tool server", func() {
		var m *mcp.Manager
		BeforeEach(func() {
			m = start(map[string]mcp.ServerConfig{"my.tools": stdio(bins.Tool), "docs": stdio(bins.Resource)}, mcp.Options{})
			waitAll(m)
		})

		It("lists each server's prompts with their arguments in order, named mcp__<server>__<prompt>", func() {
			ps := m.Prompts()
			Expect(promptNames(ps)).To(Equal([]string{
				"mcp__my_tools__broken", "mcp__my_tools__greet", "mcp__my_tools__grow", "mcp__my_tools__mixed",
			}))
			greet := ps[1]
			Expect(greet.Server).To(Equal("my.tools"))
			Expect(greet.Title).To(Equal("Greeting"))
			Expect(greet.Description).To(Equal("Asks for a greeting of name, in style if given."))
			Expect(greet.Arguments).To(Equal([]mcp.PromptArgument{
				{Name: "name", Description: "who to greet", Required: true},
				{Name: "style", Description: "how to greet"},
			}))
			Expect(greet.Usage()).To(Equal("/mcp__my_tools__greet name [style]"))
			Expect(state(m, "my.tools").Prompts).To(Equal(4))
			Expect(state(m, "docs").Prompts).To(BeZero())
		})

		It("gets a prompt with its arguments and returns its messages as text", func() {
			msgs, err := getPrompt(m, "my.tools", "greet", map[string]string{"name": "Ada", "style": "a sonnet"})
			Expect(err).NotTo(HaveOccurred())
			Expect(msgs).To(Equal([]mcp.PromptMessage{{Role: "user", Text: "Write a greeting for Ada in the style: a sonnet."}}))
			Expect(mcp.PromptText(msgs)).To(Equal("Write a greeting for Ada in the style: a sonnet."))
		})

		It("maps a command line's words onto the arguments in order, the rest joining the last", func() {
			greet := m.Prompts()[1]
			args, err := greet.ParseArgs("  Ada  ")
			Expect(err).NotTo(HaveOccurred())
			Expect(args).To(Equal(map[string]string{"name": "Ada"}))
			args, err = greet.ParseArgs("Ada as a limerick please")
			Expect(err).NotTo(HaveOccurred())
			Expect(args).To(Equal(map[string]string{"name": "Ada", "style": "as a limerick please"}))

			_, err = greet.ParseArgs("")
			Expect(err).To(MatchError(`MCP prompt "greet" of server "my.tools": missing required argument name; usage: /mcp__my_tools__greet name [style]`))
			_, err = m.Prompts()[3].ParseArgs("surplus")
			Expect(err).To(MatchError(ContainSubstring(`takes no arguments; run it as /mcp__my_tools__mixed`)))
		})

		It("describes content that is not text instead of dropping it", func() {
			msgs, err := getPrompt(m, "my.tools", "mixed", nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(msgs).To(Equal([]mcp.PromptMessage{
				{Role: "user", Text: "first, as text"},
				{Role: "assistant", Text: "an assistant turn"},
				{Role: "user", Text: "[Image from my.tools: image/png, 67 bytes, not included]"},
				{Role: "user", Text: "[Audio from my.tools: audio/wav, 8 bytes, not included]"},
				{Role: "user", Text: "[Resource from my.tools at file:///notes.txt] the notes"},
				{Role: "user", Text: "[Resource from my.tools at file:///blob.bin] binary content (application/octet-stream, 3 bytes), not included"},
				{Role: "user", Text: "[Resource link: spec] https://example.invalid/spec (the spec)"},
			}))
			Expect(mcp.PromptText(msgs)).To(HavePrefix("first, as text\n\nan assistant turn\n\n[Image from"))
		})

		It("says which prompts exist when asked for an unknown one, and which argument is missing", func() {
			_, err := getPrompt(m, "my.tools", "nope", nil)
			Expect(err).To(MatchError(`MCP server "my.tools" has no prompt named "nope"; its prompts: "broken", "greet", "grow", "mixed"`))
			_, err = getPrompt(m, "my.tools", "greet", map[string]string{"style": "terse"})
			Expect(err).To(MatchError(`MCP prompt "greet" of server "my.tools": missing required argument name; usage: /mcp__my_tools__greet name [style]`))
			_, err = getPrompt(m, "docs", "greet", nil)
			Expect(err).To(MatchError(`MCP server "docs" offers no prompts, so it has none named "greet"`))
			_, err = getPrompt(m, "nobody", "greet", nil)
			Expect(err).To(MatchError(ContainSubstring(`no MCP server named "nobody"; configured servers: "docs", "my.tools"`)))
		})

		It("names the server and prompt when the server answers with an error", func() {
			_, err := getPrompt(m, "my.tools", "broken", nil)
			Expect(err).To(MatchError(And(
				ContainSubstring(`MCP server "my.tools": prompt "broken" failed`),
				ContainSubstring("the broken prompt is broken"))))
			Expect(state(m, "my.tools").State).To(Equal(mcp.StateConnected), "a server's error keeps the connection")
		})

		It("lists the prompts again when the server says they changed", func() {
			Expect(promptNames(m.Prompts())).NotTo(ContainElement("mcp__my_tools__grown"))
			msgs, err := getPrompt(m, "my.tools", "grow", nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(mcp.PromptText(msgs)).To(Equal("grew"))
			Eventually(func() []string { return promptNames(m.Prompts()) }).
				WithTimeout(10 * time.Second).Should(ContainElement("mcp__my_tools__grown"))
			msgs, err = getPrompt(m, "my.tools", "grown", nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(mcp.PromptText(msgs)).To(Equal("grown ok"))
		})
	})

	It("keeps a server's tools when its prompts cannot be listed, and says why a prompt is unknown", func() {
		broken := stdio(bins.Tool)
		broken.Env = map[string]string{"TOOLSERVER_BREAK_PROMPTS": "1"}
		m := start(map[string]mcp.ServerConfig{"tools": broken}, mcp.Options{})
		waitAll(m)
		st := state(m, "tools")
		Expect(st.State).To(Equal(mcp.StateConnected))
		Expect(st.Tools).To(Equal(12))
		Expect(st.Prompts).To(BeZero())
		Expect(st.PromptErr).To(MatchError(ContainSubstring("the prompt store is offline")))
		Expect(m.Prompts()).To(BeEmpty())
		_, err := getPrompt(m, "tools", "greet", map[string]string{"name": "Ada"})
		Expect(err).To(MatchError(And(
			ContainSubstring(`MCP server "tools": its prompts could not be listed (list prompts:`),
			ContainSubstring(`the prompt store is offline), so prompt "greet" is unknown; /mcp shows the server's state`))))
		Expect(call(find(m, "mcp__tools__echo"), `{"text":"still here"}`).Text()).To(Equal("still here"))
	})

	It("lists and gets the prompts of the reference server-everything", Label("node"), func() {
		bin := tooltest.NeedNpm("mcp-server-everything")
		m := start(map[string]mcp.ServerConfig{"everything": stdio(bin)}, mcp.Options{})
		waitAll(m)
		Expect(promptNames(m.Prompts())).To(ContainElements("mcp__everything__simple-prompt", "mcp__everything__args-prompt"))
		var args mcp.Prompt
		for _, p := range m.Prompts() {
			if p.Name == "args-prompt" {
				args = p
			}
		}
		Expect(args.Usage()).To(Equal("/mcp__everything__args-prompt city [state]"))
		in, err := args.ParseArgs("Boston MA")
		Expect(err).NotTo(HaveOccurred())
		msgs, err := getPrompt(m, "everything", "args-prompt", in)
		Expect(err).NotTo(HaveOccurred())
		Expect(mcp.PromptText(msgs)).To(Equal("What's weather in Boston, MA?"))
	})
})
