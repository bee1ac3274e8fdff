//go:build !internal && !ant

package main_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("agentcore mcp serve", func() {
	var (
		dir string
		cs  *sdk.ClientSession
	)

	// elicit, when set, answers the server's elicitation requests (the
	// client then declares the capability).
	var elicit func(*sdk.ElicitRequest) *sdk.ElicitResult

	// connect starts `agentcore mcp serve args...` in dir and connects a
	// go-sdk client to it over stdio.
	connect := func(args ...string) {
		home := GinkgoT().TempDir()
		cmd := exec.Command(binaries["external"], append([]string{"mcp", "serve"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "AGENTCORE_CONFIG_DIR="+filepath.Join(home, ".agentcore"))
		cmd.Stderr = GinkgoWriter
		var copts *sdk.ClientOptions
		if elicit != nil {
			copts = &sdk.ClientOptions{ElicitationHandler: func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
				return elicit(req), nil
			}}
		}
		client := sdk.NewClient(&sdk.Implementation{Name: "spec", Version: "v1"}, copts)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var err error
		cs, err = client.Connect(ctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(cs.Close)
	}

	callTool := func(name string, args map[string]any) (bool, string) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		Expect(err).NotTo(HaveOccurred())
		var b strings.Builder
		for _, c := range res.Content {
			if t, ok := c.(*sdk.TextContent); ok {
				b.WriteString(t.Text)
			}
		}
		return res.IsError, b.String()
	}

	BeforeEach(func() {
		elicit = nil
		dir = GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("first line\nsecond line\n"), 0o644)).To(Succeed())
	})

	It("lists the build's tools with schemas and annotations", func() {
		connect()
		tools := map[string]*sdk.Tool{}
		for t, err := range cs.Tools(context.Background(), nil) {
			Expect(err).NotTo(HaveOccurred())
			tools[t.Name] = t
		}
		Expect(tools).To(HaveKey("Read"))
		Expect(tools).To(HaveKey("Write"))
		Expect(tools["Read"].InputSchema).To(HaveKeyWithValue("type", "object"))
		Expect(tools["Read"].Annotations.ReadOnlyHint).To(BeTrue())
		Expect(tools["Write"].Annotations.ReadOnlyHint).To(BeFalse())
	})

	It("runs a call through the pipeline", func() {
		connect()
		isErr, text := callTool("Read", map[string]any{"file_path": filepath.Join(dir, "notes.txt")})
		Expect(isErr).To(BeFalse(), text)
		Expect(text).To(ContainSubstring("second line"))
	})

	It("returns invalid input as an is_error result", func() {
		connect()
		isErr, text := callTool("Read", map[string]any{"no_such_parameter": 1})
		Expect(isErr).To(BeTrue())
		Expect(text).To(ContainSubstring("InputValidationError"))
	})

	It("keeps one session across calls: Read then Edit, a background shell then TaskOutput and TaskStop, the todo list", func() {
		connect("--permission-mode", "acceptEdits", "--allowedTools", "Bash(sleep:*)", "--allowedTools", "Bash(echo:*)", "--allowedTools", "TaskStop")
		notes := filepath.Join(dir, "notes.txt")
		isErr, text := callTool("Read", map[string]any{"file_path": notes})
		Expect(isErr).To(BeFalse(), text)
		isErr, text = callTool("Edit", map[string]any{"file_path": notes, "old_string": "first", "new_string": "1st"})
		Expect(isErr).To(BeFalse(), text)
		Expect(os.ReadFile(notes)).To(BeEquivalentTo("1st line\nsecond line\n"))

		isErr, text = callTool("Bash", map[string]any{"command": "echo started; sleep 30", "run_in_background": true})
		Expect(isErr).To(BeFalse(), text)
		Expect(text).To(ContainSubstring("bash_1"))
		Eventually(func() string {
			_, t := callTool("TaskOutput", map[string]any{"task_id": "bash_1", "block": false})
			return t
		},
			10*time.Second, 200*time.Millisecond).Should(ContainSubstring("started"))
		isErr, text = callTool("TaskStop", map[string]any{"task_id": "bash_1"})
		Expect(isErr).To(BeFalse(), text)

		isErr, text = callTool("TodoWrite", map[string]any{"todos": []map[string]any{{"content": "Ship it", "status": "pending", "activeForm": "Shipping it"}}})
		Expect(isErr).To(BeFalse(), text)
	})

	It("does not offer the tools that need an agent loop, and fits the others' descriptions to that", func() {
		connect()
		for t, err := range cs.Tools(context.Background(), nil) {
			Expect(err).NotTo(HaveOccurred())
			Expect([]string{"Agent", "ToolSearch", "Skill", "AskUserQuestion", "EnterPlanMode", "ExitPlanMode"}).NotTo(ContainElement(t.Name))
			Expect(t.Description).NotTo(MatchRegexp(`\b(Agent|ToolSearch)\b`), "%s names a tool the server does not offer", t.Name)
		}
	})

	DescribeTable("asks the client through elicitation when it supports it",
		func(decision string, allowed bool) {
			var asked []string
			elicit = func(req *sdk.ElicitRequest) *sdk.ElicitResult {
				asked = append(asked, req.Params.Message)
				if decision == "" {
					return &sdk.ElicitResult{Action: "decline"}
				}
				return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"decision": decision}}
			}
			connect()
			target := filepath.Join(dir, "asked.txt")
			isErr, text := callTool("Write", map[string]any{"file_path": target, "content": "x"})
			Expect(asked).To(HaveLen(1))
			Expect(asked[0]).To(ContainSubstring("agentcore asks for approval: Write"))
			Expect(isErr).To(Equal(!allowed), text)
			if allowed {
				Expect(target).To(BeAnExistingFile())
			} else {
				Expect(target).NotTo(BeAnExistingFile())
				Expect(text).To(ContainSubstring("denied"))
			}
			if decision == "Allow for this session" {
				isErr, text = callTool("Write", map[string]any{"file_path": target, "content": "y"})
				Expect(isErr).To(BeFalse(), text)
				Expect(os.ReadFile(target)).To(BeEquivalentTo("y"))
				Expect(asked).To(HaveLen(1), "the session rule covers the second call")
			}
		},
		Entry("allow", "Allow", true),
		Entry("allow for the session", "Allow for this session", true),
		Entry("deny", "Deny", false),
		Entry("decline", "", false),
	)

	It("denies a call that needs approval when the client cannot elicit, saying which rule allows it", func() {
		connect()
		isErr, text := callTool("Write", map[string]any{"file_path": filepath.Join(dir, "new.txt"), "content": "x"})
		Expect(isErr).To(BeTrue())
		Expect(text).To(ContainSubstring("non-interactive"))
		Expect(text).To(ContainSubstring("--allowedTools"))
	})

	It("applies the permission rules: a denied call is an is_error result", func() {
		connect("--disallowedTools", "Read")
		tools := map[string]bool{}
		for t, err := range cs.Tools(context.Background(), nil) {
			Expect(err).NotTo(HaveOccurred())
			tools[t.Name] = true
		}
		Expect(tools).NotTo(HaveKey("Read"))

		isErr, text := callTool("Write", map[string]any{"file_path": filepath.Join(dir, "new.txt"), "content": "x"})
		Expect(isErr).To(BeTrue(), text)
		Expect(filepath.Join(dir, "new.txt")).NotTo(BeAnExistingFile())
	})
})

var _ = Describe("agentcore mcp list", func() {
	It("connects to the servers of .mcp.json and shows their tools and failures", func() {
		dir := GinkgoT().TempDir()
		cfg := map[string]any{"mcpServers": map[string]any{
			"self":   map[string]any{"command": binaries["external"], "args": []string{"mcp", "serve"}},
			"broken": map[string]any{"command": filepath.Join(dir, "no-such-server")},
		}}
		data, err := json.Marshal(cfg)
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(dir, ".mcp.json"), data, 0o644)).To(Succeed())

		home := GinkgoT().TempDir()
		cmd := exec.Command(binaries["external"], "mcp", "list", "--json")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "AGENTCORE_CONFIG_DIR="+filepath.Join(home, ".agentcore"))
		cmd.Stderr = GinkgoWriter
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred())
		var infos []struct {
			Name, State, Error string
			Tools              []string
		}
		Expect(json.Unmarshal(out, &infos)).To(Succeed(), string(out))
		Expect(infos).To(HaveLen(2))
		Expect(infos[0].Name).To(Equal("broken"))
		Expect(infos[0].State).To(Equal("failed"))
		Expect(infos[0].Error).To(ContainSubstring("failed to start"))
		Expect(infos[1].Name).To(Equal("self"))
		Expect(infos[1].State).To(Equal("connected"))
		Expect(infos[1].Tools).To(ContainElement("mcp__self__Read"))
	})
})
