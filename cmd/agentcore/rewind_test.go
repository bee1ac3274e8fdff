//go:build !internal && !ant

package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("-p --resume ID --rewind-files TURN", func() {
	var dir, home string
	BeforeEach(func() {
		dir, home = GinkgoT().TempDir(), GinkgoT().TempDir()
		dir, _ = filepath.EvalSymlinks(dir)
	})

	// scenario is a replay script for one prompt: the calls, one turn
	// each (a Read before the Write that overwrites), then an answer.
	scenario := func(name string, calls ...string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "{\"prompt\":%q}\n", name)
		for i, c := range calls {
			if i > 0 {
				fmt.Fprintf(&b, `{"when":{"ok":["c%d"]},`, i-1)
			} else {
				b.WriteString("{")
			}
			fmt.Fprintf(&b, `"blocks":[{"type":"tool_use","id":"c%d",%s}]}`+"\n", i, c)
		}
		b.WriteString(`{"blocks":[{"type":"text","text":"done"}]}`)
		p := filepath.Join(home, name+".jsonl")
		Expect(os.WriteFile(p, []byte(b.String()), 0o644)).To(Succeed())
		return "replay:" + p
	}
	read := func(name string) string {
		return fmt.Sprintf(`"name":"Read","input":{"file_path":%q}`, filepath.Join(dir, name))
	}
	write := func(name, content string) string {
		return fmt.Sprintf(`"name":"Write","input":{"file_path":%q,"content":%q}`, filepath.Join(dir, name), content)
	}
	run := func(args ...string) string {
		GinkgoHelper()
		stdout, stderr, code := agentcoreAt(dir, home, nil, append([]string{"-p", "--allowedTools", "Write,Read", "--output-format", "stream-json", "--verbose"}, args...)...)
		Expect(code).To(Equal(0), stderr)
		return stdout
	}
	files := func() map[string]string {
		GinkgoHelper()
		out := map[string]string{}
		ents, err := os.ReadDir(dir)
		Expect(err).NotTo(HaveOccurred())
		for _, e := range ents {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			Expect(err).NotTo(HaveOccurred())
			out[e.Name()] = string(data)
		}
		return out
	}

	It("puts the files of a resumed session back as they were before the turn, removing what was created since", func() {
		Expect(os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a0\n"), 0o644)).To(Succeed())
		before1 := files()
		stdout := run("--model", scenario("one", read("a.txt"), write("a.txt", "a1\n")))
		id := streamEvents(stdout)[0]["session_id"].(string)
		before2 := files()
		run("--resume", id, "--model", scenario("two", write("b.txt", "b2\n")))
		run("--resume", id, "--model", scenario("three", read("a.txt"), write("a.txt", "a3\n"), read("b.txt"), write("b.txt", "b3\n"), write("c.txt", "c3\n")))
		Expect(files()).To(HaveLen(3))

		out, stderr, code := agentcoreAt(dir, home, nil, "--resume", id, "--rewind-files", "2")
		Expect(code).To(Equal(0), stderr)
		Expect(files()).To(Equal(before2))
		Expect(out).To(ContainSubstring("restored " + filepath.Join(dir, "a.txt")))
		Expect(out).To(ContainSubstring("removed " + filepath.Join(dir, "c.txt")))
		Expect(out).To(ContainSubstring("removed "+filepath.Join(dir, "b.txt")), "turn 2 created it")
		Expect(out).To(ContainSubstring("Changes made by Bash commands are not tracked"))

		out, stderr, code = agentcoreAt(dir, home, nil, "--resume", id, "--rewind-files", "1")
		Expect(code).To(Equal(0), stderr)
		Expect(files()).To(Equal(before1))
		Expect(out).To(Equal("restored " + filepath.Join(dir, "a.txt") + "\nChanges made by Bash commands are not tracked and were left as they are.\n"))

		_, stderr, code = agentcoreAt(dir, home, nil, "--resume", id, "--rewind-files", "last")
		Expect(code).NotTo(Equal(0))
		Expect(stderr).To(ContainSubstring(`want a turn number; this session's turns:`))
		Expect(stderr).To(ContainSubstring(`"three"`))
	})

	It("needs a session to rewind", func() {
		_, stderr, code := agentcoreAt(dir, home, nil, "-p", "--rewind-files", "1")
		Expect(code).NotTo(Equal(0))
		Expect(stderr).To(ContainSubstring("--rewind-files needs the session whose files to rewind: add --resume ID or --continue"))
	})
})

var _ = Describe("/rewind in the interactive session (tmux)", Label("tmux"), func() {
	BeforeEach(func() {
		tooltest.Need(tooltest.Tmux)
	})

	It("lists the turns and puts the files back as before the chosen one", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(`{"name":"rewind"}
{"blocks":[{"type":"tool_use","id":"w","name":"Write","input":{"file_path":"${CWD}/made.txt","content":"made\n"}}]}
{"when":{"ok":["w"]},"blocks":[{"type":"text","text":"Wrote it."}]}
`), 0o644)).To(Succeed())
		t := startSession(dir, 120, 40, "--model", "replay:scn.jsonl", "--allowedTools", "Write")
		t.typeLine("make the file")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Wrote it."))
		Expect(filepath.Join(dir, "made.txt")).To(BeAnExistingFile())

		t.typeLine("/rewind")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(MatchRegexp(`1  \d{4}-\d\d-\d\d \d\d:\d\d  "make the file" \(1 file\(s\) written\)`))
		Expect(t.screen()).To(ContainSubstring("Changes made by Bash are not tracked."))
		t.typeLine("/rewind 1")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("removed " + filepath.Join(dir, "made.txt")))
		Expect(filepath.Join(dir, "made.txt")).NotTo(BeAnExistingFile())
	})
})
