//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("a kill -9 while a second call runs", func() {
	It("loses not the first call's result: on resume the model is told what it did, every tool_use answered once", func() {
		dir, home := GinkgoT().TempDir(), GinkgoT().TempDir()
		dir, _ = filepath.EvalSymlinks(dir)
		store := projectDir(filepath.Join(home, ".agentcore"), dir)
		scn := filepath.Join(home, "two.jsonl")
		Expect(os.WriteFile(scn, []byte(`{"prompt":"append, then wait"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"echo x >> marker && echo appended","description":"Append"}},{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"sleep 30","description":"Wait"}}]}
{"blocks":[{"type":"text","text":"Both ran."}]}`), 0o644)).To(Succeed())
		cmd := exec.Command(binaries["external"], "-p", "--model", "replay:"+scn, "--allowedTools", "Bash")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "AGENTCORE_CONFIG_DIR=", "ANTHROPIC_API_KEY=", "AGENTCORE_REPLAY_SPEED=0")
		cmd.Stdout, cmd.Stderr = GinkgoWriter, GinkgoWriter
		Expect(cmd.Start()).To(Succeed())
		DeferCleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })

		// The first call ran and its result is on disk while the second
		// still sleeps; then the process dies without a word.
		marker := filepath.Join(dir, "marker")
		Eventually(func() string { b, _ := os.ReadFile(marker); return string(b) }, 20*time.Second, 20*time.Millisecond).Should(Equal("x\n"))
		Eventually(func() []string { return sessionFiles(store) }, 10*time.Second, 20*time.Millisecond).Should(HaveLen(1))
		path := sessionFiles(store)[0]
		recorded := func() []string {
			var ids []string
			for _, l := range transcriptLines(path) {
				if l["type"] == "tool_result" {
					ids = append(ids, l["toolUse"].(map[string]any)["id"].(string))
				}
			}
			return ids
		}
		Eventually(recorded, 10*time.Second, 20*time.Millisecond).Should(Equal([]string{"t1"}), "t1's result is written as it ends")
		Expect(cmd.Process.Signal(os.Kill)).To(Succeed())
		_ = cmd.Wait()
		var types []string
		for _, l := range messageLines(path) {
			types = append(types, l["type"].(string))
		}
		Expect(types).To(Equal([]string{"user", "assistant"}), "the prompt and the response; the turn's results message never came")

		srv, bodies := answeringAPI("I see x was appended and the wait was cut short.")
		_, stderr, code := agentcoreAt(dir, home, []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL},
			"-p", "-c", "what happened?", "--model", "claude-fake-1")
		Expect(code).To(Equal(0), stderr)
		Expect(bodies()).To(HaveLen(1))
		msgs := messageBlocks(bodies()[0])
		answers := map[string][]map[string]any{}
		var uses []string
		for _, m := range msgs {
			for _, b := range blocksOf(m) {
				switch b["type"] {
				case "tool_use":
					uses = append(uses, b["id"].(string))
				case "tool_result":
					id := b["tool_use_id"].(string)
					answers[id] = append(answers[id], b)
				}
			}
		}
		Expect(uses).To(Equal([]string{"t1", "t2"}))
		Expect(answers).To(HaveLen(2))
		Expect(answers["t1"]).To(HaveLen(1), "t1 answered once")
		Expect(answers["t2"]).To(HaveLen(1), "t2 answered once")
		first, _ := json.Marshal(answers["t1"][0])
		Expect(string(first)).To(ContainSubstring("appended"), "the real result of the call that ran")
		Expect(answers["t1"][0]["is_error"]).NotTo(Equal(true))
		second, _ := json.Marshal(answers["t2"][0])
		Expect(string(second)).To(ContainSubstring("interrupted: the session ended before this call finished"))
		b, _ := os.ReadFile(marker)
		Expect(strings.Count(string(b), "x")).To(Equal(1), "nothing ran again")
	})
})
