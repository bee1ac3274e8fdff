package lsp_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/lsp"
	"github.com/agentcore/agentcore/runtime/procgroup"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("Manager with gopls", Ordered, func() {
	var (
		m     *lsp.Manager
		dir   string
		leaks func()
	)
	query := func(op, file string, line, char int) lsp.Result {
		GinkgoHelper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		res, err := m.Query(ctx, lsp.Request{Operation: op, Path: filepath.Join(dir, file), Line: line, Character: char, Root: dir})
		Expect(err).NotTo(HaveOccurred())
		return res
	}

	BeforeAll(func() {
		leaks = tooltest.LeakCheck(GinkgoT(), tooltest.IgnoreGinkgoAcrossSpecs)
		gopls := tooltest.Need(tooltest.Gopls)
		dir = GinkgoT().TempDir()
		dir, _ = filepath.EvalSymlinks(dir)
		Expect(tooltest.WriteFiles(dir, tooltest.GoFixture)).To(Succeed())
		m = lsp.NewManager(lsp.Options{
			Servers:         lsp.Servers{}.WithDefaults(lsp.DefaultServers(nil)),
			DiagnosticsWait: time.Minute, // the wait ends when gopls publishes
		})
		Expect(m.Servers()).To(HaveKey("gopls"))
		Expect(m.Servers()["gopls"].Command).To(Equal(gopls))
		Expect(m.Running()).To(BeEmpty(), "servers start lazily")
	})

	It("goes to a definition in another file", func() {
		res := query(lsp.OpDefinition, "use.go", 5, 9) // Total(
		Expect(res.Text).To(ContainSubstring("shapes.go:15:6: func Total(shapes []Shape) float64 {"))
		Expect(res.Count).To(Equal(1))
		Expect(m.Running()).To(HaveLen(1))
	})

	It("finds every reference, the declaration included", func() {
		res := query(lsp.OpReferences, "use.go", 4, 6) // Report
		Expect(res.Count).To(Equal(3))
		Expect(res.Text).To(ContainSubstring("use.go:4:6"))
		Expect(res.Text).To(ContainSubstring("use.go:9:31"))
		Expect(res.Text).To(ContainSubstring("use.go:9:42"))
	})

	It("shows the signature and documentation on hover", func() {
		res := query(lsp.OpHover, "use.go", 5, 9)
		Expect(res.Text).To(ContainSubstring("func Total(shapes []Shape) float64"))
		Expect(res.Text).To(ContainSubstring("Total sums the areas of shapes."))
	})

	It("lists a file's symbols with their lines", func() {
		res := query(lsp.OpDocumentSymbol, "shapes.go", 1, 1)
		Expect(res.Text).To(ContainSubstring("Shape (Interface) - line 4"))
		Expect(res.Text).To(ContainSubstring("Square (Struct) - line 9"))
		Expect(res.Text).To(ContainSubstring("Total (Function) - line 15"))
		Expect(res.Text).To(MatchRegexp(`Area \(Method\) - line 12`))
	})

	It("searches the workspace for the name at the position", func() {
		res := query(lsp.OpWorkspaceSym, "use.go", 5, 24) // Square{1}
		Expect(res.Text).To(HavePrefix(`Query "Square":`))
		Expect(res.Text).To(ContainSubstring("Square (Struct) - shapes.go:9:6"))
	})

	It("goes from an interface to the type implementing it", func() {
		res := query(lsp.OpImplementation, "shapes.go", 4, 6) // Shape
		Expect(res.Text).To(ContainSubstring("shapes.go:9:6: type Square struct{ Side float64 }"))
	})

	It("prepares the call hierarchy and finds incoming and outgoing calls", func() {
		res := query(lsp.OpPrepareCalls, "use.go", 4, 7)
		Expect(res.Text).To(ContainSubstring("Report (Function) - use.go:4:6"))
		in := query(lsp.OpIncomingCalls, "use.go", 4, 7)
		Expect(in.Text).To(HavePrefix("Callers of Report (1 call):"))
		Expect(in.Text).To(ContainSubstring("Twice (Function) - use.go:9:6"))
		Expect(in.Text).To(ContainSubstring("call at 9:31, 9:42"))
		out := query(lsp.OpOutgoingCalls, "use.go", 4, 7)
		Expect(out.Text).To(ContainSubstring("Calls made by Report"))
		Expect(out.Text).To(ContainSubstring("Total (Function) - shapes.go:15:6"))
		Expect(out.Text).To(ContainSubstring("call at 5:9"))
	})

	It("refuses a position outside the file and a file no server serves", func() {
		_, err := m.Query(context.Background(), lsp.Request{Operation: lsp.OpHover, Path: filepath.Join(dir, "use.go"), Line: 99, Character: 1, Root: dir})
		Expect(err).To(MatchError(ContainSubstring("line 99 is outside use.go, which has 9 lines")))
		_, err = m.Query(context.Background(), lsp.Request{Operation: lsp.OpHover, Path: filepath.Join(dir, "use.go"), Line: 4, Character: 40, Root: dir})
		Expect(err).To(MatchError(ContainSubstring("character 40 is outside line 4")))
		_, err = m.Query(context.Background(), lsp.Request{Operation: lsp.OpHover, Path: filepath.Join(dir, "notes.txt"), Line: 1, Character: 1, Root: dir})
		Expect(err).To(MatchError(And(ContainSubstring("no language server handles .txt files"), ContainSubstring(`"lspServers"`))))
	})

	It("reports the new diagnostics of a file written while its server runs", func() {
		path := filepath.Join(dir, "use.go")
		broken := strings.Replace(tooltest.GoFixture["use.go"], "return Total(", "return Totl(", 1)
		Expect(os.WriteFile(path, []byte(broken), 0o644)).To(Succeed())
		got := m.AfterWrite(context.Background(), path)
		Expect(got).To(HavePrefix("<new-diagnostics>"))
		Expect(got).To(ContainSubstring("5:9 [error] undefined: Totl"))
		Expect(m.AfterWrite(context.Background(), path)).To(BeEmpty(), "a problem is reported once")
		Expect(os.WriteFile(path, []byte(tooltest.GoFixture["use.go"]), 0o644)).To(Succeed())
		Expect(m.AfterWrite(context.Background(), path)).To(BeEmpty(), "the fix brings nothing new")
		Expect(m.AfterWrite(context.Background(), filepath.Join(dir, "notes.txt"))).To(BeEmpty())
	})

	It("shuts gopls down on Close and leaks nothing", func() {
		pids := m.Running()
		Expect(pids).To(HaveLen(1))
		m.Close()
		Expect(m.Running()).To(BeEmpty())
		Expect(procgroup.Exists(pids[0])).To(BeFalse(), "gopls and its children are gone")
		_, err := m.Query(context.Background(), lsp.Request{Operation: lsp.OpHover, Path: filepath.Join(dir, "use.go"), Line: 4, Character: 6, Root: dir})
		Expect(err).To(MatchError(lsp.ErrClosed))
		leaks()
	})
})

var _ = Describe("Manager under concurrent first calls", func() {
	It("starts one gopls for calls that arrive together, and answers from a file changed on disk", func() {
		DeferCleanup(tooltest.LeakCheck(GinkgoT()))
		tooltest.Need(tooltest.Gopls)
		dir, _ := filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(tooltest.WriteFiles(dir, tooltest.GoFixture)).To(Succeed())
		m := lsp.NewManager(lsp.Options{Servers: lsp.DefaultServers(nil)})
		DeferCleanup(m.Close)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		use := filepath.Join(dir, "use.go")
		results := make(chan error, 4)
		for range 4 {
			go func() {
				res, err := m.Query(ctx, lsp.Request{Operation: lsp.OpDefinition, Path: use, Line: 5, Character: 9, Root: dir})
				if err == nil && !strings.Contains(res.Text, "shapes.go:15:6") {
					err = fmt.Errorf("unexpected answer %q", res.Text)
				}
				results <- err
			}()
		}
		for range 4 {
			Expect(<-results).NotTo(HaveOccurred())
		}
		Expect(m.Running()).To(HaveLen(1))

		// Two lines more above the call: the server gets the new text.
		Expect(os.WriteFile(use, []byte(strings.Replace(tooltest.GoFixture["use.go"], "package fix\n", "package fix\n\n// moved\n", 1)), 0o644)).To(Succeed())
		res, err := m.Query(ctx, lsp.Request{Operation: lsp.OpReferences, Path: filepath.Join(dir, "shapes.go"), Line: 15, Character: 6, Root: dir})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Text).To(ContainSubstring("use.go:7:9: return Total("))
	})
})
