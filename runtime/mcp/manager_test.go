//go:build unix

package mcp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/mcp"
)

var _ = Describe("Manager", func() {
	Context("with the tool server", func() {
		var m *mcp.Manager
		BeforeEach(func() {
			m = start(map[string]mcp.ServerConfig{"tools": stdio(bins.Tool)}, mcp.Options{})
			waitAll(m)
		})

		It("lists every tool as mcp__<server>__<tool>, sorted", func() {
			Expect(names(m.Tools())).To(Equal([]string{
				"mcp__tools__add_tool", "mcp__tools__always", "mcp__tools__block", "mcp__tools__delete_record",
				"mcp__tools__echo", "mcp__tools__env", "mcp__tools__fail", "mcp__tools__image",
				"mcp__tools__long_description", "mcp__tools__progress", "mcp__tools__structured",
				"mcp__tools__weird_name_v2",
			}))
			Expect(m.PendingServers()).To(BeEmpty())
			st := state(m, "tools")
			Expect(st.State).To(Equal(mcp.StateConnected))
			Expect(st.Transport).To(Equal("stdio"))
			Expect(st.Tools).To(Equal(12))
		})

		It("calls a tool and returns its text", func() {
			res := call(find(m, "mcp__tools__echo"), `{"text":"hello there"}`)
			Expect(res.IsError).To(BeFalse())
			Expect(res.Text()).To(Equal("hello there"))
			Expect(find(m, "mcp__tools__echo").RenderResult(nil, res)).To(Equal("hello there"))
		})

		It("maps readOnlyHint to read-only and concurrency-safe, destructiveHint to destructive", func() {
			echo := find(m, "mcp__tools__echo")
			Expect(echo.IsReadOnly(nil)).To(BeTrue())
			Expect(echo.IsConcurrencySafe(nil)).To(BeTrue())
			Expect(echo.IsDestructive(nil)).To(BeFalse())
			Expect(echo.Traits().ReadOnly.Value).To(BeTrue())
			Expect(echo.Traits().ConcurrencySafe.Value).To(BeTrue())

			del := find(m, "mcp__tools__delete_record")
			Expect(del.IsReadOnly(nil)).To(BeFalse())
			Expect(del.IsConcurrencySafe(nil)).To(BeFalse())
			Expect(del.IsDestructive(nil)).To(BeTrue())
			Expect(del.Traits().Destructive.Value).To(BeTrue())
		})

		It("gives a tool without annotations the fail-closed answers", func() {
			t := find(m, "mcp__tools__weird_name_v2")
			Expect(t.IsReadOnly(nil)).To(BeFalse())
			Expect(t.IsConcurrencySafe(nil)).To(BeFalse())
			Expect(t.IsDestructive(nil)).To(BeFalse())
		})

		It("defers every tool, except one whose _meta asks to always load", func() {
			for _, t := range m.Tools() {
				Expect(t.ShouldDefer()).To(BeTrue(), t.Name())
				Expect(t.InterruptBehavior(nil)).To(Equal(runtime.InterruptCancel), t.Name())
				Expect(t.IsEnabled()).To(BeTrue())
				if t.Name() != "mcp__tools__always" {
					Expect(t.AlwaysLoad()).To(BeFalse(), t.Name())
				}
			}
			always := find(m, "mcp__tools__always")
			Expect(always.AlwaysLoad()).To(BeTrue())
			Expect(always.SearchHint()).To(Equal("pinned essential"))
		})

		It("takes a tool's result size cap from its _meta anthropic/maxResultSizeChars, at most 500,000", func() {
			Expect(find(m, "mcp__tools__always").Traits().MaxResultSizeChars).To(Equal(200_000))
			Expect(find(m, "mcp__tools__progress").Traits().MaxResultSizeChars).To(Equal(mcp.MaxResultSizeCharsCeiling))
			Expect(find(m, "mcp__tools__echo").Traits().MaxResultSizeChars).To(Equal(0), "none asked for: the loop's default")
		})

		It("sanitises the server's tool name and still calls it by its own name", func() {
			t := find(m, "mcp__tools__weird_name_v2")
			Expect(t.(*mcp.Tool).RemoteName()).To(Equal("weird.name/v2"))
			Expect(call(t, `{}`).Text()).To(Equal("weird ok"))
		})

		It("truncates a description over 2048 characters", func() {
			d := find(m, "mcp__tools__long_description").Description()
			Expect(utf8.RuneCountInString(d)).To(Equal(mcp.MaxDescriptionLength))
			Expect(d).To(HavePrefix("Start of a long description."))
			Expect(d).To(HaveSuffix("… [truncated]"))
			Expect(find(m, "mcp__tools__echo").Description()).To(Equal("Echo returns its text argument unchanged."))
		})

		It("passes the input schema through", func() {
			var got map[string]any
			Expect(json.Unmarshal(find(m, "mcp__tools__echo").InputSchema(), &got)).To(Succeed())
			Expect(got).To(Equal(map[string]any{
				"type":       "object",
				"properties": map[string]any{"text": map[string]any{"type": "string", "description": "what to echo"}},
				"required":   []any{"text"},
			}))
		})

		DescribeTable("Decode wants a JSON object holding the required keys",
			func(raw, want string) {
				_, err := find(m, "mcp__tools__echo").Decode(json.RawMessage(raw))
				if want == "" {
					Expect(err).NotTo(HaveOccurred())
				} else {
					Expect(err).To(MatchError(ContainSubstring(want)))
				}
			},
			Entry("valid", `{"text":"x"}`, ""),
			Entry("extra keys go to the server", `{"text":"x","more":1}`, ""),
			Entry("array", `["x"]`, "must be a JSON object of parameters, got an array"),
			Entry("string", `"x"`, "got a string"),
			Entry("null", `null`, "got null"),
			Entry("missing required", `{}`, `the required parameter "text" is missing`),
			Entry("broken JSON", `{"text":`, "not valid JSON"),
		)

		It("returns images as image blocks", func() {
			t := find(m, "mcp__tools__image")
			res := call(t, `{}`)
			Expect(res.Content).To(HaveLen(2))
			Expect(res.Content[0]).To(Equal(runtime.TextBlock("a pixel")))
			Expect(res.Content[1].Type).To(Equal("image"))
			Expect(res.Content[1].MediaType).To(Equal("image/png"))
			png, err := base64.StdEncoding.DecodeString(res.Content[1].Data)
			Expect(err).NotTo(HaveOccurred())
			Expect(png[:4]).To(Equal([]byte{0x89, 'P', 'N', 'G'}))
			Expect(t.RenderResult(nil, res)).To(Equal("a pixel (+1 image)"))
		})

		It("turns isError into an is_error result", func() {
			t := find(m, "mcp__tools__fail")
			res := call(t, `{}`)
			Expect(res.IsError).To(BeTrue())
			Expect(res.Text()).To(Equal("the record is locked"))
			Expect(t.RenderResult(nil, res)).To(Equal("Error: the record is locked"))
		})

		It("shows structured content as JSON when there is no other content", func() {
			Expect(call(find(m, "mcp__tools__structured"), `{}`).Text()).To(Equal(`{"answer":42}`))
		})

		It("turns a protocol error (unknown tool) into an is_error result and keeps the server", func() {
			res, err := m.ToolFor("tools", "no_such_tool").Call(context.Background(), mcp.Input{}, nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.IsError).To(BeTrue())
			Expect(res.Text()).To(ContainSubstring(`MCP server "tools": the call of tool "no_such_tool" failed`))
			Expect(state(m, "tools").State).To(Equal(mcp.StateConnected))
			Expect(call(find(m, "mcp__tools__echo"), `{"text":"ok"}`).Text()).To(Equal("ok"))
		})

		It("delivers the server's progress notifications to the call", func() {
			var mu sync.Mutex
			var got []any
			t := find(m, "mcp__tools__progress")
			res := callCtx(context.Background(), t, `{}`, func(p any) {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, p)
			})
			Expect(res.Text()).To(Equal("progress done"))
			Eventually(func() int { mu.Lock(); defer mu.Unlock(); return len(got) }).Should(Equal(3))
			mu.Lock()
			defer mu.Unlock()
			Expect(got).To(ContainElement(mcp.Progress{Message: "step 3", Progress: 3, Total: 3}))
			Expect(t.RenderProgress(nil, mcp.Progress{Message: "step 1", Progress: 1, Total: 3})).To(Equal("step 1 (1/3)"))
		})

		It("cancels a running call when its context ends, and the server lives on", func() {
			t := find(m, "mcp__tools__block")
			in, err := t.Decode(json.RawMessage(`{}`))
			Expect(err).NotTo(HaveOccurred())
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := t.Call(ctx, in, nil)
				done <- err
			}()
			time.Sleep(200 * time.Millisecond) // let the request reach the server
			cancel()
			Eventually(done).WithTimeout(10 * time.Second).Should(Receive(MatchError(context.Canceled)))
			Expect(call(find(m, "mcp__tools__echo"), `{"text":"still here"}`).Text()).To(Equal("still here"))
		})

		It("renders uses, rejections, errors and groups", func() {
			t := find(m, "mcp__tools__echo")
			in, err := t.Decode(json.RawMessage(`{"text":"hi","n":2}`))
			Expect(err).NotTo(HaveOccurred())
			Expect(t.RenderUse(in)).To(Equal(`n: 2, text: "hi"`))
			Expect(t.UserFacingName(in)).To(Equal("tools - Echo text (MCP)"))
			Expect(t.RenderRejected(in)).To(ContainSubstring("echo"))
			Expect(t.RenderError(in, context.Canceled)).To(Equal("Error: context canceled"))
			Expect(t.RenderGrouped([]any{in, in})).To(Equal("2 calls to tools - Echo text (MCP)"))
			Expect(t.PermissionTarget(in)).To(Equal(runtime.Target{}))
			Expect(t.CheckPermissions(context.Background(), in, nil).Behavior).To(Equal(runtime.Passthrough))
		})

		It("lists the tools again when the server says its list changed", func() {
			Expect(runtime.Lookup(m.Tools(), "mcp__tools__added")).To(BeNil())
			Expect(call(find(m, "mcp__tools__add_tool"), `{}`).Text()).To(Equal("tool added"))
			Eventually(func() runtime.Tool { return runtime.Lookup(m.Tools(), "mcp__tools__added") }).
				WithTimeout(10 * time.Second).ShouldNot(BeNil())
			Expect(call(find(m, "mcp__tools__added"), `{}`).Text()).To(Equal("added ok"))
		})

		It("has no resource tools when no server offers resources", func() {
			Expect(runtime.Lookup(m.Tools(), mcp.ListResourcesToolName)).To(BeNil())
			Expect(runtime.Lookup(m.Tools(), mcp.ReadResourceToolName)).To(BeNil())
		})

		It("ends the server process on Close, and later calls fail cleanly", func() {
			Expect(m.Close()).To(Succeed())
			res := call(find(m, "mcp__tools__echo"), `{"text":"x"}`)
			Expect(res.IsError).To(BeTrue())
			Expect(res.Text()).To(ContainSubstring("closed"))
			Expect(m.Close()).To(Succeed())
		})
	})

	It("keeps server and tool names apart when two names sanitise alike", func() {
		m := start(map[string]mcp.ServerConfig{"a.b": stdio(bins.Tool), "a_b": stdio(bins.Tool)}, mcp.Options{})
		waitAll(m)
		seen := map[string]int{}
		for _, n := range names(m.Tools()) {
			seen[n]++
		}
		Expect(seen).To(HaveKeyWithValue("mcp__a_b__echo", 1))
		Expect(seen).To(HaveLen(12))
	})

	It("caps a result's text at MaxOutputChars, saying so", func() {
		m := start(map[string]mcp.ServerConfig{"tools": stdio(bins.Tool)}, mcp.Options{MaxOutputChars: 10})
		waitAll(m)
		res := call(find(m, "mcp__tools__echo"), `{"text":"`+strings.Repeat("é", 40)+`"}`)
		Expect(res.IsError).To(BeFalse())
		Expect(res.Text()).To(HavePrefix(strings.Repeat("é", 10) + "\n\n[output truncated: the MCP tool returned more than 10 characters"))
	})

	It("ends a call that outlives CallTimeout with an is_error result", func() {
		m := start(map[string]mcp.ServerConfig{"tools": stdio(bins.Tool)}, mcp.Options{CallTimeout: 300 * time.Millisecond})
		waitAll(m)
		res := call(find(m, "mcp__tools__block"), `{}`)
		Expect(res.IsError).To(BeTrue())
		Expect(res.Text()).To(ContainSubstring("timed out after 300ms"))
		Expect(state(m, "tools").State).To(Equal(mcp.StateConnected))
	})

	It("passes env to a stdio server, expanding ${VAR}", func() {
		cfg := stdio(bins.Tool)
		cfg.Env = map[string]string{"MCP_TEST_VAR": "${FROM_HOST}-${ABSENT:-dflt}"}
		m := start(map[string]mcp.ServerConfig{"tools": cfg}, mcp.Options{
			LookupEnv: func(k string) (string, bool) {
				if k == "FROM_HOST" {
					return "host", true
				}
				return "", false
			},
		})
		waitAll(m)
		Expect(call(find(m, "mcp__tools__env"), `{"name":"MCP_TEST_VAR"}`).Text()).To(Equal("host-dflt"))
	})

	It("fails only the server whose config names an unset variable", func() {
		bad := stdio(bins.Tool)
		bad.Args = []string{"${SURELY_NOT_SET_ANYWHERE}"}
		bad.Source = ".mcp.json"
		m := start(map[string]mcp.ServerConfig{"bad": bad, "good": stdio(bins.Tool)}, mcp.Options{LookupEnv: func(string) (string, bool) { return "", false }})
		waitAll(m)
		Expect(state(m, "good").State).To(Equal(mcp.StateConnected))
		st := state(m, "bad")
		Expect(st.State).To(Equal(mcp.StateFailed))
		Expect(st.Err).To(MatchError(ContainSubstring("SURELY_NOT_SET_ANYWHERE not set (referenced in .mcp.json)")))
	})

	Context("with the resource server", func() {
		var m *mcp.Manager
		BeforeEach(func() {
			m = start(map[string]mcp.ServerConfig{"docs": stdio(bins.Resource), "tools": stdio(bins.Tool)}, mcp.Options{})
			waitAll(m)
		})

		It("adds the read-only, concurrency-safe resource tools", func() {
			for _, n := range []string{mcp.ListResourcesToolName, mcp.ReadResourceToolName} {
				t := find(m, n)
				Expect(t.IsReadOnly(nil)).To(BeTrue())
				Expect(t.IsConcurrencySafe(nil)).To(BeTrue())
				Expect(t.IsDestructive(nil)).To(BeFalse())
				Expect(t.Traits().ReadOnly.Value).To(BeTrue())
				Expect(json.Valid(t.InputSchema())).To(BeTrue())
			}
			Expect(runtime.Lookup(m.Tools(), "ReadMcpResource")).NotTo(BeNil())
			Expect(state(m, "docs").Resources).To(BeTrue())
			Expect(state(m, "tools").Resources).To(BeFalse())
		})

		It("lists the resources of every server, each with its server", func() {
			res := call(find(m, mcp.ListResourcesToolName), `{}`)
			Expect(res.IsError).To(BeFalse())
			var entries []mcp.ResourceEntry
			Expect(json.Unmarshal([]byte(res.Text()), &entries)).To(Succeed())
			Expect(entries).To(ConsistOf(
				mcp.ResourceEntry{URI: "file:///docs/readme.txt", Name: "readme", MIMEType: "text/plain", Description: "The project's readme", Server: "docs"},
				mcp.ResourceEntry{URI: "mem://logo.png", Name: "logo", MIMEType: "image/png", Server: "docs"},
			))
		})

		It("lists one server's resources, and names the configured servers for an unknown one", func() {
			Expect(call(find(m, mcp.ListResourcesToolName), `{"server":"docs"}`).Text()).To(ContainSubstring("readme"))
			Expect(call(find(m, mcp.ListResourcesToolName), `{"server":"tools"}`).Text()).To(HavePrefix("No resources found"))
			res := call(find(m, mcp.ListResourcesToolName), `{"server":"nope"}`)
			Expect(res.IsError).To(BeTrue())
			Expect(res.Text()).To(Equal(`no MCP server named "nope"; configured servers: "docs", "tools"`))
		})

		It("reads a text resource and an image resource", func() {
			read := find(m, mcp.ReadResourceToolName)
			Expect(call(read, `{"server":"docs","uri":"file:///docs/readme.txt"}`).Text()).To(Equal("Hello from the readme.\n"))
			img := call(read, `{"server":"docs","uri":"mem://logo.png"}`)
			Expect(img.Content).To(HaveLen(1))
			Expect(img.Content[0].Type).To(Equal("image"))
			Expect(img.Content[0].MediaType).To(Equal("image/png"))
		})

		It("turns an unknown resource into an is_error result", func() {
			res := call(find(m, mcp.ReadResourceToolName), `{"server":"docs","uri":"file:///nope"}`)
			Expect(res.IsError).To(BeTrue())
			Expect(res.Text()).To(ContainSubstring("file:///nope"))
		})

		DescribeTable("decodes resource tool input strictly",
			func(tool, raw, want string) {
				_, err := find(m, tool).Decode(json.RawMessage(raw))
				Expect(err).To(MatchError(ContainSubstring(want)))
			},
			Entry("unknown key", mcp.ListResourcesToolName, `{"srv":"x"}`, `unknown parameter "srv"`),
			Entry("wrong type", mcp.ListResourcesToolName, `{"server":1}`, `"server" must be a string`),
			Entry("missing uri", mcp.ReadResourceToolName, `{"server":"docs"}`, `"uri" is missing`),
			Entry("empty uri", mcp.ReadResourceToolName, `{"server":"docs","uri":""}`, "must not be empty"),
		)
	})

	Context("with a slow server", func() {
		It("does not block: Tools returns the connected ones and PendingServers names the slow one", func() {
			gate := filepath.Join(GinkgoT().TempDir(), "open")
			slow := stdio(bins.Slow)
			slow.Env = map[string]string{"SLOW_GATE": gate}
			m := start(map[string]mcp.ServerConfig{"slow": slow, "tools": stdio(bins.Tool)}, mcp.Options{})

			Eventually(func() runtime.Tool { return runtime.Lookup(m.Tools(), "mcp__tools__echo") }).
				WithTimeout(30 * time.Second).ShouldNot(BeNil())
			Expect(m.PendingServers()).To(Equal([]string{"slow"}))
			Expect(state(m, "slow").State).To(Equal(mcp.StatePending))
			Expect(names(m.Tools())).NotTo(ContainElement(HavePrefix("mcp__slow__")))

			Expect(os.WriteFile(gate, nil, 0o644)).To(Succeed())
			Eventually(m.PendingServers).WithTimeout(30 * time.Second).Should(BeEmpty())
			Expect(call(find(m, "mcp__slow__hello"), `{}`).Text()).To(Equal("hello"))
		})

		It("gives up on a server that does not start within the timeout, and ends it", func() {
			slow := stdio(bins.Slow)
			slow.Env = map[string]string{"SLOW_GATE": filepath.Join(GinkgoT().TempDir(), "never")}
			m := start(map[string]mcp.ServerConfig{"slow": slow}, mcp.Options{ConnectTimeout: 300 * time.Millisecond})
			waitAll(m)
			st := state(m, "slow")
			Expect(st.State).To(Equal(mcp.StateFailed))
			Expect(st.Err).To(MatchError(ContainSubstring(`MCP server "slow" did not finish starting within 300ms`)))
			Expect(m.PendingServers()).To(BeEmpty())
			Expect(m.Tools()).To(BeEmpty())
		})
	})

	It("reports a server that cannot start, and serves the others", func() {
		m := start(map[string]mcp.ServerConfig{
			"dead":  stdio(filepath.Join(GinkgoT().TempDir(), "no-such-server")),
			"tools": stdio(bins.Tool),
		}, mcp.Options{})
		waitAll(m)
		st := state(m, "dead")
		Expect(st.State).To(Equal(mcp.StateFailed))
		Expect(st.Err).To(MatchError(ContainSubstring(`MCP server "dead" failed to start`)))
		Expect(find(m, "mcp__tools__echo")).NotTo(BeNil())
	})

	Context("with a server that crashes mid-call", func() {
		It("gives the call an is_error result, then restarts the server on next use", func() {
			m := start(map[string]mcp.ServerConfig{"crashy": stdio(bins.Crash)}, mcp.Options{})
			waitAll(m)
			pid1 := call(find(m, "mcp__crashy__pid"), `{}`).Text()

			res := call(find(m, "mcp__crashy__crash"), `{}`)
			Expect(res.IsError).To(BeTrue())
			Expect(res.Text()).To(ContainSubstring(`MCP server "crashy" stopped during the call of tool "crash"`))
			Expect(res.Text()).To(ContainSubstring("restarted on its next use"))
			Expect(state(m, "crashy").State).To(Equal(mcp.StateDisconnected))
			// The tools stay listed, so the next use can restart the server.
			Expect(find(m, "mcp__crashy__pid")).NotTo(BeNil())

			res = call(find(m, "mcp__crashy__pid"), `{}`)
			Expect(res.IsError).To(BeFalse(), res.Text())
			Expect(res.Text()).NotTo(Equal(pid1))
			Expect(state(m, "crashy").State).To(Equal(mcp.StateConnected))

			// Close ends the new process too: nothing is left running.
			pid2, err := strconv.Atoi(res.Text())
			Expect(err).NotTo(HaveOccurred())
			Expect(m.Close()).To(Succeed())
			Expect(syscall.Kill(pid2, 0)).To(MatchError(syscall.ESRCH))
		})
	})

	It("notices a server that died while idle, and restarts it on next use", func() {
		m := start(map[string]mcp.ServerConfig{"crashy": stdio(bins.Crash)}, mcp.Options{})
		waitAll(m)
		pid1, err := strconv.Atoi(call(find(m, "mcp__crashy__pid"), `{}`).Text())
		Expect(err).NotTo(HaveOccurred())
		Expect(syscall.Kill(pid1, syscall.SIGKILL)).To(Succeed())
		Eventually(func() mcp.State { return state(m, "crashy").State }).
			WithTimeout(10 * time.Second).Should(Equal(mcp.StateDisconnected))
		Expect(state(m, "crashy").Err).To(MatchError(ContainSubstring(`MCP server "crashy" stopped`)))
		res := call(find(m, "mcp__crashy__pid"), `{}`)
		Expect(res.IsError).To(BeFalse(), res.Text())
		Expect(res.Text()).NotTo(Equal(strconv.Itoa(pid1)))
	})

	It("starts from a project's .mcp.json", func() {
		dir := GinkgoT().TempDir()
		doc, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"docs": map[string]any{"command": bins.Resource}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(dir, ".mcp.json"), doc, 0o644)).To(Succeed())
		cfg, err := mcp.ResolveConfig(dir, nil, false)
		Expect(err).NotTo(HaveOccurred())
		m := mcp.NewManager(cfg, mcp.Options{Dir: dir, TerminateDuration: 500 * time.Millisecond})
		DeferCleanup(m.Close)
		waitAll(m)
		Expect(names(m.Tools())).To(Equal([]string{mcp.ListResourcesToolName, mcp.ReadResourceToolName}))
	})

	Context("with a streamable HTTP server on loopback", func() {
		It("lists and calls its tools, sending the configured headers", func() {
			srv := sdk.NewServer(&sdk.Implementation{Name: "web", Version: "v1"}, nil)
			srv.AddTool(&sdk.Tool{
				Name: "ping", Description: "Answers pong.",
				InputSchema: json.RawMessage(`{"type":"object"}`),
				Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
			}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "pong"}}}, nil
			})
			handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
			var mu sync.Mutex
			var auth []string
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				auth = append(auth, r.Header.Get("Authorization"))
				mu.Unlock()
				handler.ServeHTTP(w, r)
			}))
			DeferCleanup(hs.Close)

			m := start(map[string]mcp.ServerConfig{"web": {
				Type: "http", URL: hs.URL, Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"},
			}}, mcp.Options{LookupEnv: func(k string) (string, bool) { return "s3cret", k == "TOKEN" }})
			waitAll(m)
			Expect(state(m, "web").State).To(Equal(mcp.StateConnected), "%v", state(m, "web").Err)
			ping := find(m, "mcp__web__ping")
			Expect(ping.IsReadOnly(nil)).To(BeTrue())
			Expect(call(ping, `{}`).Text()).To(Equal("pong"))
			mu.Lock()
			defer mu.Unlock()
			Expect(auth).NotTo(BeEmpty())
			Expect(auth).To(HaveEach("Bearer s3cret"))
		})

		It("speaks the older HTTP+SSE transport for type sse", func() {
			srv := sdk.NewServer(&sdk.Implementation{Name: "legacy", Version: "v1"}, nil)
			srv.AddTool(&sdk.Tool{Name: "ping", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
					return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "sse pong"}}}, nil
				})
			hs := httptest.NewServer(sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return srv }, nil))
			DeferCleanup(hs.Close)
			m := start(map[string]mcp.ServerConfig{"legacy": {Type: "sse", URL: hs.URL}}, mcp.Options{})
			waitAll(m)
			Expect(state(m, "legacy").State).To(Equal(mcp.StateConnected), "%v", state(m, "legacy").Err)
			Expect(call(find(m, "mcp__legacy__ping"), `{}`).Text()).To(Equal("sse pong"))
		})

		It("fails a server whose URL does not answer", func() {
			hs := httptest.NewServer(http.NotFoundHandler())
			url := hs.URL
			hs.Close()
			m := start(map[string]mcp.ServerConfig{"gone": {Type: "http", URL: url}}, mcp.Options{})
			waitAll(m)
			Expect(state(m, "gone").State).To(Equal(mcp.StateFailed))
			Expect(strings.ToLower(state(m, "gone").Err.Error())).To(ContainSubstring("failed to start"))
		})
	})
})
