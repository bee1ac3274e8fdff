package hooks_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/hooks"
)

// receiver is a loopback HTTP hook endpoint that keeps each request's
// body and headers and answers with status and body.
type receiver struct {
	mu      sync.Mutex
	bodies  []map[string]any
	headers []http.Header
}

func (rc *receiver) serve(status int, body string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var in map[string]any
		_ = json.Unmarshal(raw, &in)
		rc.mu.Lock()
		rc.bodies = append(rc.bodies, in)
		rc.headers = append(rc.headers, r.Header.Clone())
		rc.mu.Unlock()
		Expect(r.Method).To(Equal(http.MethodPost))
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	DeferCleanup(srv.Close)
	return srv
}

var _ = Describe("the hook surface: http hooks and the newer events' answers", func() {
	var (
		dir string
		ctx context.Context
	)
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		ctx = context.Background()
	})
	one := func(ev hooks.Event, h hooks.Hook) *hooks.Runner {
		return &hooks.Runner{Config: hooks.Config{ev: {{Hooks: []hooks.Hook{h}}}}, Dir: dir, SessionID: "s-1",
			Mode: func() string { return "default" }, Env: []string{"HOOK_TOKEN=from-settings", "SECRET=must-not-leak"}}
	}
	bash := hooks.Input{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}, "tool_use_id": "toolu_1"}

	It("POSTs the event's JSON to the URL with its headers, interpolating only the allowed variables, and honours a deny", func() {
		var rc receiver
		srv := rc.serve(200, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not over http"}}`)
		r := one(hooks.PreToolUse, hooks.Hook{Type: hooks.TypeHTTP, URL: srv.URL + "/hook",
			Headers:        map[string]string{"Authorization": "Bearer $HOOK_TOKEN", "X-Other": "a${SECRET}b"},
			AllowedEnvVars: []string{"HOOK_TOKEN"}})
		res := r.Run(ctx, hooks.PreToolUse, "Bash", bash)
		Expect(res.Ran).To(Equal(1))
		Expect(res.Decision).To(Equal(hooks.Deny))
		Expect(res.Reason).To(Equal("not over http"))
		Expect(rc.bodies).To(HaveLen(1))
		Expect(rc.bodies[0]).To(HaveKeyWithValue("hook_event_name", "PreToolUse"))
		Expect(rc.bodies[0]).To(HaveKeyWithValue("session_id", "s-1"))
		Expect(rc.bodies[0]).To(HaveKeyWithValue("tool_use_id", "toolu_1"))
		Expect(rc.headers[0].Get("Content-Type")).To(Equal("application/json"))
		Expect(rc.headers[0].Get("Authorization")).To(Equal("Bearer from-settings"))
		Expect(rc.headers[0].Get("X-Other")).To(Equal("ab"), "a variable not in allowedEnvVars is left empty")
	})

	It("reads a non-2xx answer and a refused connection as non-blocking errors", func() {
		var rc receiver
		srv := rc.serve(503, "down for maintenance")
		res := one(hooks.PreToolUse, hooks.Hook{Type: hooks.TypeHTTP, URL: srv.URL}).Run(ctx, hooks.PreToolUse, "Bash", bash)
		Expect(res.Decision).To(Equal(hooks.None))
		Expect(res.Messages).To(ConsistOf(And(ContainSubstring("503"), ContainSubstring("did not block"), ContainSubstring("down for maintenance"))))

		l, err := net.Listen("tcp", "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		addr := l.Addr().String()
		Expect(l.Close()).To(Succeed())
		res = one(hooks.PreToolUse, hooks.Hook{Type: hooks.TypeHTTP, URL: "http://" + addr + "/x"}).Run(ctx, hooks.PreToolUse, "Bash", bash)
		Expect(res.Decision).To(Equal(hooks.None))
		Expect(res.Messages).To(ConsistOf(ContainSubstring("no answer")))
	})

	It("bounds an HTTP hook by its timeout", func() {
		block := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-block }))
		DeferCleanup(srv.Close)
		DeferCleanup(func() { close(block) })
		res := one(hooks.Stop, hooks.Hook{Type: hooks.TypeHTTP, URL: srv.URL, Timeout: 0.2}).Run(ctx, hooks.Stop, "", nil)
		Expect(res.Decision).To(Equal(hooks.None))
		Expect(res.Messages).To(ConsistOf(ContainSubstring("timed out")))
	})

	It("combines PermissionRequest decisions: a deny wins, an allow carries its updatedInput", func() {
		allow := filepath.Join(dir, "allow.sh")
		deny := filepath.Join(dir, "deny.sh")
		Expect(os.WriteFile(allow, []byte(`#!/bin/bash
echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"ls -a"}}}}'`), 0o755)).To(Succeed())
		Expect(os.WriteFile(deny, []byte(`#!/bin/bash
echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no","interrupt":true}}}'`), 0o755)).To(Succeed())
		r := one(hooks.PermissionRequest, hooks.Hook{Type: "command", Command: allow})
		res := r.Run(ctx, hooks.PermissionRequest, "Bash", bash)
		Expect(res.Permission).NotTo(BeNil())
		Expect(res.Permission.Behavior).To(Equal("allow"))
		Expect(res.Permission.UpdatedInput).To(MatchJSON(`{"command":"ls -a"}`))

		r.Config[hooks.PermissionRequest][0].Hooks = append(r.Config[hooks.PermissionRequest][0].Hooks, hooks.Hook{Type: "command", Command: deny})
		res = r.Run(ctx, hooks.PermissionRequest, "Bash", bash)
		Expect(*res.Permission).To(Equal(hooks.Verdict{Behavior: "deny", Message: "no", Interrupt: true}))
	})

	It("reads PostToolUse's updatedToolOutput, PermissionDenied's retry and PreToolUse's defer", func() {
		var rc receiver
		srv := rc.serve(200, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"replaced"}}}`)
		res := one(hooks.PostToolUse, hooks.Hook{Type: hooks.TypeHTTP, URL: srv.URL}).Run(ctx, hooks.PostToolUse, "Bash", bash)
		Expect(res.UpdatedToolOutput).To(MatchJSON(`{"stdout":"replaced"}`))

		srv = rc.serve(200, `{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}`)
		res = one(hooks.PermissionDenied, hooks.Hook{Type: hooks.TypeHTTP, URL: srv.URL}).Run(ctx, hooks.PermissionDenied, "Bash", bash)
		Expect(res.Retry).To(BeTrue())

		srv = rc.serve(200, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"a person decides"}}`)
		res = one(hooks.PreToolUse, hooks.Hook{Type: hooks.TypeHTTP, URL: srv.URL}).Run(ctx, hooks.PreToolUse, "Bash", bash)
		Expect(res.Decision).To(Equal(hooks.Defer))
		Expect(res.Reason).To(Equal("a person decides"))
	})

	It("does not POST to an http hook on SessionStart, as Claude Code does not, and says so; a command hook there runs", func() {
		var rc receiver
		srv := rc.serve(200, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"from http"}}`)
		marker := filepath.Join(dir, "ran")
		r := &hooks.Runner{Config: hooks.Config{hooks.SessionStart: {{Hooks: []hooks.Hook{
			{Type: hooks.TypeHTTP, URL: srv.URL}, {Command: "touch " + marker}}}}}, Dir: dir, SessionID: "s-1"}
		res := r.Run(ctx, hooks.SessionStart, "startup", hooks.Input{"source": "startup"})
		Expect(rc.bodies).To(BeEmpty())
		Expect(res.Messages).To(ContainElement(ContainSubstring("http hooks do not run on SessionStart")))
		Expect(marker).To(BeAnExistingFile())
	})

	It("gives SessionEnd and SubagentStart no permission_mode, as Claude Code does", func() {
		var rc receiver
		srv := rc.serve(200, "")
		for _, ev := range []hooks.Event{hooks.SessionEnd, hooks.SubagentStart, hooks.PostToolUseFailure} {
			one(ev, hooks.Hook{Type: hooks.TypeHTTP, URL: srv.URL}).Run(ctx, ev, "", hooks.Input{})
		}
		Expect(rc.bodies).To(HaveLen(3))
		Expect(rc.bodies[0]).NotTo(HaveKey("permission_mode"))
		Expect(rc.bodies[1]).NotTo(HaveKey("permission_mode"))
		Expect(rc.bodies[2]).To(HaveKeyWithValue("permission_mode", "default"))
	})
})
