package shellsyntax_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

var _ = Describe("WrappedCommand", func() {
	DescribeTable("finds the command a wrapper runs",
		func(line string, want string) {
			words := strings.Fields(line)
			i, ok := shellsyntax.WrappedCommand(words)
			if want == "" {
				Expect(ok).To(BeFalse(), line)
				return
			}
			Expect(ok).To(BeTrue(), line)
			Expect(strings.Join(words[i:], " ")).To(Equal(want))
		},
		Entry(nil, "timeout 5 rm x", "rm x"),
		Entry(nil, "timeout -s KILL 60 go test", "go test"),
		Entry(nil, "timeout --signal=KILL 60 go test", "go test"),
		Entry(nil, "nice -n 10 make", "make"),
		Entry(nil, "nohup -- ./server", "./server"),
		Entry(nil, "time -f %e cargo build", "cargo build"),
		Entry(nil, "sudo -u root rm -rf /tmp/x", "rm -rf /tmp/x"),
		Entry(nil, "xargs -n 1 rm", "rm"),
		Entry(nil, "/usr/bin/timeout 5 ls", "ls"),
		Entry(nil, "command -v git", ""),
		Entry(nil, "timeout 5", ""),
		Entry(nil, "env A=1 ls", ""),
		Entry(nil, "ls -la", ""),
		Entry(nil, "timeout", ""),
	)
})
