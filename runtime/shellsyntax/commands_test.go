package shellsyntax_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"mvdan.cc/sh/v3/syntax"

	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// commandsOf parses src and renders each simple command as its
// assignments and words (values) joined by "|".
func commandsOf(src string) []string {
	f, err := shellsyntax.Parse(src)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	out := []string{}
	for _, c := range shellsyntax.SimpleCommands(f) {
		var parts []string
		for _, a := range c.Assigns {
			parts = append(parts, a.Name+"="+a.Value.Value)
		}
		for _, w := range c.Args {
			parts = append(parts, w.Value)
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out
}

var _ = Describe("SimpleCommands", func() {
	DescribeTable("finds every simple command in source order",
		func(src string, want ...string) {
			if want == nil {
				want = []string{}
			}
			Expect(commandsOf(src)).To(Equal(want))
		},
		Entry("one command", "ls -la", "ls|-la"),
		Entry("pipelines and lists", "a | b && c; d || e", "a", "b", "c", "d", "e"),
		Entry("no spaces around ;", "git status;rm x", "git|status", "rm|x"),
		Entry("newlines", "a\nb", "a", "b"),
		Entry("quoted operators stay in a word", `echo "a; rm b" 'c && d'`, "echo|a; rm b|c && d"),
		Entry("a comment", "ls # ; rm x", "ls"),
		Entry("a subshell", "(cd x && rm y)", "cd|x", "rm|y"),
		Entry("a group", "{ a; b; }", "a", "b"),
		Entry("if, while, for and case bodies",
			"if a; then b; else c; fi; while d; do e; done; for f in g; do h; done; case i in j) k ;; esac",
			"a", "b", "c", "d", "e", "h", "k"),
		Entry("a function body, then the call", "f() { rm x; }; f", "rm|x", "f"),
		Entry("command substitution, outer first", "echo $(rm -rf x)", "echo|$(rm -rf x)", "rm|-rf|x"),
		Entry("backticks", "echo `rm x`", "echo|$(rm x)", "rm|x"),
		Entry("inside double quotes", `echo "$(rm x)"`, "echo|$(rm x)", "rm|x"),
		Entry("process substitution", "diff <(ls a) >(ls b)", "diff|<(ls a)|>(ls b)", "ls|a", "ls|b"),
		Entry("a here-document substitution", "cat <<EOF\n$(rm x)\nEOF", "cat", "rm|x"),
		Entry("a quoted here-document runs nothing", "cat <<'EOF'\n$(rm x)\nEOF", "cat"),
		Entry("an assignment's substitution", "x=$(rm x)", "x=$(rm x)", "rm|x"),
		Entry("a subscript's substitution", "echo ${a[$(id)]}", "echo|${a[$(id)]}", "id"),
		Entry("arithmetic substitution", "echo $((1+$(rm x)))", "echo|$((1 + $(rm x)))", "rm|x"),
		Entry("a here-string substitution", "cat <<< $(rm x)", "cat", "rm|x"),
		Entry("assignment prefixes", "FOO=1 BAR='a b' env", "FOO=1|BAR=a b|env"),
		Entry("a bare assignment", "x=1", "x=1"),
		Entry("export", `export A="a b" B`, "export|A=a b|B"),
		Entry("declare with options and a word known at run time", "declare -x A=1 $X", "declare|-x|A=1|$X"),
		Entry("local with append", "local a+=b", "local|a+=b"),
		Entry("time, negation, background, coprocess", "time a; ! b; c & coproc d", "a", "b", "c", "d"),
		Entry("no simple command in [[ ]] or (( ))", "[[ -f x ]]; (( x++ ))"),
		Entry("only a comment", "# nothing"),
		Entry("empty", ""),
	)

	It("reads words after quote removal with their flags", func() {
		f, err := shellsyntax.Parse(`FOO=1 git log "a b" 'c' d\ e $x | grep -e "$y" ; echo *.go`)
		Expect(err).NotTo(HaveOccurred())
		cmds := shellsyntax.SimpleCommands(f)
		Expect(cmds).To(HaveLen(3))
		Expect(cmds[0].Name()).To(Equal("git"))
		Expect(cmds[0].Assigns).To(HaveLen(1))
		Expect(cmds[0].Args).To(Equal([]shellsyntax.Word{
			static("git"), static("log"), static("a b"), static("c"), static("d e"), dynamic("$x", "$x"),
		}))
		Expect(cmds[1].Args[2]).To(Equal(dynamic("$y", `"$y"`)))
		Expect(cmds[2].Args[1]).To(Equal(expanding("*.go")))
	})

	It("keeps the parse-tree nodes the command was read from", func() {
		f, err := shellsyntax.Parse("ls x > out; export A=1")
		Expect(err).NotTo(HaveOccurred())
		cmds := shellsyntax.SimpleCommands(f)
		Expect(cmds).To(HaveLen(2))
		Expect(cmds[0].Stmt).To(BeIdenticalTo(f.Stmts[0]))
		Expect(cmds[0].Call.Args).To(HaveLen(2))
		Expect(cmds[0].Decl).To(BeNil())
		Expect(cmds[0].Redirs).To(HaveLen(1))
		Expect(cmds[1].Call).To(BeNil())
		Expect(cmds[1].Decl).NotTo(BeNil())
	})

	It("names a bare assignment with the empty name", func() {
		f, _ := shellsyntax.Parse("x=1")
		Expect(shellsyntax.SimpleCommands(f)[0].Name()).To(BeEmpty())
	})
})

var _ = Describe("CommandOf", func() {
	It("reads the command of one statement, not those nested in it", func() {
		f, _ := shellsyntax.Parse("echo $(rm x)")
		sc, ok := shellsyntax.CommandOf(f.Stmts[0])
		Expect(ok).To(BeTrue())
		Expect(sc.Name()).To(Equal("echo"))
	})

	It("has no simple command for a compound statement", func() {
		f, _ := shellsyntax.Parse("[[ -f x ]]")
		_, ok := shellsyntax.CommandOf(f.Stmts[0])
		Expect(ok).To(BeFalse())
	})
})

var _ = Describe("EvalAssign", func() {
	DescribeTable("evaluates assignments",
		func(src string, want shellsyntax.Assign) {
			f, err := shellsyntax.Parse(src)
			Expect(err).NotTo(HaveOccurred())
			Expect(shellsyntax.SimpleCommands(f)[0].Assigns).To(Equal([]shellsyntax.Assign{want}))
		},
		Entry(nil, "A=1", shellsyntax.Assign{Name: "A", Value: static("1"), Source: "A=1"}),
		Entry(nil, "A=", shellsyntax.Assign{Name: "A", Value: static(""), Source: "A="}),
		Entry(nil, "A+='x y'", shellsyntax.Assign{Name: "A", Append: true, Value: static("x y"), Source: "A+='x y'"}),
		Entry(nil, `A="$x"`, shellsyntax.Assign{Name: "A", Value: dynamic("$x", `"$x"`), Source: `A="$x"`}),
		Entry(nil, "a[1]=x", shellsyntax.Assign{Name: "a", Indexed: true, Value: static("x"), Source: "a[1]=x"}),
		Entry(nil, "a=(1 2)", shellsyntax.Assign{Name: "a", Indexed: true, Value: dynamic("(1 2)", "(1 2)"), Source: "a=(1 2)"}),
		Entry(nil, "a+=(x)", shellsyntax.Assign{Name: "a", Append: true, Indexed: true, Value: dynamic("(x)", "(x)"), Source: "a+=(x)"}),
	)
})

var _ = Describe("DupFD", func() {
	DescribeTable("tells fd duplication from opening a file",
		func(src string, want bool) {
			f, err := shellsyntax.Parse("ls " + src)
			Expect(err).NotTo(HaveOccurred())
			Expect(f.Stmts[0].Redirs).To(HaveLen(1))
			Expect(shellsyntax.DupFD(f.Stmts[0].Redirs[0])).To(Equal(want))
		},
		Entry(nil, "2>&1", true),
		Entry(nil, ">&2", true),
		Entry(nil, "<&0", true),
		Entry(nil, "3>&-", true),
		Entry(nil, "3>&4-", true),
		Entry(nil, ">&out.txt", false),
		Entry(nil, ">&$fd", false),
		Entry(nil, "> 1", false),
		Entry(nil, "2>/dev/null", false),
	)

	It("reports a file descriptor number", func() {
		Expect(shellsyntax.IsFD("12")).To(BeTrue())
		Expect(shellsyntax.IsFD("")).To(BeFalse())
		Expect(shellsyntax.IsFD("1a")).To(BeFalse())
	})
})

var _ = Describe("Parse", func() {
	It("returns a positioned parse error", func() {
		_, err := shellsyntax.Parse("echo 'x")
		Expect(err).To(MatchError(ContainSubstring("1:6")))
	})

	It("parses a line of MaxCommandLen bytes and refuses a longer one", func() {
		line := "echo " + strings.Repeat("a", shellsyntax.MaxCommandLen-5)
		_, err := shellsyntax.Parse(line)
		Expect(err).NotTo(HaveOccurred())
		_, err = shellsyntax.Parse(line + "a")
		var long *shellsyntax.TooLongError
		Expect(err).To(BeAssignableToTypeOf(long))
		Expect(err).To(MatchError(ContainSubstring("longer than the 65536 analysed")))
	})

	It("parses bash, not POSIX sh", func() {
		f, err := shellsyntax.Parse("[[ a == b ]] && echo <(ls)")
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Stmts[0].Cmd).To(BeAssignableToTypeOf(&syntax.BinaryCmd{}))
	})
})
