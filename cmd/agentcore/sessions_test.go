//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// projectDir is where Claude Code's rule puts the transcripts of cwd:
// every character but a letter or digit becomes "-".
func projectDir(configDir, cwd string) string {
	return filepath.Join(configDir, "projects", regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(cwd, "-"))
}

// transcriptLines reads a transcript's lines as JSON objects.
func transcriptLines(path string) []map[string]any {
	data, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if l == "" {
			continue
		}
		var v map[string]any
		Expect(json.Unmarshal([]byte(l), &v)).To(Succeed(), l)
		out = append(out, v)
	}
	return out
}

// messageLines are the transcript's message lines: without the
// tool_result lines that record each result as its call ends.
func messageLines(path string) []map[string]any {
	var out []map[string]any
	for _, l := range transcriptLines(path) {
		if l["type"] != "tool_result" {
			out = append(out, l)
		}
	}
	return out
}

// sessionFiles lists the transcripts in dir.
func sessionFiles(dir string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	return files
}

// agentcoreAt runs agentcore in dir with home as HOME (the store under
// HOME/.agentcore) and returns stdout, stderr and the exit code.
func agentcoreAt(dir, home string, env []string, args ...string) (string, string, int) {
	return invoke(invocation{dir: dir, home: home, env: env}, args...)
}

// messageBlocks is a request's messages as (role, blocks).
func messageBlocks(body map[string]any) []map[string]any {
	var out []map[string]any
	for _, m := range body["messages"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

func blocksOf(m map[string]any) []map[string]any {
	var out []map[string]any
	switch c := m["content"].(type) {
	case string:
		out = append(out, map[string]any{"type": "text", "text": c})
	case []any:
		for _, b := range c {
			out = append(out, b.(map[string]any))
		}
	}
	return out
}

var _ = Describe("sessions kept on disk (-c, --resume, --session-id)", func() {
	var dir, home, store string
	BeforeEach(func() {
		dir, home = GinkgoT().TempDir(), GinkgoT().TempDir()
		dir, _ = filepath.EvalSymlinks(dir)
		store = projectDir(filepath.Join(home, ".agentcore"), dir)
	})

	It("survives kill -9 mid-call: -c resumes with the completed turns, every tool_use paired", func() {
		scn := filepath.Join(home, "slow.jsonl")
		Expect(os.WriteFile(scn, []byte(`{"prompt":"run the slow one"}
{"blocks":[{"type":"text","text":"A quick one first."},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"echo quick","description":"Say quick"}}]}
{"when":{"ok":["t1"]},"blocks":[{"type":"text","text":"Now the slow one."},{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"sleep 5","description":"Wait"}}]}
{"blocks":[{"type":"text","text":"Both ran."}]}`), 0o644)).To(Succeed())
		out, err := os.Create(filepath.Join(home, "stdout"))
		Expect(err).NotTo(HaveOccurred())
		defer out.Close()
		cmd := exec.Command(binaries["external"], "-p", "--model", "replay:"+scn, "--allowedTools", "Bash",
			"--output-format", "stream-json", "--verbose")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "AGENTCORE_CONFIG_DIR=", "ANTHROPIC_API_KEY=", "AGENTCORE_REPLAY_SPEED=0")
		cmd.Stdout, cmd.Stderr = out, GinkgoWriter
		Expect(cmd.Start()).To(Succeed())
		DeferCleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })

		// The transcript appears with the prompt and grows a line per
		// message while the process runs; the slow call's result is not
		// there while it sleeps.
		var path string
		Eventually(func() []string { return sessionFiles(store) }, 10*time.Second, 20*time.Millisecond).Should(HaveLen(1))
		path = sessionFiles(store)[0]
		Eventually(func() int { return len(messageLines(path)) }, 10*time.Second, 20*time.Millisecond).Should(Equal(4))
		Expect(cmd.Process.Signal(os.Kill)).To(Succeed())
		_ = cmd.Wait()

		lines := messageLines(path)
		Expect(lines).To(HaveLen(4))
		types := []string{}
		for _, l := range lines {
			types = append(types, l["type"].(string))
		}
		Expect(types).To(Equal([]string{"user", "assistant", "user", "assistant"}))
		Expect(blocksOf(lines[3]["message"].(map[string]any))[1]).To(HaveKeyWithValue("id", "t2"))
		id := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		data, _ := os.ReadFile(out.Name())
		Expect(string(data)).To(ContainSubstring(`"session_id":"` + id + `"`))

		srv, bodies := answeringAPI("The slow call was interrupted.")
		stdout, stderr, code := agentcoreAt(dir, home, []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL},
			"-p", "-c", "what happened?", "--model", "claude-fake-1", "--output-format", "stream-json", "--verbose")
		Expect(code).To(Equal(0), stderr)
		Expect(streamEvents(stdout)[0]).To(HaveKeyWithValue("session_id", id), "the resumed session keeps its ID, as Claude Code's")
		Expect(bodies()).To(HaveLen(1))
		msgs := messageBlocks(bodies()[0])
		// Every tool_use is answered in the next message.
		var uses []string
		for i, m := range msgs {
			for _, b := range blocksOf(m) {
				if b["type"] != "tool_use" {
					continue
				}
				uses = append(uses, b["id"].(string))
				Expect(i+1).To(BeNumerically("<", len(msgs)), "a tool_use ends the request")
				var answer map[string]any
				for _, r := range blocksOf(msgs[i+1]) {
					if r["type"] == "tool_result" && r["tool_use_id"] == b["id"] {
						answer = r
					}
				}
				Expect(answer).NotTo(BeNil(), "tool_use %s is answered", b["id"])
				if b["id"] == "t2" {
					Expect(answer).To(HaveKeyWithValue("is_error", true))
					content, _ := json.Marshal(answer["content"])
					Expect(string(content)).To(ContainSubstring("interrupted: the session ended before this call finished"))
				} else {
					content, _ := json.Marshal(answer["content"])
					Expect(string(content)).To(ContainSubstring("quick"))
				}
			}
		}
		Expect(uses).To(Equal([]string{"t1", "t2"}))
		first, _ := json.Marshal(msgs[0])
		Expect(string(first)).To(ContainSubstring("run the slow one"))
		last, _ := json.Marshal(msgs[len(msgs)-1])
		Expect(string(last)).To(ContainSubstring("what happened?"))
		Expect(sessionFiles(store)).To(HaveLen(1), "the same file goes on")
		Expect(messageLines(path)).To(HaveLen(7), "the synthetic result, the prompt, the answer")
	})

	It("fails clearly on --resume ID from another directory, and on an unknown ID", func() {
		srv, _ := answeringAPI("hello")
		env := []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL}
		_, stderr, code := agentcoreAt(dir, home, env, "-p", "hi", "--model", "claude-fake-1")
		Expect(code).To(Equal(0), stderr)
		Expect(sessionFiles(store)).To(HaveLen(1))
		id := strings.TrimSuffix(filepath.Base(sessionFiles(store)[0]), ".jsonl")

		other := GinkgoT().TempDir()
		stdout, stderr, code := agentcoreAt(other, home, env, "-p", "again", "--resume", id, "--model", "claude-fake-1")
		Expect(code).To(Equal(1))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(ContainSubstring("session " + id + " belongs to another directory, " + dir))
		Expect(stderr).To(ContainSubstring("cd " + dir + " && agentcore --resume " + id))

		_, stderr, code = agentcoreAt(dir, home, env, "-p", "again", "--resume", "0b0e5a4c-1111-4222-8333-444455556666", "--model", "claude-fake-1")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring("no conversation found with session ID 0b0e5a4c-1111-4222-8333-444455556666"))
		Expect(stderr).To(ContainSubstring(id), "the directory's sessions are listed")
		Expect(stderr).To(ContainSubstring("agentcore -c continues the latest"))

		_, stderr, code = agentcoreAt(other, home, env, "-p", "again", "-c", "--model", "claude-fake-1")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring("no conversation found to continue"))
	})

	It("takes --session-id for a new session, refuses one in use or not a UUID, and keeps nothing with --no-session-persistence", func() {
		srv, _ := answeringAPI("hello")
		env := []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL}
		id := "5d3c1f0e-7a2b-4c9d-8e1f-0a1b2c3d4e5f"
		stdout, stderr, code := agentcoreAt(dir, home, env, "-p", "hi", "--session-id", id, "--model", "claude-fake-1",
			"--output-format", "stream-json", "--verbose")
		Expect(code).To(Equal(0), stderr)
		Expect(streamEvents(stdout)[0]).To(HaveKeyWithValue("session_id", id))
		Expect(filepath.Join(store, id+".jsonl")).To(BeAnExistingFile())
		Expect(transcriptLines(filepath.Join(store, id+".jsonl"))).To(HaveLen(2))

		_, stderr, code = agentcoreAt(dir, home, env, "-p", "hi", "--session-id", id, "--model", "claude-fake-1")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring("session ID " + id + " is already in use"))

		_, stderr, code = agentcoreAt(dir, home, env, "-p", "hi", "--session-id", "nope", "--model", "claude-fake-1")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring("must be a valid UUID"))

		_, stderr, code = agentcoreAt(dir, home, env, "-p", "hi", "-c", "--session-id", id, "--model", "claude-fake-1")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring("only be used with --continue or --resume if --fork-session"))

		fresh := GinkgoT().TempDir()
		_, stderr, code = agentcoreAt(fresh, home, env, "-p", "hi", "--no-session-persistence", "--model", "claude-fake-1")
		Expect(code).To(Equal(0), stderr)
		fresh, _ = filepath.EvalSymlinks(fresh)
		Expect(projectDir(filepath.Join(home, ".agentcore"), fresh)).NotTo(BeADirectory())
	})

	It("puts the store under $AGENTCORE_CONFIG_DIR when it is set", func() {
		srv, _ := answeringAPI("hello")
		cfg := filepath.Join(home, "elsewhere")
		_, stderr, code := agentcoreAt(dir, home, []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL, "AGENTCORE_CONFIG_DIR=" + cfg},
			"-p", "hi", "--model", "claude-fake-1")
		Expect(code).To(Equal(0), stderr)
		Expect(sessionFiles(projectDir(cfg, dir))).To(HaveLen(1))
		Expect(store).NotTo(BeADirectory())
	})
})

var _ = Describe("the Agent SDK's resume option", Label("node"), func() {
	It("starts the second query with the first one's conversation and session ID", func() {
		entry := sdkEntry()
		dir, home := GinkgoT().TempDir(), GinkgoT().TempDir()
		api, bodies := answeringAPI("noted")
		wrapper := filepath.Join(home, "agentcore-cli")
		Expect(os.WriteFile(wrapper, []byte("#!/bin/sh\nexec "+binaries["external"]+" --model claude-sonnet-4-5 \"$@\"\n"), 0o755)).To(Succeed())
		cmd := exec.Command("node", filepath.Join(repoRoot(), "cmd", "agentcore", "testdata", "sdk", "resume.mjs"), entry, wrapper, dir)
		cmd.Env = append(os.Environ(), "HOME="+home, "AGENTCORE_CONFIG_DIR="+filepath.Join(home, ".agentcore"),
			"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL="+api.URL)
		cmd.Stderr = GinkgoWriter
		cmd.WaitDelay = 10 * time.Second
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred(), string(out))

		ids := map[string][]string{}
		results := map[string]map[string]any{}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			var ev struct {
				Kind    string         `json:"kind"`
				Message map[string]any `json:"message"`
			}
			Expect(json.Unmarshal([]byte(line), &ev)).To(Succeed(), line)
			Expect(ev.Kind).NotTo(Equal("timeout"))
			if sid, ok := ev.Message["session_id"].(string); ok {
				ids[ev.Kind] = append(ids[ev.Kind], sid)
			}
			if ev.Message["type"] == "result" {
				results[ev.Kind] = ev.Message
			}
		}
		Expect(results["first"]).To(HaveKeyWithValue("subtype", "success"))
		Expect(results["second"]).To(HaveKeyWithValue("subtype", "success"))
		first := results["first"]["session_id"].(string)
		Expect(ids["second"]).To(HaveEach(first), "the resumed session keeps its ID")

		Expect(bodies()).To(HaveLen(2))
		msgs := messageBlocks(bodies()[1])
		all, _ := json.Marshal(msgs)
		Expect(string(all)).To(ContainSubstring("remember the number 42"))
		Expect(string(all)).To(ContainSubstring("noted"))
		Expect(string(all)).To(ContainSubstring("which number was it?"))
		Expect(msgs).To(HaveLen(3), "the first prompt, its answer, the second prompt")
	})
})
