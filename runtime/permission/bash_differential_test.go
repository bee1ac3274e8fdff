package permission_test

import (
	"context"
	"os/exec"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// continuationLines are lines whose commands hang on how bash 5.2 reads
// backslash-newlines, comments and here-doc terminators. Each calls the
// function w, which prints its arguments; bash's run of the line is the
// truth.
var continuationLines = []string{
	"w a \\\nb",
	"w a # note \\\nw b",
	"w a # note \\\\\nw b",
	"w 'a\\\nb' \"c\\\nd\"",
	"w a; # x\nw b",
	"w a \\\n# not a comment\nw b",
	"cat <<EOF\nx\nEOF\\\nw hidden\nEOF\nw after",
	"cat <<EOF\nx\nE\\\nOF\nw hidden\nEOF",
	"cat <<'EOF'\nx\nE\\\nOF\nw shown\nEOF\nw after",
	"cat <<-EOF\n\tx\n\tEOF\nw after",
	"cat <<-EOF\n\tx\n\tE\\\nOF\nw hidden\nEOF",
	"cat <<EO\\\nF\nx\nEOF\nw after",
	"w a\\\n\\\nb",
	"w {a,b}c",
	"w \\{a,b\\}",
	"w a#b #c",
	"cat <<EOF; w same\nbody\nEOF\nw next",
}

var _ = Describe("the shell analysis beside bash 5.2", func() {
	It("sees the commands bash runs, or asks in every mode", func() {
		bash := tooltest.Need(tooltest.Bash)
		dir := GinkgoT().TempDir()
		e, err := permission.NewEngine(permission.Config{Cwd: dir, Home: dir, Mode: permission.ModeBypass, Tools: sessionTools()})
		Expect(err).NotTo(HaveOccurred())
		divergent := 0
		for _, line := range continuationLines {
			cmd := exec.Command(bash, "--norc", "--noprofile", "-c", "w() { printf '%s\\037' \"$@\"; printf '\\036'; }\ncat() { command cat >/dev/null; }\n"+line)
			cmd.Dir = dir
			cmd.Env = []string{"LC_ALL=C.UTF-8", "HOME=" + dir, "PATH=/usr/bin:/bin"}
			out, _ := cmd.Output()
			var want []string
			for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x1e"), "\x1e") {
				if rec != "" || len(out) > 0 {
					want = append(want, strings.TrimSuffix(rec, "\x1f"))
				}
			}
			if len(out) == 0 {
				want = nil
			}
			var got []string
			for _, c := range permission.ShellCommands(line) {
				if len(c.Words) > 0 && c.Words[0] == "w" {
					got = append(got, strings.Join(c.Words[1:], "\x1f"))
				}
			}
			if strings.Join(got, "\x1e") == strings.Join(want, "\x1e") {
				continue
			}
			divergent++
			d := e.Check(context.Background(), bashTool(), line, runtime.NewToolContext(dir))
			Expect(d.Behavior).To(Equal(runtime.Ask), "%q: bash runs w with %q, the analysis sees %q, and the line is allowed", line, want, got)
		}
		// The parser reads three of the lines unlike bash (a comment ending
		// in a backslash, here-docs ended by a continued terminator): the
		// spec must meet them, or it proves nothing.
		Expect(divergent).To(BeNumerically(">=", 3))
	})
})
