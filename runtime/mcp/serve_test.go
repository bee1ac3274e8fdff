package mcp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/mcp"
)

// fakeTool is a hand-written runtime.Tool for the serve tests; the
// defaults answer what serving does not read.
type fakeTool struct {
	runtime.ToolDefaults
	name     string
	schema   string
	traits   runtime.Traits
	disabled bool
	// run makes the result from the decoded input; nil echoes "msg".
	run func(in map[string]any, call *runtime.Call) (runtime.Result, error)
}

func (f *fakeTool) Name() string        { return f.name }
func (f *fakeTool) Description() string { return f.name + " does things." }
func (f *fakeTool) InputSchema() json.RawMessage {
	if f.schema != "" {
		return json.RawMessage(f.schema)
	}
	return json.RawMessage(`{"type":"object","properties":{"msg":{"type":"string"}},"required":["msg"],"additionalProperties":false}`)
}
func (f *fakeTool) IsEnabled() bool        { return !f.disabled }
func (f *fakeTool) Traits() runtime.Traits { return f.traits }
func (f *fakeTool) Decode(raw json.RawMessage) (any, error) {
	var in map[string]any
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("input: %v", err)
	}
	if _, ok := in["msg"].(string); !ok {
		return nil, errors.New(`the parameter "msg" is required and must be a string`)
	}
	return in, nil
}
func (f *fakeTool) IsConcurrencySafe(any) bool { return f.traits.ConcurrencySafe.Value }
func (f *fakeTool) IsReadOnly(any) bool        { return f.traits.ReadOnly.Value }
func (f *fakeTool) IsDestructive(any) bool     { return f.traits.Destructive.Value }
func (f *fakeTool) UserFacingName(any) string  { return f.name }
func (f *fakeTool) Call(_ context.Context, input any, call *runtime.Call) (runtime.Result, error) {
	in := input.(map[string]any)
	if f.run != nil {
		return f.run(in, call)
	}
	return runtime.Result{Content: []runtime.Block{runtime.TextBlock(in["msg"].(string))}}, nil
}
func (f *fakeTool) RenderProgress(_ any, p any) string { return fmt.Sprint("progress ", p) }
func (f *fakeTool) RenderGrouped(inputs []any) string  { return runtime.RenderUses(f, inputs) }

var pixel = base64.StdEncoding.EncodeToString([]byte("\x89PNG fake"))

func serveTools() []runtime.Tool {
	return []runtime.Tool{
		&fakeTool{name: "Reader", traits: runtime.Traits{ReadOnly: runtime.Flag{Value: true}, ConcurrencySafe: runtime.Flag{Value: true}}},
		&fakeTool{name: "Writer", traits: runtime.Traits{Destructive: runtime.Flag{Value: true}}},
		&fakeTool{name: "Shell", traits: runtime.Traits{
			ReadOnly: runtime.Flag{InputDependent: true}, Destructive: runtime.Flag{InputDependent: true},
		}},
		&fakeTool{name: "Adder", run: func(in map[string]any, _ *runtime.Call) (runtime.Result, error) {
			return runtime.Result{Content: []runtime.Block{runtime.TextBlock("added")}}, nil
		}},
		&fakeTool{name: "Painter", run: func(_ map[string]any, call *runtime.Call) (runtime.Result, error) {
			call.Progress("half")
			call.Progress("done")
			return runtime.Result{Content: []runtime.Block{
				runtime.TextBlock("a picture"), {Type: "image", MediaType: "image/png", Data: pixel},
			}}, nil
		}},
		&fakeTool{name: "Failer", run: func(map[string]any, *runtime.Call) (runtime.Result, error) {
			return runtime.Result{}, errors.New("disk on fire")
		}},
		&fakeTool{name: "Panicker", run: func(map[string]any, *runtime.Call) (runtime.Result, error) {
			panic("boom")
		}},
		&fakeTool{name: "Hidden", disabled: true},
	}
}

// connectClient serves tools in memory and returns a connected go-sdk
// client session, with the progress notifications it receives.
func connectClient(tools []runtime.Tool, run mcp.Runner) (*sdk.ClientSession, func() []string) {
	srv, err := mcp.NewServer(tools, run, mcp.ServeOptions{Name: "agentcore-test"})
	Expect(err).NotTo(HaveOccurred())
	st, ct := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	Expect(err).NotTo(HaveOccurred())
	var mu sync.Mutex
	var progress []string
	client := sdk.NewClient(&sdk.Implementation{Name: "test-client", Version: "v1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, req.Params.Message)
		},
	})
	cs, err := client.Connect(ctx, ct, nil)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
	})
	return cs, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), progress...)
	}
}

func listed(cs *sdk.ClientSession) map[string]*sdk.Tool {
	out := map[string]*sdk.Tool{}
	for t, err := range cs.Tools(context.Background(), nil) {
		Expect(err).NotTo(HaveOccurred())
		out[t.Name] = t
	}
	return out
}

func callText(cs *sdk.ClientSession, name string, args any) (*sdk.CallToolResult, string) {
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	var text string
	for _, c := range res.Content {
		if t, ok := c.(*sdk.TextContent); ok {
			text += t.Text
		}
	}
	return res, text
}

var _ = Describe("Serve", func() {
	var cs *sdk.ClientSession
	var progress func() []string
	BeforeEach(func() {
		cs, progress = connectClient(serveTools(), mcp.DirectRunner(runtime.NewToolContext(GinkgoT().TempDir())))
	})

	It("lists every enabled tool with its schema and description", func() {
		tools := listed(cs)
		Expect(tools).To(HaveLen(7))
		Expect(tools).NotTo(HaveKey("Hidden"))
		Expect(tools["Reader"].Description).To(Equal("Reader does things."))
		b, err := json.Marshal(tools["Reader"].InputSchema)
		Expect(err).NotTo(HaveOccurred())
		Expect(b).To(MatchJSON(`{"type":"object","properties":{"msg":{"type":"string"}},"required":["msg"],"additionalProperties":false}`))
	})

	It("sets the annotations from the tools' traits", func() {
		tools := listed(cs)
		Expect(tools["Reader"].Annotations.ReadOnlyHint).To(BeTrue())
		Expect(tools["Reader"].Annotations.DestructiveHint).To(BeNil())

		Expect(tools["Writer"].Annotations.ReadOnlyHint).To(BeFalse())
		Expect(*tools["Writer"].Annotations.DestructiveHint).To(BeTrue())

		// Input-dependent: neither read-only nor known to be harmless.
		Expect(tools["Shell"].Annotations.ReadOnlyHint).To(BeFalse())
		Expect(*tools["Shell"].Annotations.DestructiveHint).To(BeTrue())

		// Declared neither: writes, but destroys nothing.
		Expect(tools["Adder"].Annotations.ReadOnlyHint).To(BeFalse())
		Expect(*tools["Adder"].Annotations.DestructiveHint).To(BeFalse())
	})

	It("runs a call through the runner and returns its text", func() {
		res, text := callText(cs, "Reader", map[string]any{"msg": "hi"})
		Expect(res.IsError).To(BeFalse())
		Expect(text).To(Equal("hi"))
	})

	It("returns invalid input as an is_error result naming the parameter", func() {
		res, text := callText(cs, "Reader", map[string]any{"other": 1})
		Expect(res.IsError).To(BeTrue())
		Expect(text).To(ContainSubstring(`"msg" is required`))
	})

	It("returns a failing or panicking tool as an is_error result", func() {
		res, text := callText(cs, "Failer", map[string]any{"msg": "x"})
		Expect(res.IsError).To(BeTrue())
		Expect(text).To(Equal("disk on fire"))
		res, text = callText(cs, "Panicker", map[string]any{"msg": "x"})
		Expect(res.IsError).To(BeTrue())
		Expect(text).To(ContainSubstring("boom"))
		Expect(text).To(HavePrefix("Panicker failed: internal error: "))
	})

	It("keeps serving after a tool's context modifier or Decode panics", func() {
		modPanics := &fakeTool{name: "ModPanicker", run: func(_ map[string]any, call *runtime.Call) (runtime.Result, error) {
			call.ModifyContext(func(*runtime.ToolContext) { panic("modifier boom") })
			return runtime.Result{Content: []runtime.Block{runtime.TextBlock("ran")}}, nil
		}}
		c, _ := connectClient([]runtime.Tool{modPanics, &decodePanicker{fakeTool{name: "DecodePanicker"}}, &fakeTool{name: "Reader"}},
			mcp.DirectRunner(runtime.NewToolContext(GinkgoT().TempDir())))
		res, text := callText(c, "ModPanicker", map[string]any{"msg": "x"})
		Expect(res.IsError).To(BeTrue())
		Expect(text).To(ContainSubstring("modifier boom"))
		res, text = callText(c, "DecodePanicker", map[string]any{"msg": "x"})
		Expect(res.IsError).To(BeTrue())
		Expect(text).To(ContainSubstring("decode boom"))
		done := make(chan string)
		go func() {
			_, text := callText(c, "Reader", map[string]any{"msg": "still here"})
			done <- text
		}()
		Eventually(done, 5*time.Second).Should(Receive(Equal("still here")), "the runner's lock was left held")
	})

	It("sends images and forwards progress to a client that asks for it", func() {
		params := &sdk.CallToolParams{Name: "Painter", Arguments: map[string]any{"msg": "x"}}
		params.SetProgressToken("tok-1")
		res, err := cs.CallTool(context.Background(), params)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Content).To(HaveLen(2))
		img, ok := res.Content[1].(*sdk.ImageContent)
		Expect(ok).To(BeTrue())
		Expect(img.MIMEType).To(Equal("image/png"))
		Expect(img.Data).To(Equal([]byte("\x89PNG fake")))
		Eventually(progress).Should(Equal([]string{"progress half", "progress done"}))
	})

	It("refuses a tool whose schema is not an object schema", func() {
		_, err := mcp.NewServer([]runtime.Tool{&fakeTool{name: "Bad", schema: `{"type":"string"}`}}, mcp.DirectRunner(runtime.NewToolContext(".")), mcp.ServeOptions{})
		Expect(err).To(MatchError(ContainSubstring(`tool Bad: its input schema must have "type": "object"`)))
		_, err = mcp.NewServer(nil, nil, mcp.ServeOptions{})
		Expect(err).To(MatchError(ContainSubstring("run is nil")))
	})

	It("round-trips: a Manager sees served tools with the same flags", func() {
		srv, err := mcp.NewServer(serveTools(), mcp.DirectRunner(runtime.NewToolContext(GinkgoT().TempDir())), mcp.ServeOptions{})
		Expect(err).NotTo(HaveOccurred())
		hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
		DeferCleanup(hs.Close)
		m := start(map[string]mcp.ServerConfig{"self": {Type: "http", URL: hs.URL}}, mcp.Options{})
		waitAll(m)
		reader := find(m, "mcp__self__Reader")
		Expect(reader.IsReadOnly(nil)).To(BeTrue())
		Expect(reader.IsConcurrencySafe(nil)).To(BeTrue())
		Expect(find(m, "mcp__self__Writer").IsDestructive(nil)).To(BeTrue())
		Expect(call(reader, `{"msg":"round trip"}`).Text()).To(Equal("round trip"))
	})
})

// decodePanicker panics in Decode.
type decodePanicker struct{ fakeTool }

func (*decodePanicker) Decode(json.RawMessage) (any, error) { panic("decode boom") }
