package shellsyntax_test

import (
	"errors"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// FuzzSimpleCommands checks that reading a line never panics and stays
// bounded: a line over MaxCommandLen is refused, a read line has no more
// commands and words than bytes, its literal words together are no longer
// than the line (decoding only shrinks), a static word is literal and a
// word that is not literal keeps its source.
func FuzzSimpleCommands(f *testing.F) {
	for _, seed := range []string{
		"ls -la", `FOO=1 git log "a b" 'c' d\ e $x | grep -e "$y"; echo *.go`, "echo $(rm -rf x)",
		`$'\x72m' $'\c\\' $'\U7FFFFFFF' $'a\0b' $'\x{4142}' $'\u'`, "declare -x A=1 $X B; export a+=b",
		"a=(1 2) b[$(id)]=x", "cat <<EOF\n$(id)\nEOF", "f() { rm x; }; (cd a && b) | { c; }",
		"ls 2>&1 3>&4- >&- >&$fd <&0", "{a,b}{1..3} ~/x a=~ [ab] \\*", "echo 'unterminated", "x=$(",
		"time ! coproc ls &", "[[ -v a[$(id)] ]]; (( x++ )); let y=1", `"$(echo "$(ls)")"`, "",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		file, err := shellsyntax.Parse(line)
		var long *shellsyntax.TooLongError
		if len(line) > shellsyntax.MaxCommandLen {
			if !errors.As(err, &long) {
				t.Fatalf("a line of %d bytes gave %v, want a TooLongError", len(line), err)
			}
			return
		}
		if errors.As(err, &long) {
			t.Fatalf("a line of %d bytes is too long: %v", len(line), err)
		}
		if err != nil {
			return
		}
		cmds := shellsyntax.SimpleCommands(file)
		words, literalBytes := 0, 0
		for _, c := range cmds {
			_ = c.Name()
			words += len(c.Args)
			for _, w := range c.Args {
				switch {
				case w.Static && !w.Literal:
					t.Fatalf("%q: word %+v is static but not literal", line, w)
				case w.Literal && w.Source != "":
					t.Fatalf("%q: literal word %+v has a source", line, w)
				case !w.Literal && w.Source == "":
					t.Fatalf("%q: word %+v is not literal and has no source", line, w)
				case w.Literal:
					literalBytes += len(w.Value)
				}
			}
			for _, r := range c.Redirs {
				_ = shellsyntax.DupFD(r)
			}
		}
		if len(cmds) > len(line) || words > len(line) {
			t.Fatalf("%q (%d bytes): %d commands, %d words", line, len(line), len(cmds), words)
		}
		if literalBytes > len(line) {
			t.Fatalf("%q (%d bytes): %d bytes of literal words", line, len(line), literalBytes)
		}
		// Every statement reads the same through CommandOf.
		n := 0
		syntax.Walk(file, func(node syntax.Node) bool {
			if st, ok := node.(*syntax.Stmt); ok {
				if sc, ok := shellsyntax.CommandOf(st); ok {
					if n >= len(cmds) || strings.Join(values(sc), "\x00") != strings.Join(values(cmds[n]), "\x00") {
						t.Fatalf("%q: CommandOf and SimpleCommands disagree at command %d", line, n)
					}
					n++
				}
			}
			return true
		})
	})
}

func values(c shellsyntax.SimpleCommand) []string {
	var out []string
	for _, w := range c.Args {
		out = append(out, w.Value)
	}
	return out
}
