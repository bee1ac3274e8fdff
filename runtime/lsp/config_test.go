package lsp_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/lsp"
)

var _ = Describe("server configuration", func() {
	found := func(string) (string, error) { return "/opt/bin/gopls", nil }
	missing := func(string) (string, error) { return "", errors.New("not found") }

	It("has gopls for .go as the default when it is on PATH, and nothing when it is not", func() {
		Expect(lsp.DefaultServers(found)).To(Equal(lsp.Servers{"gopls": {Command: "/opt/bin/gopls", ExtensionToLanguage: map[string]string{".go": "go"}}}))
		Expect(lsp.DefaultServers(missing)).To(BeEmpty())
	})

	It("adds a default only for extensions no configured server handles", func() {
		mine := lsp.Servers{"mygo": {Command: "my-gopls", ExtensionToLanguage: map[string]string{".GO": "go"}}}
		Expect(mine.WithDefaults(lsp.DefaultServers(found))).To(Equal(mine))
		py := lsp.Servers{"py": {Command: "pyright-langserver", ExtensionToLanguage: map[string]string{".py": "python"}}}
		both := py.WithDefaults(lsp.DefaultServers(found))
		Expect(both).To(HaveKey("gopls"))
		Expect(both).To(HaveKey("py"))
		Expect(both.Extensions()).To(Equal([]string{".go", ".py"}))
		Expect(py).NotTo(HaveKey("gopls"), "the configured servers are not changed")
	})

	It("finds the server and the language ID of a file", func() {
		s := lsp.Servers{"ts": {Command: "tsls", ExtensionToLanguage: map[string]string{".ts": "typescript", ".tsx": "typescriptreact"}}}
		name, ok := s.For(".tsx")
		Expect([]any{name, ok}).To(Equal([]any{"ts", true}))
		_, ok = s.For(".go")
		Expect(ok).To(BeFalse())
		Expect(s["ts"].Language("/src/App.TSX")).To(Equal("typescriptreact"))
		Expect(s["ts"].Language("/src/x.mts")).To(Equal("mts"))
	})
})
