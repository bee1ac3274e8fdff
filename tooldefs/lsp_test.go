package tooldefs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/lsp"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/procgroup"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// openLSPSession opens a session in dir with every tool, in bypass mode.
func openLSPSession(dir, home string, o session.Options) *session.Session {
	GinkgoHelper()
	o.Dir, o.Home, o.Tools = dir, home, generated.AllBaseTools()
	o.Permissions = permission.Sources{Mode: permission.ModeBypass, ConfigDir: filepath.Join(home, ".agentcore"), SettingsFiles: true}
	s, err := session.Open(context.Background(), o)
	Expect(err).NotTo(HaveOccurred())
	return s
}

func toolNamesOf(s *session.Session) []string {
	var names []string
	for _, t := range s.Tools() {
		names = append(names, t.Name())
	}
	return names
}

var _ = Describe("the LSP tool with gopls", Ordered, func() {
	var (
		dir   string
		s     *session.Session
		leaks func()
	)
	call := func(name, input string) (string, bool) {
		GinkgoHelper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		ev := rewindExec(ctx, s, name, input)
		return ev.Result.Text(), ev.Result.IsError
	}
	op := func(operation, file string, line, char int) string {
		GinkgoHelper()
		text, isErr := call("LSP", fmt.Sprintf(`{"operation":%q,"filePath":%q,"line":%d,"character":%d}`, operation, filepath.Join(dir, file), line, char))
		Expect(isErr).To(BeFalse(), text)
		return text
	}

	BeforeAll(func() {
		leaks = tooltest.LeakCheck(GinkgoT(), tooltest.IgnoreGinkgoAcrossSpecs)
		tooltest.Need(tooltest.Gopls)
		dir = GinkgoT().TempDir()
		dir, _ = filepath.EvalSymlinks(dir)
		Expect(tooltest.WriteFiles(dir, tooltest.GoFixture)).To(Succeed())
		s = openLSPSession(dir, GinkgoT().TempDir(), session.Options{LSPTool: "LSP", LSPDiagnosticsWait: time.Minute})
		Expect(toolNamesOf(s)).To(ContainElement("LSP"))
	})

	It("answers each operation with relative paths and 1-based positions", func() {
		Expect(op("goToDefinition", "use.go", 5, 9)).To(Equal("Found 1 definition:\nshapes.go:15:6: func Total(shapes []Shape) float64 {"))
		Expect(op("findReferences", "use.go", 4, 6)).To(HavePrefix("Found 3 references:"))
		Expect(op("hover", "use.go", 5, 9)).To(ContainSubstring("func Total(shapes []Shape) float64"))
		Expect(op("documentSymbol", "use.go", 1, 1)).To(Equal("Found 2 symbols:\n  Report (Function) - line 4\n  Twice (Function) - line 9"))
		Expect(op("workspaceSymbol", "use.go", 5, 9)).To(ContainSubstring("Total (Function) - shapes.go:15:6"))
		Expect(op("goToImplementation", "shapes.go", 4, 6)).To(ContainSubstring("shapes.go:9:6: type Square struct"))
		Expect(op("prepareCallHierarchy", "use.go", 9, 6)).To(ContainSubstring("Twice (Function) - use.go:9:6"))
		Expect(op("incomingCalls", "use.go", 4, 6)).To(And(ContainSubstring("Twice (Function) - use.go:9:6"), ContainSubstring("(call at 9:31, 9:42)")))
		Expect(op("outgoingCalls", "use.go", 9, 6)).To(And(ContainSubstring("Report (Function) - use.go:4:6"), ContainSubstring("(call at 9:31, 9:42)")))
	})

	It("gives a clear is_error result for a bad path, an unsupported file and a position outside the file", func() {
		in := func(file string, line, char int) string {
			return fmt.Sprintf(`{"operation":"hover","filePath":%q,"line":%d,"character":%d}`, file, line, char)
		}
		text, isErr := call("LSP", in(filepath.Join(dir, "missing.go"), 1, 1))
		Expect(isErr).To(BeTrue())
		Expect(text).To(ContainSubstring("File does not exist"))
		text, isErr = call("LSP", in(filepath.Join(dir, "notes.txt"), 1, 1))
		Expect(isErr).To(BeTrue())
		Expect(text).To(And(ContainSubstring("no language server handles .txt files (servers are configured for .go)"), ContainSubstring(`"lspServers"`)))
		text, isErr = call("LSP", in(filepath.Join(dir, "use.go"), 10, 1))
		Expect(isErr).To(BeTrue())
		Expect(text).To(ContainSubstring("line 10 is outside use.go, which has 9 lines"))
		text, isErr = call("LSP", in(filepath.Join(dir, "use.go"), 4, 99))
		Expect(isErr).To(BeTrue())
		Expect(text).To(ContainSubstring("character 99 is outside line 4 of use.go, which has 23 characters"))
		text, isErr = call("LSP", in("use.go", 4, 6))
		Expect(isErr).To(BeTrue())
		Expect(text).To(ContainSubstring("must be an absolute path"))
	})

	It("adds gopls's new diagnostics to the result of an Edit that breaks the build, and none once it is fixed", func() {
		path := filepath.Join(dir, "use.go")
		text, isErr := call("Read", fmt.Sprintf(`{"file_path":%q}`, path))
		Expect(isErr).To(BeFalse(), text)
		text, isErr = call("Edit", fmt.Sprintf(`{"file_path":%q,"old_string":"return Total(","new_string":"return Totl("}`, path))
		Expect(isErr).To(BeFalse(), text)
		Expect(text).To(ContainSubstring("has been updated"))
		Expect(text).To(ContainSubstring("<new-diagnostics>\nThe language server reports new problems in use.go:\n  5:9 [error] undefined: Totl"))
		text, isErr = call("Write", fmt.Sprintf(`{"file_path":%q,"content":%q}`, path, tooltest.GoFixture["use.go"]))
		Expect(isErr).To(BeFalse(), text)
		Expect(text).NotTo(ContainSubstring("new-diagnostics"))
	})

	It("stops gopls when the session closes, leaving no process or goroutine", func() {
		m, ok := runtime.Service[*lsp.Manager](s.ToolContext())
		Expect(ok).To(BeTrue())
		pids := m.Running()
		Expect(pids).To(HaveLen(1))
		Expect(s.Close()).To(Succeed())
		Expect(procgroup.Exists(pids[0])).To(BeFalse())
		leaks()
	})
})

var _ = Describe("the LSP tool without a language server", func() {
	var dir, home string
	BeforeEach(func() {
		dir, home = GinkgoT().TempDir(), GinkgoT().TempDir()
		Expect(tooltest.WriteFiles(dir, tooltest.GoFixture)).To(Succeed())
		GinkgoT().Setenv("PATH", GinkgoT().TempDir()) // no gopls
	})

	It("is left out of the pool when nothing is configured and gopls is not on PATH", func() {
		s := openLSPSession(dir, home, session.Options{LSPTool: "LSP"})
		DeferCleanup(s.Close)
		Expect(toolNamesOf(s)).NotTo(ContainElement("LSP"))
		Expect(toolNamesOf(s)).To(ContainElement("Read"))
	})

	It("is in the pool when the settings' lspServers configure one, with Claude Code's .lsp.json fields", func() {
		Expect(os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(`{"lspServers": {"py": {"command": "pyright-langserver", "args": ["--stdio"], "extensionToLanguage": {".py": "python"}}}}`), 0o644)).To(Succeed())
		s := openLSPSession(dir, home, session.Options{LSPTool: "LSP"})
		DeferCleanup(s.Close)
		Expect(toolNamesOf(s)).To(ContainElement("LSP"))
		Expect(os.WriteFile(filepath.Join(dir, "a.py"), []byte("x = 1\n"), 0o644)).To(Succeed())
		ev := rewindExec(context.Background(), s, "LSP", fmt.Sprintf(`{"operation":"hover","filePath":%q,"line":1,"character":1}`, filepath.Join(dir, "a.py")))
		Expect(ev.Result.IsError).To(BeTrue())
		Expect(ev.Result.Text()).To(And(ContainSubstring("start language server py (pyright-langserver)"), ContainSubstring("lspServers.py.command")))
	})

	It("says how to configure a server when called without one", func() {
		s := openLSPSession(dir, home, session.Options{})
		DeferCleanup(s.Close)
		Expect(toolNamesOf(s)).To(ContainElement("LSP"))
		ev := rewindExec(context.Background(), s, "LSP", fmt.Sprintf(`{"operation":"hover","filePath":%q,"line":1,"character":1}`, filepath.Join(dir, "use.go")))
		Expect(ev.Result.IsError).To(BeTrue())
		Expect(ev.Result.Text()).To(ContainSubstring(`no language server handles .go files (none is configured): add one under "lspServers" in settings.json`))
		Expect(slices.ContainsFunc(strings.Split(ev.Result.Text(), " "), func(w string) bool { return w == "gopls" })).To(BeTrue())
	})
})
