package sdkproto_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/sdkproto"
	"github.com/agentcore/agentcore/runtime/session"
)

// syncBuffer is a writer the spec reads while the channel writes.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// lines are the JSON objects written so far.
func (s *syncBuffer) lines() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(s.b.String()), "\n") {
		var v map[string]any
		if json.Unmarshal([]byte(l), &v) == nil {
			out = append(out, v)
		}
	}
	return out
}

var _ = Describe("Channel", func() {
	var (
		out, warn *syncBuffer
		host      *io.PipeWriter
		c         *sdkproto.Channel
		models    []string
		ctx       context.Context
	)
	// response is the control_response to request id, once written.
	response := func(id string) map[string]any {
		var got map[string]any
		Eventually(func() map[string]any {
			for _, l := range out.lines() {
				if r, ok := l["response"].(map[string]any); ok && l["type"] == "control_response" && r["request_id"] == id {
					got = r
				}
			}
			return got
		}, 5*time.Second, 5*time.Millisecond).ShouldNot(BeNil())
		return got
	}
	send := func(line string) {
		_, err := io.WriteString(host, line+"\n")
		Expect(err).NotTo(HaveOccurred())
	}

	BeforeEach(func() {
		out, warn, models = &syncBuffer{}, &syncBuffer{}, nil
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(context.Background())
		var stdin *io.PipeReader
		stdin, host = io.Pipe()
		c = sdkproto.New(out, warn, sdkproto.Options{APIKeySource: "ANTHROPIC_API_KEY", SetModel: func(spec string) error {
			models = append(models, spec)
			return nil
		}})
		done := make(chan struct{})
		go func() { defer close(done); c.Read(ctx, stdin) }()
		DeferCleanup(func() {
			_ = host.Close()
			cancel()
			Eventually(done, 5*time.Second).Should(BeClosed())
		})
	})

	It("takes the host's initialize first, answers it once attached, and refuses a second one", func() {
		send(`{"type":"control_request","request_id":"r1","request":{"subtype":"initialize","sdkMcpServers":["calc"],"agents":{"rev":{"description":"reviews","prompt":"Review."}}}}`)
		init := c.First(ctx)
		Expect(init).NotTo(BeNil())
		Expect(init.SDKMCPServers).To(Equal([]string{"calc"}))
		Expect(init.Agents).To(HaveKeyWithValue("rev", sdkproto.Agent{Description: "reviews", Prompt: "Review."}))
		c.Attach(nil)
		r := response("r1")
		Expect(r["subtype"]).To(Equal("success"))
		Expect(r["response"].(map[string]any)["account"]).To(Equal(map[string]any{"apiKeySource": "ANTHROPIC_API_KEY"}))

		send(`{"type":"control_request","request_id":"r2","request":{"subtype":"initialize"}}`)
		Expect(response("r2")["subtype"]).To(Equal("error"))
	})

	It("switches the model through the front end (\"default\" restores its own) and refuses what it does not support", func() {
		send(`{"type":"control_request","request_id":"m1","request":{"subtype":"set_model","model":"claude-x"}}`)
		Expect(c.First(ctx)).To(BeNil(), "the first message was no initialize")
		c.Attach(nil)
		Expect(response("m1")["subtype"]).To(Equal("success"))
		send(`{"type":"control_request","request_id":"m2","request":{"subtype":"set_model","model":"default"}}`)
		Expect(response("m2")["subtype"]).To(Equal("success"))
		Expect(models).To(Equal([]string{"claude-x", ""}))
		send(`{"type":"control_request","request_id":"u","request":{"subtype":"set_color"}}`)
		Expect(response("u")["error"]).To(ContainSubstring(`does not support the control request "set_color"`))
	})

	It("rewinds the files of a turn (rewind_files, dry_run too) and says why it cannot", func() {
		dir, home := GinkgoT().TempDir(), GinkgoT().TempDir()
		sess, err := session.Open(ctx, session.Options{Dir: dir, Home: home, FileHistory: filepath.Join(home, "file-history")})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(sess.Close)
		Expect(sess.BeginTurn("write x")).To(Equal(1))
		hist, err := runtime.Need[runtime.FileHistory](sess.ToolContext(), "the spec")
		Expect(err).NotTo(HaveOccurred())
		x := filepath.Join(dir, "x.txt")
		Expect(hist.BeforeWrite(x)).To(Succeed())
		Expect(os.WriteFile(x, []byte("x"), 0o644)).To(Succeed())

		send(`{"type":"control_request","request_id":"i","request":{"subtype":"initialize"}}`)
		c.First(ctx)
		c.Attach(sess)
		send(`{"type":"control_request","request_id":"d","request":{"subtype":"rewind_files","user_message_id":"1","dry_run":true}}`)
		Expect(response("d")["response"]).To(Equal(map[string]any{"canRewind": true, "filesChanged": []any{x}}))
		Expect(x).To(BeAnExistingFile())
		send(`{"type":"control_request","request_id":"r","request":{"subtype":"rewind_files","user_message_id":"1"}}`)
		Expect(response("r")["response"]).To(Equal(map[string]any{"canRewind": true, "filesChanged": []any{x}}))
		Expect(x).NotTo(BeAnExistingFile())
		send(`{"type":"control_request","request_id":"n","request":{"subtype":"rewind_files","user_message_id":"9"}}`)
		Expect(response("n")["response"]).To(HaveKeyWithValue("canRewind", false))
		Expect(response("n")["response"]).To(HaveKeyWithValue("error", ContainSubstring("no checkpoint of turn 9")))
		send(`{"type":"control_request","request_id":"b","request":{"subtype":"rewind_files","user_message_id":"0b0e5a4c-1111"}}`)
		Expect(response("b")["error"]).To(ContainSubstring("is not a turn number"))
	})

	It("hands the host's user messages to Prompts, and asks its canUseTool for approval", func() {
		send(`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hello"}]}}`)
		c.First(ctx)
		c.Attach(nil)
		Eventually(c.Prompts(), 5*time.Second).Should(Receive(Equal("hello")))

		asker, ok := c.Asker().(interface {
			AskHost(context.Context, ask.AskRequest) (ask.HostReply, error)
		})
		Expect(ok).To(BeTrue())
		replies := make(chan ask.HostReply, 1)
		go func() {
			defer GinkgoRecover()
			r, err := asker.AskHost(ctx, ask.AskRequest{Tool: "Bash", Input: json.RawMessage(`{"command":"ls"}`), ToolUseID: "t1"})
			Expect(err).NotTo(HaveOccurred())
			replies <- r
		}()
		var req map[string]any
		Eventually(func() map[string]any {
			for _, l := range out.lines() {
				if l["type"] == "control_request" {
					req = l
				}
			}
			return req
		}, 5*time.Second, 5*time.Millisecond).ShouldNot(BeNil())
		Expect(req["request"].(map[string]any)["subtype"]).To(Equal("can_use_tool"))
		send(`{"type":"control_response","response":{"subtype":"success","request_id":"` + req["request_id"].(string) + `","response":{"behavior":"deny","message":"not today"}}}`)
		var r ask.HostReply
		Eventually(replies, 5*time.Second).Should(Receive(&r))
		Expect(r.Answer).To(Equal(ask.AnswerDeny))
		Expect(r.Message).To(Equal("not today"))
	})
})
