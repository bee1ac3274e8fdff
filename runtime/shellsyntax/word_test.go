package shellsyntax_test

import (
	"os/exec"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"

	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// wordCase is one word as written and what EvalWord makes of it.
type wordCase struct {
	src  string
	want shellsyntax.Word
}

func static(v string) shellsyntax.Word {
	return shellsyntax.Word{Value: v, Literal: true, Static: true}
}

// expanding is a literal word that pathname, brace or tilde expansion
// may still change.
func expanding(v string) shellsyntax.Word { return shellsyntax.Word{Value: v, Literal: true} }

func dynamic(v, src string) shellsyntax.Word { return shellsyntax.Word{Value: v, Source: src} }

var wordCases = []wordCase{
	// Quote removal and backslashes.
	{`ls`, static("ls")},
	{`'a b'`, static("a b")},
	{`"a b"`, static("a b")},
	{`r""m`, static("rm")},
	{`''`, static("")},
	{`g\it`, static("git")},
	{`d\ e`, static("d e")},
	{`\*`, static("*")},
	{`'*'`, static("*")},
	{`"a\$b\"c\\d\e"`, static(`a$b"c\d\e`)},
	{`'a\nb'`, static(`a\nb`)},
	{"\"a\\\nb\"", static("ab")},
	{`"~"`, static("~")},
	{`\~`, static("~")},
	{`a"b"~`, static("ab~")},
	// $'…' as bash decodes it.
	{`$'\x72m'`, static("rm")},
	{`$'a\tb\n'`, static("a\tb\n")},
	{`$'a\'b'`, static("a'b")},
	{`$'\"\?\\'`, static(`"?\`)},
	{`$'\e[0m'`, static("\x1b[0m")},
	{`$'\101\1011'`, static("AA1")},
	{`$'\477'`, static("?")},
	{`$'\x41B'`, static("AB")},
	{`$'\x4g'`, static("\x04g")},
	{`$'\x'`, static(`\x`)},
	{`$'\x{4142}'`, static("B")},
	{`$'\x{41'`, static("A")},
	{`$'\u00e9'`, static("é")},
	{`$'\u41'`, static("A")},
	{`$'\u'`, static(`\u`)},
	{`$'\U0001F600'`, static("😀")},
	{`$'\uD800'`, static("\xed\xa0\x80")},
	{`$'\U7FFFFFFF'`, static("\xfd\xbf\xbf\xbf\xbf\xbf")},
	{`$'a\UFFFFFFFFb'`, static("ab")},
	{`$'\cA\cz\c?'`, static("\x01\x1a\x7f")},
	{`$'\c\\x'`, static("\x1cx")},
	{`$'\c'`, static(`\c`)},
	{`$'\q'`, static(`\q`)},
	{`$'rm\0x'`, static("rm")},
	{`$'a\x00b'c`, static("ac")},
	{`$'a\x{}b'`, static("a")},
	{`$'\U0'`, static("")},
	// Pathname, brace and tilde expansion.
	{`*.go`, expanding("*.go")},
	{`a?`, expanding("a?")},
	{`[ab]c`, expanding("[ab]c")},
	{`[`, static("[")},
	{`]`, static("]")},
	{`[a"]"`, static("[a]")},
	{`{a,b}`, expanding("{a,b}")},
	{`{"a",b}`, expanding("{a,b}")},
	{`{1..3}`, expanding("{1..3}")},
	{`{a}`, static("{a}")},
	{`~`, expanding("~")},
	{`~/x`, expanding("~/x")},
	{`a=~/x`, expanding("a=~/x")},
	{`PATH=/a:~/b`, expanding("PATH=/a:~/b")},
	// Parts only known at run time.
	{`$x`, dynamic("$x", "$x")},
	{`"$y"`, dynamic("$y", `"$y"`)},
	{`"a $b c"`, dynamic("a $b c", `"a $b c"`)},
	{`"$X"/y`, dynamic("$X/y", `"$X"/y`)},
	{`${a[$(id)]}`, dynamic("${a[$(id)]}", "${a[$(id)]}")},
	{`$(rm x)`, dynamic("$(rm x)", "$(rm x)")},
	{"`id`", dynamic("$(id)", "$(id)")}, // printed in the $(…) form
	{`$((1+2))`, dynamic("$((1 + 2))", "$((1 + 2))")},
	{`$"hello"`, dynamic("hello", `$"hello"`)},
	{`@(a|b)`, dynamic("@(a|b)", "@(a|b)")},
	{`<(ls)`, dynamic("<(ls)", "<(ls)")},
}

// argWord parses "echo WORD" and evaluates WORD.
func argWord(src string) shellsyntax.Word {
	f, err := shellsyntax.Parse("echo " + src)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	cmds := shellsyntax.SimpleCommands(f)
	ExpectWithOffset(1, cmds).NotTo(BeEmpty())
	ExpectWithOffset(1, cmds[0].Args).To(HaveLen(2), "%q is one word", src)
	return cmds[0].Args[1]
}

var _ = Describe("EvalWord", func() {
	var entries []TableEntry
	for _, c := range wordCases {
		entries = append(entries, Entry(c.src, c.src, c.want))
	}
	DescribeTable("evaluates words",
		func(src string, want shellsyntax.Word) {
			Expect(argWord(src)).To(Equal(want))
		},
		entries,
	)

	It("reads a nil word as the empty literal", func() {
		Expect(shellsyntax.EvalWord(nil)).To(Equal(static("")))
	})

	It("agrees with bash on every static word", func() {
		bash := tooltest.Need(tooltest.Bash)
		var srcs, want []string
		for _, c := range wordCases {
			if c.want.Static {
				srcs = append(srcs, c.src)
				want = append(want, c.want.Value)
			}
		}
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", `printf '%s\0' `+strings.Join(srcs, " "))
		cmd.Dir = GinkgoT().TempDir()
		cmd.Env = []string{"LC_ALL=C.UTF-8", "HOME=/nonexistent"}
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred())
		Expect(strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")).To(Equal(want))
	})
})
