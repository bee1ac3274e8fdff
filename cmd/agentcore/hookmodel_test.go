//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("agentcore -p with prompt hooks (loopback Messages API)", func() {
	var dir string
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)).To(Succeed())
	})
	settings := func(body string) {
		Expect(os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(body), 0o644)).To(Succeed())
	}

	It("asks the model about a Bash call with the hook's prompt, and denies the call on ok:false with the reason for the model", func() {
		settings(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"prompt","prompt":"Is this call safe? $ARGUMENTS"}]}]}}`)
		srv, bodies := recordingAPI(func(n int, w http.ResponseWriter) {
			switch n {
			case 1:
				fakeReply{Blocks: []fakeBlock{{ID: "t1", Tool: "Bash", Input: `{"command":"touch hooked.txt"}`}}}.write(w)
			case 2:
				fakeReply{Blocks: []fakeBlock{{Text: `{"ok": false, "reason": "touching files is not allowed here"}`}}}.write(w)
			default:
				fakeReply{Blocks: []fakeBlock{{Text: "Understood."}}}.write(w)
			}
		})
		stdout, stderr, code := invoke(invocation{dir: dir, home: dir, configDir: dir,
			env: []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL}},
			"-p", "make a file", "--model", "claude-fake-1", "--permission-mode", "bypassPermissions")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(Equal("Understood.\n"))
		Expect(filepath.Join(dir, "hooked.txt")).NotTo(BeAnExistingFile())

		Expect(bodies()).To(HaveLen(3))
		hook := bodies()[1]
		system, _ := json.Marshal(hook["system"])
		Expect(string(system)).To(ContainSubstring(`You are evaluating a hook in Claude Code.`))
		Expect(hook).NotTo(HaveKey("tools"))
		msgs, _ := hook["messages"].([]any)
		Expect(msgs).To(HaveLen(1))
		text, _ := json.Marshal(msgs[0])
		Expect(string(text)).To(ContainSubstring(`Is this call safe? {`))
		Expect(string(text)).To(ContainSubstring(`touch hooked.txt`))
		Expect(string(text)).To(ContainSubstring(`PreToolUse`))

		last, _ := json.Marshal(bodies()[2]["messages"])
		Expect(string(last)).To(ContainSubstring("Prompt hook condition was not met: touching files is not allowed here"))
	})

	It("refuses to start on a hook of an unknown type, naming the file and the hook", func() {
		settings(`{"hooks":{"Stop":[{"hooks":[{"type":"promt","prompt":"done?"}]}]}}`)
		_, stderr, code := invoke(invocation{dir: dir, home: dir, configDir: dir}, "-p", "hi", "--model", "replay:x")
		Expect(code).NotTo(Equal(0))
		Expect(stderr).To(ContainSubstring(filepath.Join(".claude", "settings.json")))
		Expect(stderr).To(ContainSubstring(`hooks.Stop[0].hooks[0]: unknown hook type "promt"`))
	})
})
