package permission_test

import (
	"context"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
)

// These specs hold the engine to the programs table (runtime/shellprog):
// an allow rule for a program lets it run; it does not let it run
// another program, write outside what the mode allows, or use an option
// agentcore cannot judge (issue 34, point 1).
var _ = Describe("programs modelled by their options", func() {
	var (
		engine *permission.Engine
		tc     *runtime.ToolContext
		dir    string
	)

	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(dir, "sub"), 0o755)).To(Succeed())
		rules := mustRules(
			[]string{"Bash(git grep:*)", "Bash(git log:*)", "Bash(git fetch:*)", "Bash(git ls-remote:*)",
				"Bash(git status:*)", "Bash(git config:*)", "Bash(rg:*)", "Bash(ssh:*)", "Bash(vim:*)", "Bash(less:*)", "Bash(zip:*)",
				"Bash(make:*)", "Bash(npm run:*)", "Bash(yarn:*)", "Bash(pnpm:*)", "Bash(tar:*)", "Bash(sort:*)",
				"Bash(rsync:*)", "Bash(sed:*)", "Bash(awk:*)", "Bash(xxd:*)", "Bash(shuf:*)", "Bash(uniq:*)",
				"Bash(curl:*)", "Bash(wget:*)", "Bash(find:*)"},
			[]string{"Bash(git push:*)", "Bash(git commit:*)"},
			nil,
		)
		var err error
		engine, err = permission.NewEngine(permission.Config{Cwd: dir, Home: GinkgoT().TempDir(), Rules: rules})
		Expect(err).NotTo(HaveOccurred())
		tc = runtime.NewToolContext(dir)
	})

	check := func(command string) runtime.PermissionDecision {
		return engine.Check(context.Background(), bashTool(), command, tc)
	}

	DescribeTable("an allow rule for the program does not cover an option that runs a program or that cannot be judged",
		func(command, reason string) {
			d := check(command)
			Expect(d.Behavior).To(Equal(runtime.Ask), "command %q: %s", command, d.Message)
			Expect(d.Message).To(ContainSubstring(reason))
		},
		Entry("git grep -O", "git grep -Otouch foo", "git grep -O runs a program"),
		Entry("git -C dir grep -O", "git -C sub grep --open-files-in-pager=x foo", "runs a program"),
		Entry("git -c alias with !", "git -c alias.log='!touch pwned' log", "git -c runs a program"),
		Entry("git -c core.pager", "git -c core.pager='touch x' log", "git -c runs a program"),
		Entry("git fetch --upload-pack", "git fetch --upload-pack='touch x' origin", "--upload-pack runs a program"),
		Entry("git ls-remote -u", "git ls-remote -u 'touch x' origin", "git ls-remote -u runs a program"),
		Entry("git config alias with !", "git config alias.st '!touch x'", "git config alias.st sets a key that can make git run a program"),
		Entry("git status with an unknown global option", "git --frob status", "the option --frob of git, which agentcore could not judge"),
		Entry("rg --pre", "rg --pre=./x foo", "rg --pre runs a program"),
		Entry("ssh -o ProxyCommand", "ssh -o 'ProxyCommand=sh -c x' host", "ssh -o runs a program"),
		Entry("vim -c", "vim -c '!touch x' f", "vim -c runs a program"),
		Entry("vim +cmd", "vim '+!touch x' f", "runs a command"),
		Entry("less +cmd", "less '+!touch x' f", "runs a command"),
		Entry("zip -TT", "zip -TT 'sh -c x' a.zip f", "zip -TT runs a program"),
		Entry("make --eval", "make --eval='x:;touch y' x", "make --eval runs a program"),
		Entry("npm run --script-shell", "npm run test --script-shell=./x", "npm --script-shell runs a program"),
		Entry("yarn --script-shell", "yarn --script-shell ./x test", "runs a program"),
		Entry("pnpm --script-shell", "pnpm --script-shell=./x test", "runs a program"),
		Entry("tar --to-command", "tar -xf a.tar --to-command='sh -c x'", "tar --to-command runs a program"),
		Entry("tar --checkpoint-action=exec", "tar -cf a.tar --checkpoint=1 --checkpoint-action=exec='touch x' .", "runs a program"),
		Entry("sort --compress-program", "sort -S 1 --compress-program=./x in", "runs a program"),
		Entry("sort with an option it cannot judge", "sort --frob in", "the option --frob of sort"),
		Entry("rsync -e", "rsync -e 'sh -c x' a b", "rsync -e runs a program"),
		Entry("sed with an option it cannot judge", "sed --frob s/a/b/ f", "the option --frob of sed"),
		Entry("awk -l", "awk -l ext '{print}' f", "awk -l runs a program"),
		Entry("uniq with an option it cannot judge", "uniq --frob in", "the option --frob of uniq"),
		Entry("wget -e", "wget -e 'x=y' http://127.0.0.1/", "wget -e writes files and runs a program"),
	)

	DescribeTable("an allow rule for the program does not cover a write it makes outside the working directory",
		func(command, target string) {
			d := check(command)
			Expect(d.Behavior).To(Equal(runtime.Ask), "command %q: %s", command, d.Message)
			Expect(d.Message).To(ContainSubstring(target))
		},
		Entry("xxd in out", "xxd in /tmp/agentcore-spec-out", "/tmp/agentcore-spec-out"),
		Entry("shuf -o", "shuf -o /tmp/agentcore-spec-out in", "/tmp/agentcore-spec-out"),
		Entry("uniq in out", "uniq in /tmp/agentcore-spec-out", "/tmp/agentcore-spec-out"),
		Entry("zip's archive", "zip /tmp/agentcore-spec-out.zip f", "/tmp/agentcore-spec-out.zip"),
		Entry("sort -o", "sort -o /tmp/agentcore-spec-out in", "/tmp/agentcore-spec-out"),
		Entry("curl --output-dir with -O", "curl --output-dir /tmp/agentcore-spec -O http://127.0.0.1/x", "/tmp/agentcore-spec"),
		Entry("curl --hsts", "curl --hsts /tmp/agentcore-spec-out http://127.0.0.1/", "/tmp/agentcore-spec-out"),
		Entry("curl --alt-svc", "curl --alt-svc /tmp/agentcore-spec-out http://127.0.0.1/", "/tmp/agentcore-spec-out"),
		Entry("curl --trace-ascii", "curl --trace-ascii /tmp/agentcore-spec-out http://127.0.0.1/", "/tmp/agentcore-spec-out"),
		Entry("tar --index-file", "tar -cf a.tar --index-file=/tmp/agentcore-spec-out .", "/tmp/agentcore-spec-out"),
		Entry("find -fprint", "find . -fprint /tmp/agentcore-spec-out", "/tmp/agentcore-spec-out"),
	)

	DescribeTable("rules written for the old behaviour keep allowing plain uses",
		func(command string) {
			d := check(command)
			Expect(d.Behavior).To(Equal(runtime.Allow), "command %q: %s", command, d.Message)
		},
		Entry("git grep", "git grep -n foo"),
		Entry("git log", "git log --oneline -n 3"),
		Entry("git config reading", "git config --get user.name"),
		Entry("rg", "rg -n --glob '*.go' foo"),
		Entry("sort with known options", "sort -k2,2n -u in"),
		Entry("uniq with one operand", "uniq -c in"),
		Entry("xxd with one operand", "xxd -g 1 in"),
		Entry("shuf -n", "shuf -n 2 in"),
		Entry("sed without -i", "sed -n 's/a/b/p' f"),
		Entry("ssh -o ConnectTimeout", "ssh -o ConnectTimeout=5 host uptime"),
		Entry("find -name", "find . -name '*.go'"),
	)

	DescribeTable("a deny rule on a git subcommand sees through git's global options",
		func(command string) {
			d := check(command)
			Expect(d.Behavior).To(Equal(runtime.Deny), "command %q: %s", command, d.Message)
		},
		Entry("git -C dir push", "git -C sub push origin main"),
		Entry("git -c k=v push", "git -c color.ui=never push"),
		Entry("git --git-dir push", "git --git-dir=.git push"),
		Entry("git --no-pager -C dir commit", "git --no-pager -C sub commit -m x"),
	)
})
