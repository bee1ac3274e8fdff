package memory_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/memory"
)

var _ = Describe("Find", func() {
	var home, root, sub string
	write := func(path, body string) {
		Expect(os.MkdirAll(filepath.Dir(path), 0o755)).To(Succeed())
		Expect(os.WriteFile(path, []byte(body), 0o644)).To(Succeed())
	}
	BeforeEach(func() {
		GinkgoT().Setenv("CLAUDE_CONFIG_DIR", "")
		home, root = GinkgoT().TempDir(), GinkgoT().TempDir()
		sub = filepath.Join(root, "pkg", "inner")
		Expect(os.MkdirAll(sub, 0o755)).To(Succeed())
	})

	It("reads the user's files first, then the project's from the outside in", func() {
		write(filepath.Join(home, ".claude", "CLAUDE.md"), "user claude")
		write(filepath.Join(home, ".agentcore", "AGENTS.md"), "user agents")
		write(filepath.Join(root, "CLAUDE.md"), "root claude")
		write(filepath.Join(root, "pkg", "AGENTS.md"), "pkg agents")
		write(filepath.Join(sub, "CLAUDE.local.md"), "inner local")
		write(filepath.Join(sub, "AGENTS.md"), "   \n") // blank: skipped
		files, err := memory.Find(sub, home, "")
		Expect(err).NotTo(HaveOccurred())
		var got []string
		for _, f := range files {
			got = append(got, f.Scope+": "+f.Content)
		}
		Expect(got).To(Equal([]string{"user: user claude", "user: user agents", "project: root claude", "project: pkg agents", "project: inner local"}))
		p := memory.Prompt(files)
		Expect(p).To(ContainSubstring("Contents of " + filepath.Join(root, "CLAUDE.md") + " (project instructions):\n\nroot claude\n"))
		Expect(strings.Index(p, "root claude")).To(BeNumerically("<", strings.Index(p, "inner local")))
	})

	It("takes the user's CLAUDE.md from the Claude Code directory it is given, not from the environment", func() {
		GinkgoT().Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, "from-env"))
		write(filepath.Join(home, "from-env", "CLAUDE.md"), "env claude")
		write(filepath.Join(home, "claude-dir", "CLAUDE.md"), "given claude")
		files, err := memory.Find(root, home, filepath.Join(home, "claude-dir"))
		Expect(err).NotTo(HaveOccurred())
		Expect(files).To(HaveLen(1))
		Expect(files[0].Content).To(Equal("given claude"))
	})

	It("cuts a huge file and says so, and finds nothing when there is nothing", func() {
		write(filepath.Join(root, "AGENTS.md"), strings.Repeat("x", memory.MaxFileChars+10))
		files, err := memory.Find(root, "", "")
		Expect(err).NotTo(HaveOccurred())
		Expect(files).To(HaveLen(1))
		Expect(files[0].Truncated).To(BeTrue())
		Expect(memory.Prompt(files)).To(ContainSubstring("cut at 40000 characters"))
		Expect(memory.Prompt(nil)).To(BeEmpty())
	})

	It("names a file it cannot read and keeps the others", func() {
		write(filepath.Join(root, "CLAUDE.md"), "ok")
		Expect(os.Mkdir(filepath.Join(root, "AGENTS.md"), 0o755)).To(Succeed()) // a directory: unreadable as a file
		files, err := memory.Find(root, "", "")
		Expect(err).To(MatchError(ContainSubstring(filepath.Join(root, "AGENTS.md"))))
		Expect(files).To(HaveLen(1))
	})
})
