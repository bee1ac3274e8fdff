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

	// connect starts `agentcore mcp serve args...` in dir and connects a
	// go-sdk client to it over stdio.
	connect := func(args ...string) {
		home := GinkgoT().TempDir()
		cmd := exec.Command(binaries["external"], append([]string{"mcp", "serve"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "AGENTCORE_CONFIG_DIR="+filepath.Join(home, ".agentcore"))
		cmd.Stderr = GinkgoWriter
		client := sdk.NewClient(&sdk.Implementation{Name: "spec", Version: "v1"}, nil)
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
