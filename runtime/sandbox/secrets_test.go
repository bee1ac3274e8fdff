package sandbox_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/sandbox"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("Secrets", func() {
	It("removes the agent's credentials and the listed names, keeping a kept one only outside", func() {
		s := &sandbox.Secrets{Env: []string{"GITHUB_TOKEN"}, Keep: []string{"OPENAI_API_KEY"}}
		env := []string{"ANTHROPIC_API_KEY=a", "OPENAI_API_KEY=o", "GITHUB_TOKEN=g", "AWS_SESSION_TOKEN=t", "PATH=/bin", "ANTHROPIC_API_KEY_NOT=x"}
		Expect(sandbox.Scrub(env, s.Unset(true))).To(Equal([]string{"PATH=/bin", "ANTHROPIC_API_KEY_NOT=x"}))
		Expect(sandbox.Scrub(env, s.Unset(false))).To(Equal([]string{"OPENAI_API_KEY=o", "PATH=/bin", "ANTHROPIC_API_KEY_NOT=x"}))
		var none *sandbox.Secrets
		Expect(none.Unset(false)).To(ConsistOf(sandbox.CredentialEnv))
	})
})

var _ = Describe("Off", func() {
	It("tells once", func() {
		off := &sandbox.Off{Why: errors.New("no bwrap")}
		Expect(off.Notice()).To(And(ContainSubstring("the sandbox is off"), ContainSubstring("no bwrap"), ContainSubstring("sandbox.failIfUnavailable")))
		Expect(off.Notice()).To(BeEmpty())
	})
})

// A Spec run directly, without a session: one bwrap per command.
var _ = Describe("Spec", func() {
	var home, dir string
	start := func(sp *sandbox.Spec, command string, env []string) (string, int) {
		GinkgoHelper()
		out, err := os.CreateTemp(GinkgoT().TempDir(), "out-*.log")
		Expect(err).NotTo(HaveOccurred())
		defer out.Close()
		p, err := sp.Start(command, dir, env, out, false)
		Expect(err).NotTo(HaveOccurred())
		<-p.Done()
		code, _, err := p.Exit()
		Expect(err).NotTo(HaveOccurred())
		b, err := os.ReadFile(out.Name())
		Expect(err).NotTo(HaveOccurred())
		return string(b), code
	}
	BeforeEach(func() {
		tooltest.Need(tooltest.Bwrap)
		var err error
		home, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		dir = filepath.Join(home, "project")
		Expect(os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)).To(Succeed())
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("PRIVATE"), 0o600)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(home, ".npmrc"), []byte("NPM-TOKEN"), 0o600)).To(Succeed())
	})

	It("hides the credential files, scrubs the credentials and keeps the rest", func() {
		sp := &sandbox.Spec{Writable: []string{dir}, DenyRead: sandbox.CredentialFiles(home), Unset: (*sandbox.Secrets)(nil).Unset(true)}
		out, code := start(sp, "env; cat ~/.npmrc; cat ~/.ssh/id_rsa", []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "ANTHROPIC_API_KEY=sk-1", "KEEP=k"})
		Expect(code).NotTo(Equal(0))
		Expect(out).To(ContainSubstring("Permission denied"))
		Expect(out).NotTo(Or(ContainSubstring("PRIVATE"), ContainSubstring("NPM-TOKEN"), ContainSubstring("sk-1")))
		Expect(out).To(ContainSubstring("KEEP=k"))
		Expect(sp.Note(code, out)).To(ContainSubstring("the sandbox hides " + filepath.Join(home, ".ssh")))
	})

	It("hides a path inside another hidden one with it (the transcripts under ~/.agentcore)", func() {
		agent := filepath.Join(home, ".agentcore")
		Expect(os.MkdirAll(filepath.Join(agent, "projects"), 0o700)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(agent, "projects", "t.jsonl"), []byte("TRANSCRIPT"), 0o600)).To(Succeed())
		sp := &sandbox.Spec{Writable: []string{dir}, DenyRead: []string{agent, filepath.Join(agent, "projects")}}
		out, code := start(sp, "cat "+filepath.Join(agent, "projects", "t.jsonl")+"; echo ran", []string{"PATH=" + os.Getenv("PATH")})
		Expect(code).To(Equal(0), out)
		Expect(out).To(ContainSubstring("ran"), "bwrap started: the nested path needed no mount point of its own")
		Expect(out).NotTo(ContainSubstring("TRANSCRIPT"))
	})

	It("does not hide a path that holds a working directory", func() {
		sp := &sandbox.Spec{Writable: []string{dir}, DenyRead: []string{home}}
		out, code := start(sp, "echo ok > f && cat f", []string{"PATH=" + os.Getenv("PATH")})
		Expect(code).To(Equal(0), out)
		Expect(strings.TrimSpace(out)).To(Equal("ok"))
	})
})
