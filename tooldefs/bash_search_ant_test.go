//go:build ant

package tooldefs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs"
	"github.com/agentcore/agentcore/tooldefs/shell"
)

// In the ant build the suite's binary is agentcore's multicall grep and
// find too (tooldefs imports multicall there), so the links Bash puts
// first on PATH run this binary as the embedded engines.
var _ = Describe("Bash's grep and find in the ant variant", func() {
	var (
		root string
		tc   *runtime.ToolContext
		bash tooldefs.Bash
		run  func(command string) (tooldefs.BashOutput, error)
	)

	BeforeEach(func() {
		var err error
		root, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		tc = runtime.NewToolContext(root)
		reg := shell.NewRegistry()
		DeferCleanup(reg.Reset)
		runtime.WithService(tc, reg)
		DeferCleanup(tc.Close)
		run = func(command string) (tooldefs.BashOutput, error) {
			return bash.Call(context.Background(), &tooldefs.BashInput{Command: command}, runtime.NewCall("toolu_1", tc, nil))
		}
		Expect(os.MkdirAll(filepath.Join(root, "src", "util"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, "a.txt"), []byte("foo\nbar\nfoo bar\nFOO\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, "src", "main.go"), []byte("package main\n\nfunc main() {\n}\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, "src", "util", "util.go"), []byte("package util\n"), 0o644)).To(Succeed())
	})

	It("has grep and find from a directory first on PATH, linked to this binary", func() {
		out, err := run(`type grep; type find; echo "${PATH%%:*}"; readlink "$(type -P grep)"`)
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(out.Output, "\n")
		Expect(lines).To(HaveLen(4))
		m := regexp.MustCompile(`^grep is (/.*)/grep$`).FindStringSubmatch(lines[0])
		Expect(m).NotTo(BeNil(), "type grep: %q", lines[0])
		dir := m[1]
		Expect(filepath.Base(dir)).To(HavePrefix("agentcore-gnu-"))
		Expect(lines[1]).To(Equal("find is " + dir + "/find"))
		Expect(lines[2]).To(Equal(dir), "the first entry of PATH")
		exe, err := os.Executable()
		Expect(err).NotTo(HaveOccurred())
		exe, err = filepath.EvalSymlinks(exe)
		Expect(err).NotTo(HaveOccurred())
		Expect(lines[3]).To(Equal(exe))
	})

	It("runs grep -c, grep -rn and find through the embedded engines", func() {
		out, err := run(`grep --version | head -1; grep -c foo a.txt; grep -rn 'func main' .; find . -name '*.go' | wc -l`)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Output).To(Equal(strings.Join([]string{
			"grep (agentcore embedded grep) compatible with GNU grep 3.8",
			"2",
			"./src/main.go:3:func main() {",
			"2",
		}, "\n")))
		out, err = run(`find --version | head -1; find . -mindepth 2 -type f -name '*.go' -print0 | tr '\0' '\n' | sort | tr '\n' '|'`)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Output).To(Equal("find (agentcore embedded find) compatible with GNU findutils 4.9.0\n./src/main.go|./src/util/util.go|"))
	})

	It("keeps grep's no-match status an answer, and names an option it lacks", func() {
		out, err := run("grep nothing a.txt")
		Expect(err).NotTo(HaveOccurred())
		Expect(out.ExitCode).To(Equal(1))
		Expect(out.ExitNote).To(Equal("No matches found"))

		_, err = run(`grep -P '\d' a.txt`)
		var be *tooldefs.BashError
		Expect(errors.As(err, &be)).To(BeTrue(), "%v", err)
		Expect(be.ExitCode).To(Equal(2))
		Expect(err.Error()).To(ContainSubstring("grep: agentcore's embedded grep does not support --perl-regexp (-P); use -E"))
	})

	It("keeps the session's PATH after its own directory, and the directory for the session", func() {
		tc.Env = map[string]string{"PATH": "/opt/mine/bin:/usr/bin:/bin"}
		out, err := run(`echo "$PATH"`)
		Expect(err).NotTo(HaveOccurred())
		dir, rest, ok := strings.Cut(out.Output, ":")
		Expect(ok).To(BeTrue())
		Expect(filepath.Base(dir)).To(HavePrefix("agentcore-gnu-"))
		Expect(rest).To(Equal("/opt/mine/bin:/usr/bin:/bin"))

		again, err := run(`echo "$PATH"`)
		Expect(err).NotTo(HaveOccurred())
		Expect(again.Output).To(Equal(out.Output), "one directory per session")
		Expect(filepath.Join(dir, "grep")).To(BeAnExistingFile())

		// A command that removes it gets a new one on the next call.
		_, err = run(`rm -r "${PATH%%:*}"`)
		Expect(err).NotTo(HaveOccurred())
		out, err = run(`grep -c foo a.txt; echo "${PATH%%:*}"`)
		Expect(err).NotTo(HaveOccurred())
		count, remade, _ := strings.Cut(out.Output, "\n")
		Expect(count).To(Equal("2"))
		Expect(filepath.Join(remade, "grep")).To(BeAnExistingFile())

		tc.Close()
		Expect(dir).NotTo(BeAnExistingFile())
		Expect(remade).NotTo(BeAnExistingFile())
	})

	It("describes grep and find as built in and names no Glob or Grep tool", func() {
		d := generated.BashTool().Description()
		Expect(d).To(ContainSubstring("To search, use grep and find in your commands"))
		Expect(d).NotTo(MatchRegexp(`\b(Glob|Grep)\b`))
		Expect(d).To(ContainSubstring("- Read to read files (not cat, head or tail)"))
	})
})
