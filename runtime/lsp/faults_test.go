package lsp_test

import (
	"context"
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/lsp"
	"github.com/agentcore/agentcore/runtime/procgroup"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("a language server that misbehaves", func() {
	var dir, file string
	manager := func(mode string) *lsp.Manager {
		self, err := os.Executable()
		Expect(err).NotTo(HaveOccurred())
		m := lsp.NewManager(lsp.Options{
			Servers: lsp.Servers{"fake": {Command: self, ExtensionToLanguage: map[string]string{".fake": "fake"},
				Env: map[string]string{"AGENTCORE_LSP_FAKE_SERVER": mode}}},
			RequestTimeout: 300 * time.Millisecond,
		})
		DeferCleanup(m.Close)
		return m
	}
	BeforeEach(func() {
		DeferCleanup(tooltest.LeakCheck(GinkgoT()))
		dir = GinkgoT().TempDir()
		file = filepath.Join(dir, "a.fake")
		Expect(os.WriteFile(file, []byte("one\ntwo\n"), 0o644)).To(Succeed())
	})

	It("gives up a request the server never answers, and still stops the server at Close", func() {
		m := manager("hang")
		_, err := m.Query(context.Background(), lsp.Request{Operation: lsp.OpHover, Path: file, Line: 2, Character: 1, Root: dir})
		Expect(err).To(MatchError("fake did not answer textDocument/hover within 300ms; try again, or check the server"))
		pids := m.Running()
		Expect(pids).To(HaveLen(1))
		m.Close()
		Expect(procgroup.Exists(pids[0])).To(BeFalse())
	})

	It("says a server exited, with the end of its stderr, and starts it again on the next call", func() {
		m := manager("crash")
		for range 2 {
			_, err := m.Query(context.Background(), lsp.Request{Operation: lsp.OpDefinition, Path: file, Line: 1, Character: 2, Root: dir})
			Expect(err).To(MatchError(And(ContainSubstring("fake: the language server exited"), ContainSubstring("boom: the fake server fell over"))))
		}
	})
})
