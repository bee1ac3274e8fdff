package classify_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/shellsyntax"
	"github.com/agentcore/agentcore/tooldefs/shell/classify"
)

var _ = Describe("IsReadOnly", func() {
	DescribeTable("classifies commands",
		func(cmd string, readOnly bool) {
			v := classify.Classify(cmd)
			Expect(v.ReadOnly).To(Equal(readOnly), "command %q: reason %q", cmd, v.Reason)
			Expect(classify.IsReadOnly(cmd)).To(Equal(readOnly))
			if !readOnly {
				Expect(v.Reason).NotTo(BeEmpty(), "a negative answer says why")
			}
		},
		// Plain read-only programs.
		Entry(nil, "ls", true),
		Entry(nil, "ls -la src", true),
		Entry(nil, "cat README.md", true),
		Entry(nil, "head -n 20 main.go", true),
		Entry(nil, "tail -f log.txt", true),
		Entry(nil, "wc -l *.go", true),
		Entry(nil, "grep -rn TODO .", true),
		Entry(nil, "rg -i 'func main' --type go", true),
		Entry(nil, "echo hello", true),
		Entry(nil, "pwd", true),
		Entry(nil, "stat go.mod", true),
		Entry(nil, "file bin/agentcore", true),
		Entry(nil, "which go", true),
		Entry(nil, "sleep 1", true),
		Entry(nil, "jq .name package.json", true),
		Entry(nil, "tree -L 2", true),
		Entry(nil, "du -sh .", true),
		Entry(nil, "df -h", true),
		Entry(nil, "date +%Y-%m-%d", true),
		Entry(nil, "uname -a", true),
		Entry(nil, "printf '%s\\n' a b", true),
		Entry(nil, "test -f go.mod", true),
		Entry(nil, "[ -d src ]", true),
		Entry(nil, "hostname", true),
		Entry(nil, "env", true),
		// find.
		Entry(nil, "find . -name '*.go' -type f", true),
		Entry(nil, "find . -newer go.mod -print", true),
		Entry(nil, "find . -name '*.tmp' -delete", false),
		Entry(nil, "find . -exec rm {} \\;", false),
		Entry(nil, "find . -execdir cat {} +", false),
		Entry(nil, "find . -ok rm {} \\;", false),
		Entry(nil, "find . -fprint out.txt", false),
		Entry(nil, "find . -fprintf out.txt %p", false),
		Entry(nil, "find *", false),
		Entry(nil, "find . $EXTRA", false),
		// git.
		Entry(nil, "git status", true),
		Entry(nil, "git status --short", true),
		Entry(nil, "git log --oneline -10", true),
		Entry(nil, "git diff HEAD~1 -- main.go", true),
		Entry(nil, "git show HEAD:go.mod", true),
		Entry(nil, "git branch", true),
		Entry(nil, "git branch -a -v", true),
		Entry(nil, "git branch --list 'feat/*'", true),
		Entry(nil, "git branch --contains HEAD", true),
		Entry(nil, "git rev-parse --show-toplevel", true),
		Entry(nil, "git -C sub status", true),
		Entry(nil, "git --no-pager log -1", true),
		Entry(nil, "git stash list", true),
		Entry(nil, "git config --get user.name", true),
		Entry(nil, "git branch feature", false),
		Entry(nil, "git branch -D old", false),
		Entry(nil, "git branch -m a b", false),
		Entry(nil, "git tag v1.0", false),
		Entry(nil, "git tag -l", true),
		Entry(nil, "git commit -m x", false),
		Entry(nil, "git push", false),
		Entry(nil, "git checkout main", false),
		Entry(nil, "git stash", false),
		Entry(nil, "git config user.name x", false),
		Entry(nil, "git diff --output=patch.txt", false),
		Entry(nil, "git log --out=patch.txt", false),
		Entry(nil, "git diff --ext-diff", false),
		Entry(nil, "git show --textconv HEAD", false),
		Entry(nil, "git -c core.pager=evil log", false),
		Entry(nil, "git --git-dir=/x status", false),
		Entry(nil, "git log $RANGE", false),
		Entry(nil, "git grep -O foo", false),
		// Pipelines and compounds.
		Entry(nil, "ls | wc -l", true),
		Entry(nil, "cat go.mod | grep require | sort | uniq -c", true),
		Entry(nil, "git status && git diff", true),
		Entry(nil, "ls src || echo missing", true),
		Entry(nil, "ls; pwd; echo done", true),
		Entry(nil, "(ls && cat x)", true),
		Entry(nil, "{ ls; cat x; }", true),
		Entry(nil, "if [[ -f go.mod ]]; then cat go.mod; fi", true),
		Entry(nil, "for f in a b; do wc -l \"$f\"; done", true),
		Entry(nil, "while false; do ls; done", true),
		Entry(nil, "case x in x) ls ;; esac", true),
		Entry(nil, "! grep -q foo bar", true),
		Entry(nil, "time ls", true),
		Entry(nil, "ls && rm -rf build", false),
		Entry(nil, "git status; rm -rf x", false),
		Entry(nil, "cat x | tee copy", false),
		Entry(nil, "cat x | sh", false),
		Entry(nil, "ls | xargs rm", false),
		// Redirections.
		Entry(nil, "ls >/dev/null", true),
		Entry(nil, "ls 2>&1", true),
		Entry(nil, "ls 2>/dev/null >&2", true),
		Entry(nil, "grep x < input.txt", true),
		Entry(nil, "cat <<EOF\nhello\nEOF", true),
		Entry(nil, "cat <<< 'hello'", true),
		Entry(nil, "ls &>/dev/null", true),
		Entry(nil, "ls 3>&4-", true),
		Entry(nil, "ls > out.txt", false),
		Entry(nil, "ls >> out.txt", false),
		Entry(nil, "ls 2> err.txt", false),
		Entry(nil, "ls &> all.txt", false),
		Entry(nil, "ls >| out.txt", false),
		Entry(nil, "ls >& out.txt", false),
		Entry(nil, "cat <> file", false),
		Entry(nil, "ls > $OUT", false),
		Entry(nil, "echo hi {fd}>/dev/null", false),
		// Substitutions, arithmetic, assignments.
		Entry(nil, "echo $(rm -rf x)", false),
		Entry(nil, "echo `touch x`", false),
		Entry(nil, "cat <(ls)", false),
		Entry(nil, "diff <(ls a) <(ls b)", false),
		Entry(nil, "echo \"$(whoami)\"", false),
		Entry(nil, "cat <<EOF\n$(rm x)\nEOF", false),
		Entry(nil, "echo $((1+2))", false),
		Entry(nil, "(( x = 1 ))", false),
		Entry(nil, "let x=1", false),
		Entry(nil, "echo ${a[$(id)]}", false),
		Entry(nil, "echo ${x:=default}", false),
		Entry(nil, "[[ $x -eq 1 ]] && ls", false),
		Entry(nil, "printf -v 'a[$(id)]' x", false),
		Entry(nil, "x=1; echo $x", true),
		Entry(nil, "echo $HOME", true),
		Entry(nil, "PATH=/tmp/evil; ls", false),
		Entry(nil, "IFS=x; ls", false),
		Entry(nil, "GIT_DIR=/x git status", false),
		Entry(nil, "LD_PRELOAD=x.so ls", false),
		Entry(nil, "export PAGER=evil", false),
		Entry(nil, "declare -x A=1", false),
		Entry(nil, "for PATH in /tmp; do ls; done", false),
		// Other writers and runners.
		Entry(nil, "rm -rf /", false),
		Entry(nil, "mkdir build", false),
		Entry(nil, "touch x", false),
		Entry(nil, "cp a b", false),
		Entry(nil, "mv a b", false),
		Entry(nil, "sed -i s/a/b/ f", false),
		Entry(nil, "awk '{print > \"out\"}' f", false),
		Entry(nil, "npm install", false),
		Entry(nil, "go build ./...", false),
		Entry(nil, "make", false),
		Entry(nil, "curl http://x", false),
		Entry(nil, "python3 -c 'print(1)'", false),
		// cd only moves this shell; the engine decides whether the
		// directory is inside the working directories.
		Entry(nil, "cd /tmp && ls", true),
		Entry(nil, "cd runtime && pwd", true),
		Entry(nil, "cd -P runtime", true),
		Entry(nil, "cd", false),
		Entry(nil, "cd -", false),
		Entry(nil, "cd a b", false),
		Entry(nil, "cd $D && ls", false),
		Entry(nil, "cd runtime && rm x", false),
		Entry(nil, "pushd runtime && ls && popd", true),
		Entry(nil, "pushd runtime > /dev/null && cat go.mod; popd", true),
		Entry(nil, "pushd +1", false),
		Entry(nil, "pushd -n runtime", false),
		Entry(nil, "pushd", false),
		Entry(nil, "pushd runtime && rm x", false),
		Entry(nil, "popd 1", false),
		Entry(nil, "eval ls", false),
		Entry(nil, "source env.sh", false),
		Entry(nil, "exec ls", false),
		Entry(nil, "command ls", false),
		Entry(nil, "env rm x", false),
		Entry(nil, "./ls", false),
		Entry(nil, "/bin/ls", false),
		Entry(nil, "$CMD", false),
		Entry(nil, "l\"s\" -la", true),
		Entry(nil, "git $'status'", true),
		Entry(nil, "sort $'-o' out.txt in.txt", false),
		Entry(nil, "sort {\"a\",b}", false),
		Entry(nil, "sort a=~", false),
		Entry(nil, "sort -o out.txt in.txt", false),
		Entry(nil, "sort -ro out.txt in.txt", false),
		Entry(nil, "sort --output=out.txt in.txt", false),
		Entry(nil, "sort --compress-program=sh in.txt", false),
		Entry(nil, "sort -u in.txt", true),
		Entry(nil, "sort $FILES", false),
		Entry(nil, "uniq in.txt out.txt", false),
		Entry(nil, "uniq -c in.txt", true),
		Entry(nil, "uniq -f 2 in.txt", true),
		Entry(nil, "tree -o out.txt", false),
		Entry(nil, "rg --pre ./decode foo", false),
		Entry(nil, "rg --pre=sh foo", false),
		Entry(nil, "file -C -m magic", false),
		Entry(nil, "date -s '2020-01-01'", false),
		Entry(nil, "date 010100002020", false),
		Entry(nil, "hostname evil", false),
		Entry(nil, "test -v 'a[$(id)]'", false),
		Entry(nil, "x=-v; y='a[$(id)]'; printf $x $y z", false),
		Entry(nil, "[ $x $y ]", false),
		Entry(nil, "file $f", false),
		Entry(nil, "[[ -f $x ]] && cat \"$x\"", true),
		// Background, functions, odd syntax, parse failures.
		Entry(nil, "sleep 100 &", false),
		Entry(nil, "f() { ls; }; f", false),
		Entry(nil, "coproc ls", false),
		Entry(nil, "", false),
		Entry(nil, "   ", false),
		Entry(nil, "# just a comment", false),
		Entry(nil, "echo 'unterminated", false),
		Entry(nil, "ls &&", false),
		Entry(nil, "if then fi", false),
		Entry(nil, "ls )", false),
	)

	It("refuses commands too long to analyse", func() {
		long := "echo " + strings.Repeat("a", shellsyntax.MaxCommandLen)
		Expect(classify.IsReadOnly(long)).To(BeFalse())
		Expect(classify.Classify(long).Reason).To(ContainSubstring("longer than"))
	})

	It("explains a parse failure", func() {
		Expect(classify.Classify("echo 'x").Reason).To(HavePrefix("does not parse"))
	})
})

var _ = Describe("IsSearchOrReadCommand", func() {
	type sr = classify.SearchOrRead
	DescribeTable("classifies for compact rendering",
		func(cmd string, want sr) {
			Expect(classify.IsSearchOrReadCommand(cmd)).To(Equal(want))
		},
		Entry(nil, "grep -rn foo .", sr{IsSearch: true}),
		Entry(nil, "rg foo", sr{IsSearch: true}),
		Entry(nil, "find . -name x", sr{IsSearch: true}),
		Entry(nil, "cat a.txt", sr{IsRead: true}),
		Entry(nil, "head -5 a | tail -1", sr{IsRead: true}),
		Entry(nil, "ls -la", sr{IsList: true}),
		Entry(nil, "cat a | grep b", sr{IsSearch: true, IsRead: true}),
		Entry(nil, "ls a && echo --- && ls b", sr{IsList: true}),
		Entry(nil, "awk '{print $1}' f", sr{IsRead: true}),
		Entry(nil, "/usr/bin/grep x f", sr{IsSearch: true}),
		Entry(nil, "echo hi", sr{}),
		Entry(nil, "cat a | python3", sr{}),
		Entry(nil, "git status", sr{}),
		Entry(nil, "x=1", sr{}),
		Entry(nil, "export A=1; cat a", sr{}),
		Entry(nil, "cat 'unterminated", sr{}),
		Entry(nil, "", sr{}),
	)
	It("reports Any", func() {
		Expect(classify.IsSearchOrReadCommand("ls").Any()).To(BeTrue())
		Expect(classify.IsSearchOrReadCommand("make").Any()).To(BeFalse())
	})
})

var _ = Describe("IsDestructive", func() {
	DescribeTable("spots plainly destructive commands",
		func(cmd string, want bool) {
			Expect(classify.IsDestructive(cmd)).To(Equal(want))
		},
		Entry(nil, "rm -rf build", true),
		Entry(nil, "ls && rm x", true),
		Entry(nil, "find . -delete", true),
		Entry(nil, "git reset --hard HEAD~1", true),
		Entry(nil, "git clean -fdx", true),
		Entry(nil, "git push --force origin main", true),
		Entry(nil, "git push origin +main", true),
		Entry(nil, "git branch -D old", true),
		Entry(nil, "git checkout -- .", true),
		Entry(nil, "git stash drop", true),
		Entry(nil, "dd if=/dev/zero of=x", true),
		Entry(nil, "git reset --soft HEAD~1", false),
		Entry(nil, "git push origin main", false),
		Entry(nil, "git clean -n", false),
		Entry(nil, "ls", false),
		Entry(nil, "echo 'rm -rf /'", false),
		Entry(nil, "rm 'unterminated", false),
	)
})

var _ = Describe("Redirects", func() {
	It("reports redirections to files", func() {
		f, _ := shellsyntax.Parse("ls > x")
		Expect(classify.Redirects(f)).To(BeTrue())
		f, _ = shellsyntax.Parse("ls 2>/dev/null")
		Expect(classify.Redirects(f)).To(BeFalse())
	})
})

var _ = Describe("ExitMeaning", func() {
	DescribeTable("interprets exit statuses like Claude Code",
		func(cmd string, code int, isError bool, message string) {
			e, m := classify.ExitMeaning(cmd, code)
			Expect(e).To(Equal(isError))
			Expect(m).To(Equal(message))
		},
		Entry(nil, "grep foo file", 1, false, "No matches found"),
		Entry(nil, "grep foo file", 2, true, ""),
		Entry(nil, "cat file | grep foo", 1, false, "No matches found"),
		Entry(nil, "cd src && rg foo", 1, false, "No matches found"),
		Entry(nil, "/usr/bin/grep foo f", 1, false, "No matches found"),
		Entry(nil, "diff a b", 1, false, "Files differ"),
		Entry(nil, "find . -name x", 1, false, "Some directories were inaccessible"),
		Entry(nil, "[ -f x ]", 1, false, "Condition is false"),
		Entry(nil, "test -d y", 1, false, "Condition is false"),
		Entry(nil, "grep foo file | wc -l", 1, true, ""),
		Entry(nil, "grep foo file; make", 1, true, ""),
		Entry(nil, "! grep foo file", 1, true, ""),
		Entry(nil, "make", 1, true, ""),
		Entry(nil, "make", 0, false, ""),
		Entry(nil, "grep 'unterminated", 1, true, ""),
		Entry(nil, "$GREP foo", 1, true, ""),
	)
})
