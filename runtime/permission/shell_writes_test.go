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

// The writes of a shell line are judged as Write calls of their paths,
// whatever prefix rule allows the command (see the package doc, "Writes
// in shell commands").
var _ = Describe("a shell line's writes", func() {
	const (
		A = runtime.Allow
		Q = runtime.Ask
		D = runtime.Deny
	)
	// The prefix rules a user could have: every command below is allowed
	// as a command, so only its writes can make it ask.
	prefixRules := []string{
		"Bash(echo:*)", "Bash(tee:*)", "Bash(sed:*)", "Bash(sort:*)", "Bash(uniq:*)", "Bash(git:*)",
		"Bash(find:*)", "Bash(awk:*)", "Bash(xargs:*)", "Bash(cp:*)", "Bash(mv:*)", "Bash(dd:*)",
		"Bash(curl:*)", "Bash(wget:*)", "Bash(tar:*)", "Bash(cat:*)", "Bash(ls:*)", "Bash(tree:*)",
		"Bash(cd:*)", "Bash(rm:*)", "Bash(touch:*)",
	}
	var dir, outside, home string

	BeforeEach(func() {
		var err error
		dir, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		outside, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		home = GinkgoT().TempDir()
		for _, d := range []string{"sub", ".git/hooks"} {
			Expect(os.MkdirAll(filepath.Join(dir, d), 0o755)).To(Succeed())
		}
		Expect(os.WriteFile(filepath.Join(dir, "in.md"), []byte("a\n"), 0o644)).To(Succeed())
	})

	engine := func(mode permission.Mode, allow, deny []string) *permission.Engine {
		GinkgoHelper()
		e, err := permission.NewEngine(permission.Config{
			Cwd: dir, Home: home, Mode: mode, Tools: sessionTools(),
			Rules: mustRules(append(append([]string(nil), prefixRules...), allow...), deny, nil),
		})
		Expect(err).NotTo(HaveOccurred())
		return e
	}
	check := func(e *permission.Engine, command string) runtime.PermissionDecision {
		return e.Check(context.Background(), bashTool(), command, runtime.NewToolContext(dir))
	}

	// Each column is a setting: the prefix rules alone in default mode;
	// acceptEdits; an Edit(*.txt) allow rule; a Write(*.txt) allow rule;
	// an Edit(*.txt) deny rule in acceptEdits; bypassPermissions.
	DescribeTable("decides like a Write of the target",
		func(command string, dflt, accept, editRule, writeRule, denied, bypass runtime.Behavior) {
			command = expandDirs(command, dir, outside)
			for _, s := range []struct {
				name string
				e    *permission.Engine
				want runtime.Behavior
			}{
				{"default", engine(permission.ModeDefault, nil, nil), dflt},
				{"acceptEdits", engine(permission.ModeAcceptEdits, nil, nil), accept},
				{"Edit(*.txt) allowed", engine(permission.ModeDefault, []string{"Edit(*.txt)"}, nil), editRule},
				{"Write(*.txt) allowed", engine(permission.ModeDefault, []string{"Write(*.txt)"}, nil), writeRule},
				{"Edit(*.txt) denied in acceptEdits", engine(permission.ModeAcceptEdits, nil, []string{"Edit(*.txt)"}), denied},
				{"bypassPermissions", engine(permission.ModeBypass, nil, nil), bypass},
			} {
				d := check(s.e, command)
				Expect(d.Behavior).To(Equal(s.want), "%s: %q: %s", s.name, command, d.Message)
			}
		},
		// Every output redirection form writes its target.
		Entry(">", "echo hi > out.txt", Q, A, A, A, D, A),
		Entry(">>", "echo hi >> out.txt", Q, A, A, A, D, A),
		Entry("1>", "echo hi 1> out.txt", Q, A, A, A, D, A),
		Entry("2>", "echo hi 2> out.txt", Q, A, A, A, D, A),
		Entry("2>>", "echo hi 2>> out.txt", Q, A, A, A, D, A),
		Entry(">|", "echo hi >| out.txt", Q, A, A, A, D, A),
		Entry("&>", "echo hi &> out.txt", Q, A, A, A, D, A),
		Entry("&>>", "echo hi &>> out.txt", Q, A, A, A, D, A),
		Entry(">& to a file", "echo hi >& out.txt", Q, A, A, A, D, A),
		Entry("<> (opens for writing, creates)", "echo hi <> out.txt", Q, A, A, A, D, A),
		Entry("no space", "echo hi >out.txt", Q, A, A, A, D, A),
		Entry("quoted target", `echo hi > "out.txt"`, Q, A, A, A, D, A),
		Entry("in a subdirectory", "echo hi > sub/out.txt", Q, A, A, A, D, A),
		Entry("through ..", "echo hi > sub/../out.txt", Q, A, A, A, D, A),
		Entry("absolute inside", "echo hi > ${DIR}/out.txt", Q, A, A, A, D, A),
		Entry("second of two commands", "echo a && echo hi > out.txt", Q, A, A, A, D, A),
		Entry("in a subshell", "(echo hi > out.txt)", Q, A, A, A, D, A),
		Entry("of a compound command", "{ echo a; echo b; } > out.txt", Q, A, A, A, D, A),
		Entry("with a here-doc", "cat > out.txt <<'EOF'\nhi\nEOF", Q, A, A, A, D, A),
		Entry("inside sh -c (a rule for sh)", `echo x && sh -c 'echo hi > out.txt'`, Q, Q, Q, Q, D, A),
		Entry("a file that is not *.txt", "echo hi > out.md", Q, A, Q, Q, A, A),

		// Redirections that write no file stay free.
		Entry("to /dev/null", "echo hi > /dev/null", A, A, A, A, A, A),
		Entry("2>&1", "echo hi 2>&1", A, A, A, A, A, A),
		Entry(">&2", "echo hi >&2", A, A, A, A, A, A),
		Entry("to /dev/stdout", "echo hi > /dev/stdout", A, A, A, A, A, A),
		Entry("to /dev/stderr", "echo hi 2> /dev/stderr", A, A, A, A, A, A),
		Entry("to /dev/fd/2", "echo hi > /dev/fd/2", A, A, A, A, A, A),
		Entry("closing an fd", "echo hi 3>&-", A, A, A, A, A, A),
		Entry("&> /dev/null", "echo hi &> /dev/null", A, A, A, A, A, A),
		Entry("input from a file", "cat < in.md", A, A, A, A, A, A),

		// Targets known only at run time never pass a rule or a mode
		// (the protected-path check asks for them in bypass too).
		Entry("a variable", "echo hi > $F", Q, Q, Q, Q, Q, Q),
		Entry("a quoted variable", `echo hi > "$F.txt"`, Q, Q, Q, Q, Q, Q),
		Entry("a command substitution", "echo hi > $(echo out).txt", Q, Q, Q, Q, Q, Q),
		Entry("a glob", "echo hi > o*.txt", Q, Q, Q, Q, Q, A),
		Entry("~user", "echo hi > ~nobody/x.txt", Q, Q, Q, Q, Q, Q),
		Entry("after a cd in a loop", "for d in a b; do cd sub; done; echo hi > out.txt", Q, Q, Q, Q, Q, A),
		Entry("after cd -", "cd - && echo hi > out.txt", Q, Q, Q, Q, Q, A),

		// Protected paths ask in every mode; no rule covers them.
		Entry("a hook", "echo hi > .git/hooks/x", Q, Q, Q, Q, Q, Q),
		Entry("a hook after cd .git", "cd .git && echo hi > hooks/x", Q, Q, Q, Q, Q, Q),
		Entry("the settings", "echo '{}' > .agentcore/settings.json", Q, Q, Q, Q, Q, Q),
		Entry("tee into a hook", "echo hi | tee .git/hooks/x", Q, Q, Q, Q, Q, Q),
		Entry("git --output into a hook", "git diff --output=.git/hooks/pre-commit", Q, Q, Q, Q, Q, Q),
		Entry("sort -o into a hook", "sort -o .git/hooks/x in.md", Q, Q, Q, Q, Q, Q),

		// A cd moves relative targets: every directory it may lead to is
		// judged.
		Entry("after cd into a subdirectory", "cd sub && echo hi > out.txt", Q, A, A, A, D, A),
		// The write happens only once cd has succeeded: outside, where
		// the project's Edit(*.txt) deny does not reach, so it asks.
		Entry("after cd outside", "cd ${OUT} && echo hi > out.txt", Q, Q, Q, Q, Q, A),
		// After "cd … ;" the write may happen in either directory.
		Entry("after cd outside or not", "cd ${OUT}; echo hi > out.txt", Q, Q, Q, Q, D, A),
		Entry("absolute after cd outside", "cd ${OUT} && echo hi > ${DIR}/out.txt", Q, A, A, A, D, A),

		// Outside the working directories: as Write, only a rule allows.
		Entry("outside", "echo hi > ${OUT}/out.md", Q, Q, Q, Q, Q, A),

		// The writing commands a prefix rule could let through.
		Entry("tee", "echo hi | tee out.txt", Q, A, A, A, D, A),
		Entry("tee -a", "echo hi | tee -a out.txt", Q, A, A, A, D, A),
		Entry("sed -i", "sed -i s/a/b/ out.txt", Q, A, A, A, D, A),
		Entry("sed --in-place=.bak", "sed --in-place=.bak -e s/a/b/ out.txt", Q, A, A, A, D, A),
		Entry("sed w", "sed -n 'w out.txt' in.md", Q, A, A, A, D, A),
		Entry("sed s///w", "sed 's/a/b/w out.txt' in.md", Q, A, A, A, D, A),
		Entry("sed e runs commands", "sed 'e touch x' in.md", Q, Q, Q, Q, Q, A),
		Entry("sed -f (script in a file)", "sed -f script.sed in.md", Q, Q, Q, Q, Q, A),
		Entry("sed without writes", "sed -n '/a/p; s/x/y/g' in.md", A, A, A, A, A, A),
		Entry("sort -o", "sort -o out.txt in.md", Q, A, A, A, D, A),
		Entry("sort --output=", "sort --output=out.txt in.md", Q, A, A, A, D, A),
		Entry("sort --outp (abbreviated)", "sort --outp=out.txt in.md", Q, A, A, A, D, A),
		Entry("sort -oFILE", "sort -oout.txt in.md", Q, A, A, A, D, A),
		Entry("sort to stdout", "sort in.md", A, A, A, A, A, A),
		Entry("uniq IN OUT", "uniq in.md out.txt", Q, A, A, A, D, A),
		Entry("uniq IN", "uniq in.md", A, A, A, A, A, A),
		Entry("tree -o", "tree -o out.txt", Q, A, A, A, D, A),
		Entry("git diff --output=", "git diff --output=out.txt", Q, A, A, A, D, A),
		Entry("git log --output FILE", "git log --output out.txt", Q, A, A, A, D, A),
		Entry("git show --outp= (abbreviated)", "git show --outp=out.txt", Q, A, A, A, D, A),
		Entry("git -C sub diff --output", "git -C sub diff --output=out.txt", Q, A, A, A, D, A),
		Entry("git format-patch -o", "git format-patch -o sub HEAD~1", Q, A, Q, Q, Q, A),
		Entry("git archive -o", "git archive -o out.txt HEAD", Q, A, A, A, D, A),
		Entry("git status", "git status", A, A, A, A, A, A),
		Entry("find -fprint", "find . -fprint out.txt", Q, A, A, A, D, A),
		Entry("find -fprintf", "find . -fprintf out.txt '%p'", Q, A, A, A, D, A),
		Entry("find -fls", "find . -fls out.txt", Q, A, A, A, D, A),
		Entry("find -delete in a directory", "find sub -name '*.txt' -delete", Q, A, Q, Q, Q, A),
		Entry("find -delete from the project root (it holds .git)", "find . -name '*.txt' -delete", Q, Q, Q, Q, Q, Q),
		Entry("find -exec cp", `find . -name in.md -exec cp {} out.txt \;`, Q, A, A, A, D, A),
		Entry("find -exec sh -c with a redirection", `find . -exec sh -c 'cat {} > {}.txt' \;`, Q, Q, Q, Q, Q, A),
		Entry("find without actions", "find . -name '*.md'", A, A, A, A, A, A),
		Entry("awk with > in its program", `awk '{print > "out.txt"}' in.md`, Q, Q, Q, Q, Q, A),
		Entry("awk with system()", `awk 'BEGIN{system("touch x")}'`, Q, Q, Q, Q, Q, A),
		Entry("awk with a pipe", `awk '{print | "sh"}' in.md`, Q, Q, Q, Q, Q, A),
		Entry("awk -f", "awk -f prog.awk in.md", Q, Q, Q, Q, Q, A),
		Entry("gawk -i inplace", "awk -i inplace '{print}' out.txt", Q, A, A, A, D, A),
		Entry("awk that only prints", "awk '{print $1}' in.md", A, A, A, A, A, A),
		Entry("xargs running a writer", "echo a | xargs tee out.txt", Q, Q, Q, Q, D, Q),
		Entry("xargs running a writer of its input only", "echo a | xargs tee", Q, Q, Q, Q, Q, Q),
		Entry("cp", "cp in.md out.txt", Q, A, A, A, D, A),
		Entry("cp into a directory", "cp in.md sub/", Q, A, Q, Q, A, A),
		Entry("cp of a .txt into a directory", "cp out.txt sub", Q, A, A, A, D, A),
		Entry("mv (the source goes too)", "mv in.md out.txt", Q, A, Q, Q, D, A),
		Entry("dd of=", "dd if=in.md of=out.txt", Q, A, A, A, D, A),
		Entry("curl -o", "curl -o out.txt http://127.0.0.1:1/x", Q, A, A, A, D, A),
		Entry("curl -O (a name from the URL)", "curl -O http://127.0.0.1:1/x.txt", Q, A, Q, Q, Q, A),
		Entry("curl to stdout", "curl -s http://127.0.0.1:1/x", A, A, A, A, A, A),
		Entry("wget (a name from the URL)", "wget http://127.0.0.1:1/x", Q, A, Q, Q, Q, A),
		Entry("wget -O", "wget -O out.txt http://127.0.0.1:1/x", Q, A, A, A, D, A),
		Entry("tar -x", "tar -xf a.tar", Q, A, Q, Q, Q, A),
		Entry("tar xzf (old style)", "tar xzf a.tgz", Q, A, Q, Q, Q, A),
		Entry("tar -cf", "tar -cf out.txt sub", Q, A, A, A, D, A),
		Entry("tar -tf (lists)", "tar -tf a.tar", A, A, A, A, A, A),
		Entry("rm -rf a directory", "rm -rf sub", Q, A, Q, Q, Q, A),
		Entry("touch", "touch out.txt", Q, A, A, A, D, A),
	)

	It("names the path in its message, as Claude Code does", func() {
		d := check(engine(permission.ModeDefault, nil, nil), "echo hi > notes.txt")
		Expect(d.Behavior).To(Equal(runtime.Ask))
		Expect(d.Message).To(ContainSubstring("Output redirection to 'notes.txt'"))
		Expect(d.Message).To(ContainSubstring(filepath.Join(dir, "notes.txt")))
		Expect(d.Message).To(ContainSubstring("needs approval"))
		d = check(engine(permission.ModeDefault, nil, []string{"Edit(secret.txt)"}), "echo hi | tee secret.txt")
		Expect(d.Behavior).To(Equal(runtime.Deny))
		Expect(d.Message).To(ContainSubstring("Edit(secret.txt)"))
		Expect(d.Message).To(ContainSubstring("tee to 'secret.txt'"))
	})

	It("denies an asked write in a non-interactive run, offering no rule that would not cover it", func() {
		e := engine(permission.ModeDefault, nil, nil)
		e.SetAsker(ask.NonInteractive{})
		d := e.CanUseTool(context.Background(), runtime.NewInvocation(bashTool(), "echo hi > notes.txt"), runtime.NewToolContext(dir))
		Expect(d.Behavior).To(Equal(runtime.Deny))
		Expect(d.Message).To(ContainSubstring("notes.txt"))
		Expect(d.Message).NotTo(ContainSubstring("Bash(echo hi)"))
	})

	It("judges relative targets against the command's working directory", func() {
		e := engine(permission.ModeDefault, []string{"Edit(sub/**)"}, nil)
		tc := runtime.NewToolContext(dir)
		tc.Cwd = filepath.Join(dir, "sub")
		Expect(e.Check(context.Background(), bashTool(), "echo hi > f.md", tc).Behavior).To(Equal(runtime.Allow))
		Expect(e.Check(context.Background(), bashTool(), "echo hi > ../f.md", tc).Behavior).To(Equal(runtime.Ask))
		Expect(check(e, "echo hi > f.md").Behavior).To(Equal(runtime.Ask))
		Expect(check(e, "echo hi > sub/f.md").Behavior).To(Equal(runtime.Allow))
		// After "cd sub &&", f.md is sub/f.md; after "cd sub;" it may be
		// sub/f.md or ./f.md, and both are judged.
		Expect(check(e, "cd sub && echo hi > f.md").Behavior).To(Equal(runtime.Allow))
		Expect(check(e, "cd sub; echo hi > f.md").Behavior).To(Equal(runtime.Ask))
		Expect(check(e, "cd sub || true; echo hi > f.md").Behavior).To(Equal(runtime.Ask))
		Expect(check(e, "(cd sub && echo hi > f.md) && echo hi > sub/g.md").Behavior).To(Equal(runtime.Allow))
		Expect(check(e, "(cd sub && echo hi > f.md) && echo hi > g.md").Behavior).To(Equal(runtime.Ask))
		Expect(check(e, "pushd sub && echo hi > f.md && popd && echo hi > sub/g.md").Behavior).To(Equal(runtime.Allow))
		Expect(check(e, "cd sub && cd - && echo hi > f.md").Behavior).To(Equal(runtime.Ask))
	})

	It("lets an Edit rule for a path outside allow a write there", func() {
		e := engine(permission.ModeAcceptEdits, []string{"Edit(/" + outside + "/**)"}, nil)
		Expect(check(e, "echo hi > "+outside+"/x.md").Behavior).To(Equal(runtime.Allow))
		Expect(check(e, "echo hi > /tmp/elsewhere-"+filepath.Base(outside)).Behavior).To(Equal(runtime.Ask))
	})

	It("lets a blanket Bash allow rule allow writes, as Claude Code does, but not protected ones", func() {
		e := engine(permission.ModeDefault, []string{"Bash"}, nil)
		Expect(check(e, "echo hi > out.txt").Behavior).To(Equal(runtime.Allow))
		Expect(check(e, "echo hi > .git/hooks/x").Behavior).To(Equal(runtime.Ask))
		e = engine(permission.ModeDefault, []string{"Bash"}, []string{"Edit(*.txt)"})
		Expect(check(e, "echo hi > out.txt").Behavior).To(Equal(runtime.Deny))
	})

	It("keeps plan mode from running a read-only command that writes", func() {
		// A shell tool whose classifier calls every line read-only: the
		// writes decide.
		e := engine(permission.ModePlan, nil, nil)
		ro := bashTool()
		ro.readOnly = true
		tc := runtime.NewToolContext(dir)
		Expect(e.Check(context.Background(), ro, "echo hi > out.txt", tc).Behavior).To(Equal(runtime.Deny))
		Expect(e.Check(context.Background(), ro, "echo hi | tee out.txt", tc).Behavior).To(Equal(runtime.Deny))
		Expect(e.Check(context.Background(), ro, "ls > /dev/null", tc).Behavior).To(Equal(runtime.Allow))
		// In default mode such a line is not run unasked either.
		e = engine(permission.ModeDefault, nil, nil)
		Expect(e.Check(context.Background(), ro, "cat in.md > out.md", tc).Behavior).To(Equal(runtime.Ask))
		Expect(e.Check(context.Background(), ro, "cat in.md 2>/dev/null", tc).Behavior).To(Equal(runtime.Allow))
	})
})

// expandDirs replaces ${DIR} and ${OUT} in a command.
func expandDirs(command, dir, out string) string {
	return strings.NewReplacer("${DIR}", dir, "${OUT}", out).Replace(command)
}
