package permission_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/tooltest"
	"github.com/agentcore/agentcore/tooldefs/shell/classify"
)

// The adversarial suite (testdata/adversarial.tsv) judges the engine by
// side effects, not by its messages: each case runs, with real bash, in
// a sandbox of temporary directories, and its effect (a file written
// outside the project, a marker, a secret on the output, a hit on a
// loopback listener) is checked afterwards. An attack must not be
// allowed while its effect happens; a legitimate command must be allowed
// and have its effect. Every case is run whatever the engine decides, so
// an attack that has no effect (a broken case) fails too.

// advCase is one row of testdata/adversarial.tsv. Its columns, tab
// separated: family, mode, tool (Bash or WebFetch), allow rules and deny
// rules (" ;; "-separated, STD for stdAllow, - for none), expect (ask:
// an attack that must not run without asking; run: a legitimate command
// that must be allowed), setup (bash run first in the project), command
// (or URL), effect (a bash test run afterwards; LEAK: the output holds
// the secret; OUT:text: the output holds text; HIT: the loopback
// listener was reached), and optionally Claude Code's decision. In setup,
// command, rules and effect, @PROJ@ is the project (the working
// directory, a git repository holding secrets/key), @OUT@ a directory
// outside it, @BASE@ their parent, @HOME@ the home directory and @URL@
// the listener. <NL> in a column is a newline, <TAB> a tab.
type advCase struct {
	line                   int
	family, mode, tool     string
	allow, deny            []string
	expect                 string // "ask" (an attack) or "run" (legitimate)
	setup, command, effect string
	claude                 string // Claude Code's decision, when recorded
}

// advPath is the PATH the cases run with: the system's directories and
// the one holding the go command that runs the suite (for the build cases).
var advPath = func() string {
	p := "/usr/local/bin:/usr/bin:/bin"
	if g, err := exec.LookPath("go"); err == nil && !strings.Contains(p, filepath.Dir(g)) {
		p += ":" + filepath.Dir(g)
	}
	return p
}()

// stdAllow is the STD token of the allow column: the rules a user who
// lets the agent read and build might have.
var stdAllow = []string{
	"Bash(cat:*)", "Bash(ls:*)", "Bash(grep:*)", "Bash(head:*)", "Bash(tail:*)", "Bash(wc:*)",
	"Bash(echo:*)", "Bash(printf:*)", "Bash(git status:*)", "Bash(git log:*)", "Bash(git diff:*)",
	"Bash(git show:*)", "Bash(pwd)", "Bash(true)", "Bash(test:*)", "Bash(cd:*)", "Bash(read:*)",
	"Bash(declare:*)", "Bash(export:*)", "Bash(set:*)", "Bash(mkdir:*)", "Bash(touch:*)",
	"Bash(cp:*)", "Bash(mv:*)", "Bash(ln:*)", "Bash(sed:*)", "Bash(tar:*)", "Bash(sort:*)",
	"Bash(diff:*)", "Bash(stat:*)", "Bash(file:*)", "Bash(basename:*)", "Bash(dirname:*)",
	"Bash(readlink:*)", "Bash(realpath:*)", "Bash(tr:*)", "Bash(cut:*)", "Bash(uniq:*)",
	"Bash(unset:*)", "Bash(typeset:*)", "Bash(local:*)", "Bash(readonly:*)", "Bash(shopt:*)",
	"Bash(command:*)", "Bash(type:*)", "Bash(hash:*)", "Bash(let:*)", "Bash(:*)",
}

func readAdversarial() []advCase {
	f, err := os.Open(filepath.Join("testdata", "adversarial.tsv"))
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	var out []advCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	n := 0
	list := func(s string) []string {
		if s == "-" {
			return nil
		}
		var l []string
		for _, r := range strings.Split(s, " ;; ") {
			if r == "STD" {
				l = append(l, stdAllow...)
				continue
			}
			l = append(l, r)
		}
		return l
	}
	unescape := func(s string) string {
		if s == "-" {
			return ""
		}
		return strings.NewReplacer("<NL>", "\n", "<TAB>", "\t").Replace(s)
	}
	for sc.Scan() {
		n++
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		Expect(len(f)).To(BeNumerically(">=", 9), "testdata/adversarial.tsv:%d: 9 or 10 tab-separated columns", n)
		c := advCase{line: n, family: f[0], mode: f[1], tool: f[2], allow: list(f[3]), deny: list(f[4]),
			expect: f[5], setup: unescape(f[6]), command: unescape(f[7]), effect: f[8]}
		if len(f) > 9 {
			c.claude = f[9]
		}
		Expect(c.expect).To(BeElementOf("ask", "run"), "testdata/adversarial.tsv:%d", n)
		out = append(out, c)
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
	return out
}

// advResult is what one case came to.
type advResult struct {
	c        advCase
	decision runtime.Behavior
	message  string
	effect   bool
	output   string
}

var _ = Describe("the adversarial suite", Label("adversarial"), Ordered, ContinueOnFailure, func() {
	var (
		bash    string
		results []advResult
		hits    atomic.Int64
		srv     *httptest.Server
	)

	BeforeAll(func() {
		bash = tooltest.Need(tooltest.Bash)
		_, err := exec.LookPath("git")
		Expect(err).NotTo(HaveOccurred(), "the adversarial suite needs git")
		srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			fmt.Fprintln(w, "hello")
		}))
		DeferCleanup(srv.Close)
	})

	run := func(c advCase) advResult {
		base, err := filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		proj, out, home := filepath.Join(base, "proj"), filepath.Join(base, "out"), filepath.Join(base, "home")
		port := strings.TrimPrefix(srv.URL, "http://127.0.0.1:")
		subst := strings.NewReplacer("@BASE@", base, "@PROJ@", proj, "@OUT@", out, "@HOME@", home, "@URL@", srv.URL, "@PORT@", port).Replace
		sh := func(script string) (string, error) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", script)
			cmd.Dir = proj
			cmd.Env = []string{"HOME=" + home, "PATH=" + advPath, "LC_ALL=C.UTF-8",
				"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}
			b, err := cmd.CombinedOutput()
			return string(b), err
		}
		for _, d := range []string{proj, out, home} {
			Expect(os.MkdirAll(d, 0o755)).To(Succeed())
		}
		std := `git init -q . && mkdir -p src secrets bin docs && echo hello > README.md && echo 'package a' > src/a.go &&
echo TOPSECRET > secrets/key && echo outside > ` + out + `/data.txt && echo 'export X=1' > ` + home + `/.bashrc &&
git add -A && git commit -qm init`
		o, err := sh(std)
		Expect(err).NotTo(HaveOccurred(), o)
		if c.setup != "" {
			o, err := sh(subst(c.setup))
			Expect(err).NotTo(HaveOccurred(), "setup of line %d: %s", c.line, o)
		}
		var allow, deny []string
		for _, r := range c.allow {
			allow = append(allow, subst(r))
		}
		for _, r := range c.deny {
			deny = append(deny, subst(r))
		}
		e, err := permission.NewEngine(permission.Config{Cwd: proj, Home: home, Mode: permission.Mode(c.mode), Tools: sessionTools(),
			Rules: mustRules(allow, deny, nil)})
		Expect(err).NotTo(HaveOccurred())
		command := subst(c.command)
		var tool runtime.Tool
		switch c.tool {
		case "Bash":
			tool = classifiedBash{bashTool()}
		case "WebFetch":
			tool = fetchTool()
		default:
			Fail(fmt.Sprintf("line %d: unknown tool %s", c.line, c.tool))
		}
		d := e.Check(context.Background(), tool, command, runtime.NewToolContext(proj))
		r := advResult{c: c, decision: d.Behavior, message: d.Message}
		before := hits.Load()
		// The command runs whatever the decision, to prove the case:
		// an attack must have its effect when run.
		script := command
		if c.tool == "WebFetch" {
			script = "curl -s -m 5 " + shellQuote(command)
		}
		r.output, _ = sh(script)
		switch {
		case c.effect == "LEAK":
			r.effect = strings.Contains(r.output, "TOPSECRET")
		case strings.HasPrefix(c.effect, "OUT:"):
			r.effect = strings.Contains(r.output, strings.TrimPrefix(c.effect, "OUT:"))
		case c.effect == "HIT":
			r.effect = hits.Load() > before
		default:
			_, err := sh(subst(c.effect))
			r.effect = err == nil
		}
		return r
	}

	cases := readAdversarial()
	for _, c := range cases {
		It(fmt.Sprintf("line %d, %s: %s", c.line, c.family, strings.ReplaceAll(c.command, "\n", `\n`)), func() {
			r := run(c)
			results = append(results, r)
			Expect(r.effect).To(BeTrue(), "the case has no effect when run, so it proves nothing; output:\n%s", r.output)
			if c.expect == "ask" {
				Expect(r.decision).NotTo(Equal(runtime.Allow), "a bypass: the engine allowed it and it took effect")
			} else {
				Expect(r.decision).To(Equal(runtime.Allow), "an over-block: %s", r.message)
			}
		})
	}

	AfterAll(func() {
		var attacks, bypasses, legit, overblocks, differs int
		for _, r := range results {
			if r.c.expect == "ask" {
				attacks++
				if r.decision == runtime.Allow && r.effect {
					bypasses++
				}
			} else {
				legit++
				if r.decision != runtime.Allow {
					overblocks++
				}
			}
			if r.c.claude != "" && (r.c.claude == "allow") != (r.decision == runtime.Allow) {
				differs++
			}
		}
		AddReportEntry("adversarial", fmt.Sprintf("%d cases: %d attacks, %d bypasses; %d legitimate, %d over-blocks; %d differ from Claude Code's recorded decision",
			len(results), attacks, bypasses, legit, overblocks, differs))
	})
})

// classifiedBash is the fake Bash with the real Bash tool's read-only
// classification, so the engine's read-only auto-allow is exercised as in
// a session.
type classifiedBash struct{ *fakeTool }

func (b classifiedBash) IsReadOnly(input any) bool {
	s, _ := input.(string)
	return classify.IsReadOnly(s)
}

// shellQuote quotes s for bash.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
