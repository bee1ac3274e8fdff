package permission_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/permission"
)

var _ = Describe("Engine", func() {
	var (
		ctx     context.Context
		work    string // the working directory
		outside string // a directory outside it
		home    string
		tc      *runtime.ToolContext
	)

	newEngine := func(mode permission.Mode, allow, deny, ask []string, addDirs ...string) *permission.Engine {
		e, err := permission.NewEngine(permission.Config{
			Cwd: work, Home: home, Mode: mode, Rules: mustRules(allow, deny, ask), AddDirs: addDirs, Tools: sessionTools(),
		})
		Expect(err).NotTo(HaveOccurred())
		return e
	}
	check := func(e *permission.Engine, t runtime.Tool, input string) runtime.PermissionDecision {
		return e.Check(ctx, t, input, tc)
	}

	BeforeEach(func() {
		ctx = context.Background()
		var err error
		// Resolve the temp dirs themselves so expectations compare real paths.
		work, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		outside, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		home = GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(work, "src"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(work, "src", "a.go"), []byte("package a"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("s"), 0o644)).To(Succeed())
		tc = runtime.NewToolContext(work)
	})

	Describe("working directories", func() {
		It("keeps where a working directory led at its first check: one replaced by a symlink to / does not widen what is inside", func() {
			base, err := filepath.EvalSymlinks(GinkgoT().TempDir())
			Expect(err).NotTo(HaveOccurred())
			proj := filepath.Join(base, "proj")
			Expect(os.Mkdir(proj, 0o755)).To(Succeed())
			e, err := permission.NewEngine(permission.Config{Cwd: proj, Home: home, Mode: permission.ModeAcceptEdits, Tools: sessionTools()})
			Expect(err).NotTo(HaveOccurred())
			ptc := runtime.NewToolContext(proj)
			Expect(e.Check(ctx, editTool(), filepath.Join(proj, "f.txt"), ptc).Behavior).To(Equal(runtime.Allow))
			// The project is moved away and its path made a link to the
			// directory holding the outside one.
			Expect(os.Rename(proj, proj+".old")).To(Succeed())
			Expect(os.Symlink(outside, proj)).To(Succeed())
			Expect(e.Check(ctx, editTool(), filepath.Join(proj, "secret.txt"), ptc).Behavior).To(Equal(runtime.Ask),
				"a path through the new link leads outside the directory the session started in")
			Expect(e.WorkingDirs(ptc)).To(Equal([]string{proj}), "WorkingDirs answers the pinned directory too")
		})
	})

	Describe("the order deny → ask → tool → mode → allow → ask", func() {
		It("lets a deny rule beat an allow rule", func() {
			e := newEngine("", []string{"Bash"}, []string{"Bash(rm:*)"}, nil)
			Expect(check(e, bashTool(), "rm -rf x").Behavior).To(Equal(runtime.Deny))
			Expect(check(e, bashTool(), "make").Behavior).To(Equal(runtime.Allow))
		})
		It("lets a deny rule beat an ask rule", func() {
			e := newEngine("", nil, []string{"Bash(git push:*)"}, []string{"Bash(git push:*)"})
			Expect(check(e, bashTool(), "git push").Behavior).To(Equal(runtime.Deny))
		})
		It("lets an ask rule beat a more specific allow rule", func() {
			e := newEngine("", []string{"Bash(git push origin main)"}, nil, []string{"Bash(git push:*)"})
			Expect(check(e, bashTool(), "git push origin main").Behavior).To(Equal(runtime.Ask))
		})
		It("lets the tool's own deny beat an allow rule", func() {
			t := bashTool()
			t.own = runtime.PermissionDecision{Behavior: runtime.Deny, Message: "no"}
			e := newEngine(permission.ModeBypass, []string{"Bash"}, nil, nil)
			d := check(e, t, "ls")
			Expect(d.Behavior).To(Equal(runtime.Deny))
			Expect(d.Message).To(Equal("no"))
		})
		It("lets the tool's own ask beat an allow rule, except in bypass mode", func() {
			t := bashTool()
			t.own = runtime.PermissionDecision{Behavior: runtime.Ask}
			Expect(check(newEngine("", []string{"Bash"}, nil, nil), t, "ls").Behavior).To(Equal(runtime.Ask))
			Expect(check(newEngine(permission.ModeBypass, nil, nil, nil), t, "ls").Behavior).To(Equal(runtime.Allow))
		})
		It("honours the tool's own allow", func() {
			t := bashTool()
			t.own = runtime.PermissionDecision{Behavior: runtime.Allow}
			Expect(check(newEngine("", nil, nil, nil), t, "make").Behavior).To(Equal(runtime.Allow))
		})
		It("denies when the tool's own check panics", func() {
			t := bashTool()
			t.panics = true
			d := check(newEngine(permission.ModeBypass, nil, nil, nil), t, "ls")
			Expect(d.Behavior).To(Equal(runtime.Deny))
			Expect(d.Message).To(ContainSubstring("permission check failed"))
		})
		It("asks when nothing decides", func() {
			d := check(newEngine("", nil, nil, nil), bashTool(), "make")
			Expect(d.Behavior).To(Equal(runtime.Ask))
			Expect(d.Message).To(ContainSubstring(`Bash with command "make" needs approval`))
		})
		It("names the rule and its source in a deny message", func() {
			d := check(newEngine("", nil, []string{"Bash(rm:*)"}, nil), bashTool(), "rm x")
			Expect(d.Message).To(ContainSubstring("Bash(rm:*)"))
			Expect(d.Message).To(ContainSubstring("command line"))
		})
	})

	Describe("modes", func() {
		It("plan mode denies what is not read-only, even when a rule allows it", func() {
			e := newEngine(permission.ModePlan, []string{"Bash", "Edit"}, nil, nil)
			Expect(check(e, bashTool(), "make").Behavior).To(Equal(runtime.Deny))
			Expect(check(e, editTool(), "src/a.go").Behavior).To(Equal(runtime.Deny))
			Expect(check(e, readTool(), "src/a.go").Behavior).To(Equal(runtime.Allow))
		})
		It("bypass mode allows, but deny and ask rules still hold", func() {
			e := newEngine(permission.ModeBypass, nil, []string{"Bash(rm:*)"}, []string{"Bash(git push:*)"})
			Expect(check(e, bashTool(), "make install").Behavior).To(Equal(runtime.Allow))
			Expect(check(e, bashTool(), "rm x").Behavior).To(Equal(runtime.Deny))
			Expect(check(e, bashTool(), "git push").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, editTool(), "src/a.go").Behavior).To(Equal(runtime.Allow))
		})
		It("bypass mode still asks for protected paths", func() {
			e := newEngine(permission.ModeBypass, []string{"Edit", "Bash"}, nil, nil)
			Expect(check(e, editTool(), ".git/config").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, writeTool(), ".agentcore/settings.json").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, writeTool(), ".agentcore/settings.local.json").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, bashTool(), "echo x > .git/HEAD").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, readTool(), ".git/config").Behavior).To(Equal(runtime.Allow))
		})
		It("acceptEdits allows edits inside the working directories only", func() {
			e := newEngine(permission.ModeAcceptEdits, nil, nil, nil)
			Expect(check(e, editTool(), "src/a.go").Behavior).To(Equal(runtime.Allow))
			Expect(check(e, writeTool(), "src/new.go").Behavior).To(Equal(runtime.Allow))
			Expect(check(e, editTool(), filepath.Join(outside, "secret.txt")).Behavior).To(Equal(runtime.Ask))
			Expect(check(e, bashTool(), "make").Behavior).To(Equal(runtime.Ask))
		})
		It("default mode allows read-only calls inside the working directories", func() {
			e := newEngine("", nil, nil, nil)
			Expect(check(e, readTool(), "src/a.go").Behavior).To(Equal(runtime.Allow))
			Expect(check(e, grepTool(), ".").Behavior).To(Equal(runtime.Allow))
			Expect(check(e, readTool(), filepath.Join(outside, "secret.txt")).Behavior).To(Equal(runtime.Ask))
			Expect(check(e, editTool(), "src/a.go").Behavior).To(Equal(runtime.Ask))
		})
		It("default mode allows read-only shell lines only when nothing taints them", func() {
			e := newEngine("", nil, nil, nil)
			ro := bashTool()
			ro.readOnly = true
			Expect(check(e, ro, "ls -la").Behavior).To(Equal(runtime.Allow))
			Expect(check(e, ro, "ls $(rm -rf x)").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, ro, "ls > listing.txt").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, ro, "cat src/a.go ./src").Behavior).To(Equal(runtime.Allow))
			Expect(check(e, ro, "cat ~/.ssh/id_rsa").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, ro, "cat /etc/passwd").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, ro, "cat ../x").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, ro, "grep --file=/etc/passwd x").Behavior).To(Equal(runtime.Ask))
		})
		It("allows a read-only shell line that cds inside the working directories, and asks for one that cds out", func() {
			e := newEngine("", nil, nil, nil)
			ro := bashTool()
			ro.readOnly = true
			Expect(check(e, ro, "cd src && pwd").Behavior).To(Equal(runtime.Allow))
			Expect(check(e, ro, "cd ./src && ls -la").Behavior).To(Equal(runtime.Allow))
			Expect(check(e, ro, "cd .. && pwd").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, ro, "cd /etc && pwd").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, ro, "cd "+outside+" && ls").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, ro, "cd ~ && ls").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, ro, "cd src && cat ../../x").Behavior).To(Equal(runtime.Ask), "relative to where the cd went")
		})
		It("does not auto-allow read-only shell lines naming a Read-denied path", func() {
			e := newEngine("", nil, []string{"Read(./secrets/**)"}, nil)
			ro := bashTool()
			ro.readOnly = true
			Expect(check(e, ro, "cat secrets/key.pem").Behavior).To(Equal(runtime.Ask))
		})
		It("never auto-allows MCP tools on their read-only hint", func() {
			e := newEngine("", nil, nil, nil)
			Expect(check(e, &fakeTool{name: "mcp__db__query", readOnly: true}, "").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, &fakeTool{name: "TodoRead", readOnly: true}, "").Behavior).To(Equal(runtime.Allow))
		})
		It("never auto-allows network fetches", func() {
			e := newEngine("", []string{"WebFetch(domain:go.dev)"}, []string{"WebFetch(domain:evil.com)"}, nil)
			Expect(check(e, fetchTool(), "https://example.com/").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, fetchTool(), "https://go.dev/doc").Behavior).To(Equal(runtime.Allow))
			Expect(check(e, fetchTool(), "https://evil.com/x").Behavior).To(Equal(runtime.Deny))
		})
		It("dontAsk turns ask into deny with a way out", func() {
			e := newEngine(permission.ModeDontAsk, []string{"Bash(git status:*)"}, nil, nil)
			Expect(e.CanUseTool(ctx, runtime.NewInvocation(bashTool(), "git status"), tc).Behavior).To(Equal(runtime.Allow))
			d := e.CanUseTool(ctx, runtime.NewInvocation(bashTool(), "make"), tc)
			Expect(d.Behavior).To(Equal(runtime.Deny))
			Expect(d.Message).To(ContainSubstring("dontAsk"))
			Expect(d.Message).To(ContainSubstring("To allow it, add 'Bash(make)' to permissions.allow in .agentcore/settings.json."))
		})
		It("rejects an unknown mode", func() {
			_, err := permission.ParseMode("yolo")
			Expect(err).To(MatchError(ContainSubstring("bypassPermissions")))
		})
	})

	Describe("file rules", func() {
		It("applies Edit rules to every tool that writes", func() {
			e := newEngine("", []string{"Edit(src/**)"}, nil, nil)
			Expect(check(e, editTool(), "src/a.go").Behavior).To(Equal(runtime.Allow))
			Expect(check(e, writeTool(), "src/b.go").Behavior).To(Equal(runtime.Allow))
			Expect(check(e, writeTool(), "main.go").Behavior).To(Equal(runtime.Ask))
		})
		It("applies Read deny rules to every tool that reads", func() {
			Expect(os.MkdirAll(filepath.Join(work, "secrets"), 0o755)).To(Succeed())
			e := newEngine("", nil, []string{"Read(./secrets/**)"}, nil)
			Expect(check(e, readTool(), "secrets/key.pem").Behavior).To(Equal(runtime.Deny))
			Expect(check(e, grepTool(), "secrets/key.pem").Behavior).To(Equal(runtime.Deny))
			Expect(check(e, readTool(), "src/a.go").Behavior).To(Equal(runtime.Allow))
		})
		It("lets an explicit allow rule reach outside the working directories", func() {
			e := newEngine("", []string{"Read(/" + outside + "/**)"}, nil, nil)
			Expect(check(e, readTool(), filepath.Join(outside, "secret.txt")).Behavior).To(Equal(runtime.Allow))
		})
		It("treats --add-dir directories as working directories", func() {
			e := newEngine(permission.ModeAcceptEdits, nil, nil, nil, outside)
			Expect(check(e, readTool(), filepath.Join(outside, "secret.txt")).Behavior).To(Equal(runtime.Allow))
			Expect(check(e, editTool(), filepath.Join(outside, "secret.txt")).Behavior).To(Equal(runtime.Allow))
		})
		It("refuses an --add-dir that does not exist", func() {
			_, err := permission.NewEngine(permission.Config{Cwd: work, AddDirs: []string{filepath.Join(work, "nope")}})
			Expect(err).To(MatchError(ContainSubstring("does not exist")))
		})
	})

	Describe("symlinks", func() {
		BeforeEach(func() {
			Expect(os.Symlink(outside, filepath.Join(work, "link"))).To(Succeed())
			Expect(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(work, "src", "file-link"))).To(Succeed())
		})

		It("judges a path through a directory link by where it leads", func() {
			e := newEngine(permission.ModeAcceptEdits, nil, nil, nil)
			d := check(e, readTool(), "link/secret.txt")
			Expect(d.Behavior).To(Equal(runtime.Ask))
			Expect(d.Message).To(ContainSubstring("really " + filepath.Join(outside, "secret.txt")))
			Expect(check(e, editTool(), "link/secret.txt").Behavior).To(Equal(runtime.Ask))
		})
		It("judges a file link by its target", func() {
			e := newEngine(permission.ModeAcceptEdits, nil, nil, nil)
			Expect(check(e, editTool(), "src/file-link").Behavior).To(Equal(runtime.Ask))
		})
		It("resolves the parent of a file that does not exist yet", func() {
			e := newEngine(permission.ModeAcceptEdits, nil, nil, nil)
			Expect(check(e, writeTool(), "link/new/deeper.txt").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, writeTool(), "src/new/deeper.txt").Behavior).To(Equal(runtime.Allow))
		})
		It("does not let a lexical allow rule cover a link that escapes", func() {
			e := newEngine("", []string{"Edit(./link/**)"}, nil, nil)
			Expect(check(e, editTool(), "link/secret.txt").Behavior).To(Equal(runtime.Ask))
		})
		It("applies deny rules to the real path behind a link", func() {
			e := newEngine("", []string{"Read"}, []string{"Read(/" + outside + "/**)"}, nil)
			Expect(check(e, readTool(), "link/secret.txt").Behavior).To(Equal(runtime.Deny))
			Expect(check(e, readTool(), "src/file-link").Behavior).To(Equal(runtime.Deny))
		})
		It("resolves a working directory given through a link", func() {
			alias := filepath.Join(outside, "work-alias")
			Expect(os.Symlink(work, alias)).To(Succeed())
			e, err := permission.NewEngine(permission.Config{Cwd: alias, Home: home, Mode: permission.ModeAcceptEdits})
			Expect(err).NotTo(HaveOccurred())
			aliasTC := runtime.NewToolContext(alias)
			Expect(e.Check(ctx, editTool(), "src/a.go", aliasTC).Behavior).To(Equal(runtime.Allow))
			Expect(e.Check(ctx, editTool(), filepath.Join(work, "src", "a.go"), aliasTC).Behavior).To(Equal(runtime.Allow))
			Expect(e.Check(ctx, editTool(), filepath.Join(outside, "secret.txt"), aliasTC).Behavior).To(Equal(runtime.Ask))
		})
		It("reads ~ as the real home even when none is configured", func() {
			e, err := permission.NewEngine(permission.Config{Cwd: work})
			Expect(err).NotTo(HaveOccurred())
			Expect(e.Check(ctx, readTool(), "~/.ssh/id_rsa", tc).Behavior).To(Equal(runtime.Ask))
		})
		It("protects .git reached through a link", func() {
			Expect(os.MkdirAll(filepath.Join(outside, ".git"), 0o755)).To(Succeed())
			e := newEngine(permission.ModeBypass, nil, nil, nil, outside)
			Expect(check(e, writeTool(), "link/.git/config").Behavior).To(Equal(runtime.Ask))
		})
		Context("a dangling link inside the working directory that points outside", func() {
			BeforeEach(func() {
				Expect(os.Symlink(filepath.Join(outside, "not-yet", "f.txt"), filepath.Join(work, "src", "dangling"))).To(Succeed())
			})

			It("is outside for a write, in every mode, bypass included", func() {
				for _, m := range []permission.Mode{permission.ModeDefault, permission.ModeAcceptEdits, permission.ModeBypass} {
					d := check(newEngine(m, []string{"Bash"}, nil, nil), writeTool(), "src/dangling")
					Expect(d.Behavior).To(Equal(runtime.Ask), "mode %s: %s", m, d.Message)
					Expect(d.Message).To(ContainSubstring("really " + filepath.Join(outside, "not-yet", "f.txt")))
				}
			})
			It("is outside for a read", func() {
				Expect(check(newEngine("", nil, nil, nil), readTool(), "src/dangling").Behavior).To(Equal(runtime.Ask))
			})
			It("is denied when nobody can be asked", func() {
				e := newEngine(permission.ModeBypass, nil, nil, nil)
				e.SetAsker(ask.NonInteractive{})
				Expect(e.CanUseTool(ctx, runtime.NewInvocation(writeTool(), "src/dangling"), tc).Behavior).To(Equal(runtime.Deny))
			})
			It("keeps a shell redirection through it from being allowed by a rule", func() {
				e := newEngine("", []string{"Bash(echo *)"}, nil, nil)
				Expect(check(e, bashTool(), "echo hi > src/dangling").Behavior).To(Equal(runtime.Ask))
			})
		})
		It("protects .git reached through a dangling link", func() {
			Expect(os.MkdirAll(filepath.Join(work, ".git", "hooks"), 0o755)).To(Succeed())
			Expect(os.Symlink(filepath.Join(work, ".git", "hooks", "pre-commit"), filepath.Join(work, "hook"))).To(Succeed())
			d := check(newEngine(permission.ModeBypass, nil, nil, nil), writeTool(), "hook")
			Expect(d.Behavior).To(Equal(runtime.Ask))
			Expect(d.Message).To(ContainSubstring("protected path"))
		})
		It("treats a symlink loop as outside", func() {
			Expect(os.Symlink(filepath.Join(work, "loop-b"), filepath.Join(work, "loop-a"))).To(Succeed())
			Expect(os.Symlink(filepath.Join(work, "loop-a"), filepath.Join(work, "loop-b"))).To(Succeed())
			d := check(newEngine(permission.ModeAcceptEdits, nil, nil, nil), writeTool(), "loop-a")
			Expect(d.Behavior).To(Equal(runtime.Ask))
			Expect(d.Message).To(ContainSubstring("cannot be resolved"))
		})
		It("treats a redirection through a link as outside", func() {
			e := newEngine(permission.ModeAcceptEdits, []string{"Bash(echo *)"}, nil, nil)
			Expect(check(e, bashTool(), "echo hi > link/x").Behavior).To(Equal(runtime.Ask))
			Expect(check(e, bashTool(), "echo hi > src/x").Behavior).To(Equal(runtime.Allow))
		})
	})

	Describe("tool names", func() {
		It("normalises aliases: a rule naming an alias applies to the tool", func() {
			e := newEngine("", nil, []string{"Shell(rm:*)"}, nil)
			Expect(check(e, bashTool(), "rm x").Behavior).To(Equal(runtime.Deny))
			Expect(e.Rules()[0].String()).To(Equal("Bash(rm:*)"), "Config.Tools normalised the alias")
			raw, err := permission.NewEngine(permission.Config{Cwd: work, Home: home, Rules: mustRules(nil, []string{"Shell(rm:*)"}, nil)})
			Expect(err).NotTo(HaveOccurred())
			Expect(raw.Rules()[0].String()).To(Equal("Shell(rm:*)"))
			raw.UseTools([]runtime.Tool{bashTool()})
			Expect(raw.Rules()[0].String()).To(Equal("Bash(rm:*)"))
		})
		It("lets path rules govern other tools by the family their tool declares, not by its name", func() {
			rules := mustRules(nil, []string{"Peek(./secret/**)", "Scribble(./locked/**)"}, nil)
			peek := &fakeTool{name: "Peek", kind: runtime.TargetPath, readOnly: true, family: runtime.FamilyReadPath}
			scribble := &fakeTool{name: "Scribble", kind: runtime.TargetPath, writes: true, family: runtime.FamilyEditPath}
			e, err := permission.NewEngine(permission.Config{Cwd: work, Home: home, Rules: rules, Tools: []runtime.Tool{peek, scribble, grepTool(), writeTool()}})
			Expect(err).NotTo(HaveOccurred())
			Expect(check(e, grepTool(), "secret/key").Behavior).To(Equal(runtime.Deny))
			Expect(check(e, writeTool(), "locked/x").Behavior).To(Equal(runtime.Deny))
			Expect(check(e, grepTool(), "locked/x").Behavior).NotTo(Equal(runtime.Deny), "an edit-path deny does not stop reads")
			Expect(check(e, writeTool(), "secret/key").Behavior).NotTo(Equal(runtime.Deny), "a read-path deny does not stop writes")

			alone, err := permission.NewEngine(permission.Config{Cwd: work, Home: home, Rules: mustRules(nil, []string{"Read(./secret/**)"}, nil)})
			Expect(err).NotTo(HaveOccurred())
			Expect(check(alone, grepTool(), "secret/key").Behavior).NotTo(Equal(runtime.Deny), "without the session's tools a rule governs only its own tool")
			alone.UseTools(sessionTools())
			Expect(check(alone, grepTool(), "secret/key").Behavior).To(Equal(runtime.Deny))
		})
		DescribeTable("blanket deny rules remove tools",
			func(rule string, name string, want bool) {
				e := newEngine("", nil, []string{rule}, nil)
				Expect(e.DeniesTool(&fakeTool{name: name, aliases: []string{"Shell"}})).To(Equal(want))
			},
			Entry("tool name", "Bash", "Bash", true),
			Entry("Bash(*)", "Bash(*)", "Bash", true),
			Entry("alias", "Shell", "Bash", true),
			Entry("content rule keeps the tool", "Bash(rm:*)", "Bash", false),
			Entry("other tool", "Bash", "Read", false),
			Entry("mcp server", "mcp__github", "mcp__github__get_issue", true),
			Entry("mcp server wildcard", "mcp__github__*", "mcp__github__get_issue", true),
			Entry("mcp server prefix is not another server", "mcp__git", "mcp__github__get_issue", false),
			Entry("mcp tool", "mcp__github__get_issue", "mcp__github__get_issue", true),
			Entry("other mcp tool", "mcp__github__get_issue", "mcp__github__list", false),
		)
		It("matches MCP server rules on calls", func() {
			e := newEngine("", []string{"mcp__db"}, []string{"mcp__db__drop"}, nil)
			Expect(check(e, &fakeTool{name: "mcp__db__query"}, "").Behavior).To(Equal(runtime.Allow))
			Expect(check(e, &fakeTool{name: "mcp__db__drop"}, "").Behavior).To(Equal(runtime.Deny))
			Expect(check(e, &fakeTool{name: "mcp__other__x"}, "").Behavior).To(Equal(runtime.Ask))
		})
	})

	Describe("asking", func() {
		It("prompts and remembers 'always' for the session", func() {
			var out strings.Builder
			e := newEngine("", nil, nil, nil)
			e.SetAsker(ask.NewPrompt(strings.NewReader("2\n"), &out))
			Expect(e.CanUseTool(ctx, runtime.NewInvocation(bashTool(), "make build"), tc).Behavior).To(Equal(runtime.Allow))
			Expect(out.String()).To(ContainSubstring("Bash: make build"))
			Expect(out.String()).To(ContainSubstring("2. Yes, and allow Bash(make build) for this session"))
			// The reader is empty now: a second prompt would deny.
			Expect(e.CanUseTool(ctx, runtime.NewInvocation(bashTool(), "make build"), tc).Behavior).To(Equal(runtime.Allow))
			Expect(e.CanUseTool(ctx, runtime.NewInvocation(bashTool(), "make clean"), tc).Behavior).To(Equal(runtime.Deny))
		})
		It("allows once and asks again next time", func() {
			var out strings.Builder
			e := newEngine("", nil, nil, nil)
			e.SetAsker(ask.NewPrompt(strings.NewReader("what\ny\nno\n"), &out))
			Expect(e.CanUseTool(ctx, runtime.NewInvocation(bashTool(), "make"), tc).Behavior).To(Equal(runtime.Allow))
			Expect(out.String()).To(ContainSubstring("Please answer"))
			d := e.CanUseTool(ctx, runtime.NewInvocation(bashTool(), "make"), tc)
			Expect(d.Behavior).To(Equal(runtime.Deny))
			Expect(d.Message).To(ContainSubstring("The user denied Bash"))
		})
		It("offers no 'always' when a rule could not cover the call", func() {
			var out strings.Builder
			e := newEngine("", nil, nil, nil)
			e.SetAsker(ask.NewPrompt(strings.NewReader("2\n"), &out))
			Expect(e.CanUseTool(ctx, runtime.NewInvocation(bashTool(), "echo $(date)"), tc).Behavior).To(Equal(runtime.Deny))
			Expect(out.String()).NotTo(ContainSubstring("for this session"))
		})
		It("denies at end of input", func() {
			e := newEngine("", nil, nil, nil)
			e.SetAsker(ask.NewPrompt(strings.NewReader(""), &strings.Builder{}))
			Expect(e.CanUseTool(ctx, runtime.NewInvocation(bashTool(), "make"), tc).Behavior).To(Equal(runtime.Deny))
		})
		It("denies non-interactively with a rule to add", func() {
			e := newEngine("", nil, nil, nil)
			e.SetAsker(ask.NonInteractive{})
			d := e.CanUseTool(ctx, runtime.NewInvocation(bashTool(), "git push origin main"), tc)
			Expect(d.Behavior).To(Equal(runtime.Deny))
			Expect(d.Message).To(ContainSubstring("non-interactive"))
			Expect(d.Message).To(ContainSubstring("add 'Bash(git push origin main)' to permissions.allow"))
			d = e.CanUseTool(ctx, runtime.NewInvocation(editTool(), filepath.Join(outside, "secret.txt")), tc)
			Expect(d.Message).To(ContainSubstring("Edit(/" + outside + "/**)"))
		})
		It("words its advice as the front end says", func() {
			e, err := permission.NewEngine(permission.Config{Cwd: work, Home: home, Tools: sessionTools(), Asker: ask.NonInteractive{},
				Advice: permission.Advice{
					AllowRule: func(rule string) string { return "pass --allowedTools '" + rule + "'" },
					AddDir:    func(dir string) string { return "pass --add-dir " + dir },
				}})
			Expect(err).NotTo(HaveOccurred())
			d := e.CanUseTool(ctx, runtime.NewInvocation(bashTool(), "make"), tc)
			Expect(d.Message).To(HaveSuffix("To allow it, pass --allowedTools 'Bash(make)'."))
			d = e.Check(ctx, readTool(), filepath.Join(outside, "secret.txt"), tc)
			Expect(d.Message).To(ContainSubstring("To allow it, pass --add-dir " + outside + "."))
		})
		It("never returns ask or passthrough", func() {
			e := newEngine("", nil, nil, []string{"Read"})
			for _, in := range []string{"src/a.go", "/etc/passwd", ""} {
				b := e.CanUseTool(ctx, runtime.NewInvocation(readTool(), in), tc).Behavior
				Expect(b).To(Or(Equal(runtime.Allow), Equal(runtime.Deny)))
			}
		})
	})
})
