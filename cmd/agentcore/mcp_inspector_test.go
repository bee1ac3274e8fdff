//go:build !internal && !ant

package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

// inspectorBin returns the MCP Inspector's command, skipping the spec
// (and saying why) when node or the package is missing.
func inspectorBin() string {
	return tooltest.NeedNpm("mcp-inspector")
}

var _ = Describe("agentcore mcp serve under the MCP Inspector CLI", Label("node"), func() {
	var dir, home string

	BeforeEach(func() {
		dir, home = GinkgoT().TempDir(), GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("first line\nsecond line\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "nb.ipynb"), []byte(`{"cells":[{"cell_type":"code","id":"c1","metadata":{},"source":["print(1)"],"outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":5}`), 0o644)).To(Succeed())
		for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "start"}} {
			cmd := exec.Command("git", args...)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "git %v: %s", args, out)
		}
	})

	// inspect runs one Inspector CLI method against `agentcore mcp serve
	// --permission-mode acceptEdits` in dir and returns its JSON output.
	inspect := func(env []string, args ...string) map[string]any {
		GinkgoHelper()
		bin := inspectorBin()
		full := append([]string{"--cli", binaries["external"], "mcp", "serve", "--permission-mode", "acceptEdits",
			"--allowedTools", "WebFetch", "--allowedTools", "Bash(sleep:*)"}, args...)
		cmd := exec.Command(bin, full...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), append([]string{"HOME=" + home, "AGENTCORE_CONFIG_DIR=" + filepath.Join(home, ".agentcore")}, env...)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		Expect(cmd.Run()).To(Succeed(), "mcp-inspector %v: %s", args, stderr.String())
		var out map[string]any
		Expect(json.Unmarshal(stdout.Bytes(), &out)).To(Succeed(), stdout.String())
		return out
	}

	It("lists the tools and calls every one of them, leaving no process behind", func() {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/search" {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, `{"results":[{"title":"agentcore","url":"http://127.0.0.1/agentcore","snippet":"a Go tool runtime"}]}`)
				return
			}
			fmt.Fprint(w, "<html><body><h1>Loopback page</h1><p>served to WebFetch</p></body></html>")
		}))
		DeferCleanup(srv.Close)
		env := []string{"AGENTCORE_WEB_SEARCH_URL=" + srv.URL + "/search"}

		var listed []string
		for _, t := range inspect(env, "--method", "tools/list")["tools"].([]any) {
			listed = append(listed, t.(map[string]any)["name"].(string))
		}
		Expect(listed).To(ContainElements("Bash", "Read", "Write", "Edit", "TodoWrite", "TaskOutput"))
		Expect(listed).NotTo(ContainElements("Agent", "ToolSearch", "Skill", "AskUserQuestion", "EnterPlanMode", "ExitPlanMode"),
			"tools that need an agent loop are not offered")

		marker := fmt.Sprintf("%d", 3000+os.Getpid()%5000)
		calls := map[string][]string{
			"Bash":          {"command=echo from bash"},
			"Read":          {"file_path=" + filepath.Join(dir, "notes.txt")},
			"Write":         {"file_path=" + filepath.Join(dir, "new.txt"), "content=written over MCP\n"},
			"Glob":          {"pattern=*.txt"},
			"Grep":          {"pattern=second", "path=" + dir},
			"TodoWrite":     {`todos=[{"content":"Check MCP","status":"in_progress","activeForm":"Checking MCP"}]`},
			"WebFetch":      {"url=" + srv.URL + "/page", "prompt=what is on the page?"},
			"WebSearch":     {"query=agentcore runtime"},
			"EnterWorktree": {"name=over-mcp"},
			// Listed when gopls is on PATH.
			"LSP": {"operation=documentSymbol", "filePath=" + filepath.Join(dir, "main.go"), "line=1", "character=1"},
			// These act on state an earlier call of the same connection
			// made (a Read, a worktree, a background shell); each Inspector
			// CLI run is a new connection, so they answer with an error
			// result that says what is missing. The go-sdk spec below runs
			// them after what they need.
			"Edit":         {"file_path=" + filepath.Join(dir, "notes.txt"), "old_string=first", "new_string=1st"},
			"NotebookEdit": {"notebook_path=" + filepath.Join(dir, "nb.ipynb"), "cell_id=c1", "new_source=print(2)"},
			"ExitWorktree": {"action=keep"},
			"TaskOutput":   {"task_id=bash_1"},
			"TaskStop":     {"task_id=bash_1"},
		}
		stateful := []string{"Edit", "NotebookEdit", "ExitWorktree", "TaskOutput", "TaskStop"}
		for _, name := range listed {
			args, ok := calls[name]
			Expect(ok).To(BeTrue(), "the spec has no call for the listed tool %s: add one", name)
			cmdArgs := []string{"--method", "tools/call", "--tool-name", name}
			for _, a := range args {
				cmdArgs = append(cmdArgs, "--tool-arg", a)
			}
			out := inspect(env, cmdArgs...)
			isErr, _ := out["isError"].(bool)
			text, _ := json.Marshal(out["content"])
			if slices.Contains(stateful, name) {
				Expect(isErr).To(BeTrue(), "%s: %s", name, text)
				Expect(string(text)).NotTo(BeEmpty())
				continue
			}
			Expect(isErr).To(BeFalse(), "%s: %s", name, text)
		}
		Expect(os.ReadFile(filepath.Join(dir, "new.txt"))).To(BeEquivalentTo("written over MCP\n"))
		Expect(os.ReadFile(filepath.Join(dir, "notes.txt"))).To(BeEquivalentTo("first line\nsecond line\n"), "Edit refused a file this connection had not read")
		Expect(filepath.Join(dir, ".agentcore", "worktrees", "over-mcp")).NotTo(BeAnExistingFile(), "a worktree left unchanged is removed when its connection ends")

		// A background shell ends with the connection that started it.
		out := inspect(env, "--method", "tools/call", "--tool-name", "Bash",
			"--tool-arg", "command=sleep "+marker, "--tool-arg", "run_in_background=true")
		Expect(out["isError"]).NotTo(Equal(true), "%v", out)
		Eventually(func() string {
			o, _ := exec.Command("pgrep", "-f", "sleep "+marker).Output()
			return strings.TrimSpace(string(o))
		}, 10*time.Second, 100*time.Millisecond).Should(BeEmpty(), "the background sleep outlived its MCP client")
	})
})
