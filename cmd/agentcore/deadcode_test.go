//go:build !internal && !ant

package main_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// bannedDeps are packages no variant of agentcore may link, each with the
// reason. Like tailscale's depaware lists, the list is the place to argue
// before a heavy dependency comes back.
//
// text/template is not on it: cobra imports it for custom help templates,
// which agentcore never sets, so its executor is unreachable; the
// -dumpdep spec below is what proves that (text/template's
// reflect.Value.MethodByName would show as <ReflectMethod>).
var bannedDeps = map[string]string{
	"html/template":                                     "its executor calls reflect.Value.MethodByName, which makes the linker keep every exported method of every reachable type (the API SDKs' code alone is ~20 MB)",
	"charm.land/glamour/v2":                             "the markdown renderer that brought text/template's executor, chroma and bluemonday in; tui/markdown.go renders with goldmark and lipgloss",
	"github.com/charmbracelet/glamour":                  "as charm.land/glamour/v2",
	"github.com/alecthomas/chroma/v2":                   "syntax highlighting: its lexers' and styles' initialisers cost 10–20 ms at every start, -p included",
	"github.com/microcosm-cc/bluemonday":                "HTML sanitising for glamour; its initialisers compile regexps at start-up",
	"github.com/yuin/goldmark/extension":                "GFM extensions: linkify's regexps are built at start-up; tables are rendered from the core parser's paragraphs",
	"github.com/yuin/goldmark/renderer/html":            "goldmark's HTML output, which the terminal does not need",
	"github.com/aws/aws-sdk-go-v2/config":               "the AWS default chain: it links the STS, SSO, SSO-OIDC and sign-in clients, whose endpoint and schema initialisers cost ~1 ms at every start; runtime/provider/awscreds finds Bedrock's credentials",
	"github.com/aws/aws-sdk-go-v2/service":              "AWS service clients (their initialisers build endpoint tables at start-up); Bedrock is called through the Anthropic SDK, STS by runtime/provider/awscreds",
	"github.com/anthropics/anthropic-sdk-go/v2/bedrock": "it imports github.com/aws/aws-sdk-go-v2/config; runtime/provider/anthropic/bedrock.go adapts the requests itself",
	"github.com/openai/openai-go":                       "its ~300 initialisers register a decoder for every type of the API, keeping ~7 MB of code live for the one endpoint used; runtime/provider/openai speaks Chat Completions over net/http",
}

// bannedPrefix reports the banned package pkg is, or lies under.
func bannedPrefix(pkg string) (string, bool) {
	for b := range bannedDeps {
		if pkg == b || strings.HasPrefix(pkg, b+"/") {
			return b, true
		}
	}
	return "", false
}

var _ = Describe("dead-code elimination", Label("gating"), func() {
	for _, v := range gating.Variants {
		It("links none of the banned packages in "+v.Name+" (go list -deps)", func() {
			var found []string
			for _, pkg := range deps(v) {
				if b, ok := bannedPrefix(pkg); ok {
					found = append(found, pkg+": "+bannedDeps[b])
				}
			}
			Expect(found).To(BeEmpty(), "banned packages in the %s variant's dependencies", v.Name)
		})

		It("keeps the linker's method elimination on in "+v.Name+" (no reachable reflect method call in -dumpdep)", func() {
			// The linker marks a function that calls reflect's Method or
			// MethodByName <ReflectMethod>; one reachable such function
			// turns off the elimination of unused exported methods.
			out := filepath.Join(GinkgoT().TempDir(), "agentcore")
			cmd := exec.Command("go", "build", "-tags", tagsOf(v), "-ldflags=-dumpdep", "-o", out, "./cmd/agentcore")
			cmd.Dir = repoRoot()
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			Expect(cmd.Run()).To(Succeed(), "go build -ldflags=-dumpdep: %s", tail(stderr.String(), 2000))
			var marked []string
			// The dump goes to the linker's stdout, which go build passes on.
			sc := bufio.NewScanner(&stdout)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for sc.Scan() {
				if line := sc.Text(); strings.Contains(line, "<ReflectMethod>") && len(marked) < 5 {
					marked = append(marked, line)
				}
			}
			Expect(marked).To(BeEmpty(), "a reachable call of reflect's Method/MethodByName in the %s variant: the edges that reach it", v.Name)
		})
	}
})

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
