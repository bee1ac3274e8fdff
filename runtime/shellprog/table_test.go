package shellprog_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/shellprog"
)

// judge reads a command line split on spaces (every word literal).
func judge(line string, mask shellprog.Effect) string {
	return shellprog.Judge(strings.Fields(line), nil, mask)
}

var _ = Describe("the programs table", func() {
	DescribeTable("finds what a command must not do unasked (every effect)",
		func(line, wantIn string) {
			Expect(judge(line, shellprog.Everything)).To(ContainSubstring(wantIn))
		},
		// git: global options, config and alias forms, remote programs.
		Entry("git -c alias with a shell command", "git -c alias.st=!touch.x st", "-c runs a program"),
		Entry("git -c core.pager", "git -c core.pager=sh log", "-c runs a program"),
		Entry("git -c core.sshCommand", "git -c core.sshCommand=x fetch", "-c runs a program"),
		Entry("git --config-env", "git --config-env=core.pager=X log", "--config-env runs a program"),
		Entry("git -p runs the configured pager", "git -p log", "git -p runs a program"),
		Entry("git --exec-path", "git --exec-path=/tmp/x status", "--exec-path runs a program"),
		Entry("git unknown global option", "git --frobnicate status", "the option --frobnicate of git, which agentcore could not judge"),
		Entry("git fetch --upload-pack", "git fetch --upload-pack=touch.x origin", "git fetch --upload-pack runs a program"),
		Entry("git ls-remote --upload-pack abbreviated", "git ls-remote --upload=touch.x origin", "--upload (--upload-pack) runs a program"),
		Entry("git push --receive-pack", "git push --receive-pack=x origin", "--receive-pack runs a program"),
		Entry("git pull --exec", "git pull --exec=x origin", "--exec runs a program"),
		Entry("git archive --remote", "git archive --remote=x HEAD", "reaches the network"),
		Entry("git grep -O", "git grep -Otouch foo", "git grep -O runs a program"),
		Entry("git grep --open-files-in-pager", "git grep --open-files-in-pager=x foo", "runs a program"),
		Entry("git -C dir grep -O", "git -C sub grep -O foo", "git grep -O runs a program"),
		Entry("git log --output", "git log --output=x", "writes files"),
		Entry("git config alias", "git config alias.st !touch.x", "git config alias.st sets a key that can make git run a program"),
		Entry("git config set core.pager", "git config set core.pager x", "sets a key that can make git run a program"),
		Entry("git config --global core.sshCommand", "git config --global core.sshCommand x", "sets a key"),
		Entry("git diff --ext-diff", "git diff --ext-diff", "runs a program"),
		Entry("git format-patch -o", "git format-patch -o out HEAD~1", "writes files"),
		// sed, awk, find, xargs.
		Entry("sed -i", "sed -i s/a/b/ f", "sed -i writes files"),
		Entry("sed -i.bak (attached suffix)", "sed -i.bak s/a/b/ f", "sed -i writes files"),
		Entry("sed unknown option", "sed --frob s/a/b/ f", "the option --frob of sed"),
		Entry("awk -l loads a library", "awk -l ext {print}", "awk -l runs a program"),
		Entry("find -exec", "find . -exec rm {} ;", "find -exec runs a program"),
		Entry("find -delete", "find . -name x -delete", "find -delete writes files"),
		Entry("find -fprint", "find . -fprint out", "find -fprint writes files"),
		Entry("find -fprintf", "find . -fprintf out %p", "find -fprintf writes files"),
		Entry("find -fls", "find . -fls out", "writes files"),
		// tar, sort, rsync, ssh, make, npm/yarn/pnpm.
		Entry("tar --to-command", "tar -xf a.tar --to-command=sh", "tar --to-command runs a program"),
		Entry("tar --checkpoint-action=exec", "tar -cf a.tar --checkpoint=1 --checkpoint-action=exec=sh .", "--checkpoint-action runs a program"),
		Entry("tar --index-file", "tar -cf a.tar --index-file=idx .", "tar --index-file writes files"),
		Entry("tar -I", "tar -I ./prog -cf a.tar .", "tar -I runs a program"),
		Entry("sort -o", "sort -o out in", "sort -o writes files"),
		Entry("sort --output abbreviated", "sort --out=x in", "writes files"),
		Entry("sort --compress-program", "sort --compress-program=sh in", "runs a program"),
		Entry("sort --compress abbreviated", "sort --compress=sh in", "runs a program"),
		Entry("sort unknown option", "sort --frob in", "the option --frob of sort"),
		Entry("sort unknown short option", "sort -Q in", "the option -Q of sort"),
		Entry("rsync -e", "rsync -e sh a b", "rsync -e runs a program"),
		Entry("rsync --rsync-path", "rsync --rsync-path=x a host:b", "runs a program"),
		Entry("rsync --log-file", "rsync --log-file=l a b", "writes files"),
		Entry("ssh -o ProxyCommand", "ssh -o ProxyCommand=sh host", "ssh -o runs a program"),
		Entry("ssh -oLocalCommand attached", "ssh -oLocalCommand=x host", "ssh -o runs a program"),
		Entry("ssh -F config", "ssh -F cfg host", "ssh -F"),
		Entry("ssh -o after the host", "ssh host -o ProxyCommand=sh", "ssh -o runs a program"),
		Entry("make --eval", "make --eval=x all", "make --eval runs a program"),
		Entry("npm --script-shell", "npm run test --script-shell=sh", "npm --script-shell runs a program"),
		Entry("yarn --script-shell", "yarn --script-shell sh test", "runs a program"),
		Entry("pnpm --script-shell", "pnpm --script-shell=sh test", "runs a program"),
		// vim, less, zip.
		Entry("vim -c", "vim -c !sh f", "vim -c runs a program"),
		Entry("vim +cmd", "vim +!sh f", "vim +!sh runs a command"),
		Entry("nvim --cmd", "nvim --cmd x f", "runs a program"),
		Entry("less +cmd", "less +!sh f", "less +!sh runs a command"),
		Entry("less -o log", "less -o log f", "less -o writes files"),
		Entry("zip -TT", "zip -TT sh a.zip f", "zip -TT runs a program"),
		Entry("zip --unzip-command", "zip --unzip-command=sh a.zip f", "runs a program"),
		Entry("zip writes its archive", "zip a.zip f", "zip's operand 1 writes files"),
		// curl, wget, rg.
		Entry("curl -o", "curl -o out http://x", "curl -o writes files"),
		Entry("curl --output-dir", "curl --output-dir d -O http://x", "writes files"),
		Entry("curl --hsts", "curl --hsts h http://x", "curl --hsts writes files"),
		Entry("curl --alt-svc", "curl --alt-svc a http://x", "writes files"),
		Entry("curl --trace-ascii", "curl --trace-ascii t http://x", "writes files"),
		Entry("curl -K", "curl -K cfg", "curl -K"),
		Entry("wget -O", "wget -O out http://x", "wget -O writes files"),
		Entry("wget -e", "wget -e x http://x", "wget -e"),
		Entry("rg --pre", "rg --pre=sh foo", "rg --pre runs a program"),
		Entry("rg --pre abbreviated", "rg --pr=sh foo", "runs a program"),
		Entry("rg --hostname-bin", "rg --hostname-bin=x foo", "runs a program"),
		// Output operands and options of filters.
		Entry("xxd in out", "xxd in out", "xxd's operand 2 writes files"),
		Entry("xxd -r in out", "xxd -r in out", "writes files"),
		Entry("xxd unknown option", "xxd -frob in", "the option -frob of xxd"),
		Entry("shuf -o", "shuf -o out in", "shuf -o writes files"),
		Entry("shuf unknown option", "shuf --frob in", "the option --frob of shuf"),
		Entry("uniq in out", "uniq in out", "uniq's operand 2 writes files"),
		Entry("uniq unknown option", "uniq --frob in", "the option --frob of uniq"),
		Entry("printf -v", "printf -v x %s y", "printf -v runs a program"),
		Entry("test -v", "test -v x", "test -v"),
		Entry("file -C", "file -C -m magic", "file -C writes files"),
		Entry("tree -o", "tree -o out", "tree -o writes files"),
	)

	DescribeTable("lets harmless uses through",
		func(line string) {
			Expect(judge(line, shellprog.Everything)).To(BeEmpty())
		},
		Entry("git status", "git status --short"),
		Entry("git config reading", "git config --get alias.st"),
		Entry("git config a safe key", "git config user.name Ada"),
		Entry("git -C dir log", "git -C sub log --oneline"),
		Entry("git -c color.ui=never log", "git -c color.ui=never log"),
		Entry("git --no-pager diff", "git --no-pager diff HEAD"),
		Entry("git grep without -O", "git grep -n foo"),
		Entry("sed without -i", "sed -n s/a/b/p f"),
		Entry("sort with known options", "sort -k2,2n -t, -u -r in"),
		Entry("sort --check=quiet", "sort --check=quiet in"),
		Entry("uniq with one operand", "uniq -c in"),
		Entry("uniq -f N", "uniq -f 2 in"),
		Entry("xxd with one operand", "xxd -g 1 in"),
		Entry("shuf -n", "shuf -n 3 in"),
		Entry("find -name", "find . -name x -type f"),
		Entry("rg with a value that looks like an option name", "rg -e --pre foo"),
		Entry("ssh -o ConnectTimeout", "ssh -o ConnectTimeout=5 host"),
		Entry("tar --checkpoint-action=dot", "tar -cf a.tar --checkpoint-action=dot ."),
		Entry("vim a file", "vim f"),
		Entry("a program the table does not know", "frob --anything"),
		Entry("git after the subcommand, options are the subcommand's", "git commit -c HEAD"),
	)

	It("leaves writes out when the mask does", func() {
		Expect(judge("sort -o out in", shellprog.Runs|shellprog.Network)).To(BeEmpty())
		Expect(judge("sort --compress-program=sh in", shellprog.Runs|shellprog.Network)).NotTo(BeEmpty())
		Expect(judge("find . -exec rm {} ;", shellprog.Runs|shellprog.Network)).To(BeEmpty(), "find's commands are judged on their own")
	})

	It("reads options GNU-style: values, clusters, --", func() {
		p := shellprog.Lookup("sort")
		s := p.Read([]string{"sort", "-rno", "out", "--", "-o"}, nil)
		Expect(s.Uses).To(HaveLen(3))
		Expect(s.Uses[2].Name).To(Equal("-o"))
		Expect(s.Uses[2].Value).To(Equal("out"))
		Expect(s.Uses[2].ValueIdx).To(Equal(2))
		Expect(s.Operands).To(Equal([]int{4}))
	})

	It("counts a word known only at run time as an operand", func() {
		s := shellprog.Lookup("sort").Read([]string{"sort", "$x", "-o", "f"}, []bool{true, false, true, true})
		Expect(s.Operands).To(Equal([]int{1}))
	})

	It("finds git's subcommand after the global options", func() {
		Expect(shellprog.GitSubcommand(strings.Fields("git -C d -c a=b --no-pager push origin"), nil)).To(Equal(6))
		Expect(shellprog.GitSubcommand(strings.Fields("git --version"), nil)).To(Equal(-1))
	})

	It("renders the value-taking options for the permission engine's parser", func() {
		w := shellprog.Lookup("sed").WithValue()
		Expect(w).To(ContainSubstring("|-e|--expression|"))
		Expect(w).NotTo(ContainSubstring("|-i|"), "sed -i takes only an attached suffix")
	})
})
