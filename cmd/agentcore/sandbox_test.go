//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"

	"github.com/agentcore/agentcore/runtime/sandbox"
)

// bashAPI is a Messages API on loopback that asks for one Bash call per
// command, then answers "done"; results returns the tool_result texts it
// was sent, in order.
func bashAPI(inputs ...string) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var results []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		var got []string
		for _, m := range body.Messages {
			var blocks []struct {
				Type    string          `json:"type"`
				Content json.RawMessage `json:"content"`
			}
			if json.Unmarshal(m.Content, &blocks) != nil {
				continue
			}
			for _, b := range blocks {
				if b.Type == "tool_result" {
					got = append(got, string(b.Content))
				}
			}
		}
		mu.Lock()
		results = got
		mu.Unlock()
		if n := len(got); n < len(inputs) {
			fakeReply{InputTokens: 5, OutputTokens: 5, Blocks: []fakeBlock{{ID: fmt.Sprintf("toolu_%d", n), Tool: "Bash", Input: inputs[n]}}}.write(w)
			return
		}
		fakeReply{InputTokens: 5, OutputTokens: 2, Blocks: []fakeBlock{{Text: "done"}}}.write(w)
	}))
	DeferCleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), results...)
	}
}

var _ = Describe("agentcore -p --sandbox", func() {
	var dir, home string

	BeforeEach(func() {
		tooltest.Need(tooltest.Bwrap)
		dir, home = GinkgoT().TempDir(), GinkgoT().TempDir()
	})

	It("runs the model's Bash commands in the sandbox: a write outside fails with the sandbox's note, one inside works", func() {
		marker := tooltest.Marker("/etc", "sandbox-cli")
		api, results := bashAPI(`{"command":"touch `+marker+`"}`, `{"command":"touch ./inside"}`)
		stdout, stderr, code := agentcoreIn(dir, home, []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + api.URL},
			"-p", "touch things", "--model", "claude-fake-1", "--sandbox", "--permission-mode", "bypassPermissions")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(Equal("done\n"))
		got := results()
		Expect(got).To(HaveLen(2))
		Expect(got[0]).To(And(ContainSubstring("Read-only file system"), ContainSubstring("the sandbox denied the write")))
		Expect(got[1]).NotTo(ContainSubstring("sandbox"))
		Expect(marker).NotTo(BeAnExistingFile())
		Expect(filepath.Join(dir, "inside")).To(BeAnExistingFile())
	})

	It("exits 1 at start with the install help when bwrap is not on PATH, never running unconfined", func() {
		api, results := bashAPI(`{"command":"touch ./unconfined"}`)
		_, stderr, code := agentcoreIn(dir, home, []string{"PATH=" + GinkgoT().TempDir(), "ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + api.URL},
			"-p", "touch it", "--model", "claude-fake-1", "--sandbox")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring(sandbox.BwrapMissingHelp))
		Expect(results()).To(BeEmpty())
		Expect(filepath.Join(dir, "unconfined")).NotTo(BeAnExistingFile())
	})

	It("warns on stderr that allowedDomains opens the whole network", func() {
		writeFile(dir, ".claude/settings.json", `{"sandbox": {"enabled": true, "network": {"allowedDomains": ["example.com"]}}}`)
		api, _ := bashAPI()
		_, stderr, code := agentcoreIn(dir, home, []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + api.URL},
			"-p", "hi", "--model", "claude-fake-1")
		Expect(code).To(Equal(0), stderr)
		Expect(stderr).To(ContainSubstring("agentcore: warning: sandbox.network.allowedDomains (example.com) opens the whole network"))
		Expect(strings.Count(stderr, "opens the whole network")).To(Equal(1))
	})

	It("refuses excludedCommands at start", func() {
		writeFile(dir, ".claude/settings.json", `{"sandbox": {"enabled": true, "excludedCommands": ["docker"]}}`)
		_, stderr, code := agentcoreIn(dir, home, nil, "-p", "hi", "--model", "replay")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring("sandbox.excludedCommands (docker) is not supported"))
	})

	It("offers --sandbox on exec", func() {
		calls := filepath.Join(dir, "calls.json")
		marker := tooltest.Marker("/etc", "sandbox-exec")
		Expect(os.WriteFile(calls, []byte(`[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"touch `+marker+`"}}]`), 0o644)).To(Succeed())
		stdout, stderr, _ := agentcoreIn(dir, home, nil, "exec", "--sandbox", "--permission-mode", "bypassPermissions", calls)
		Expect(stdout + stderr).To(ContainSubstring("the sandbox denied the write"))
		Expect(marker).NotTo(BeAnExistingFile())
	})
})
