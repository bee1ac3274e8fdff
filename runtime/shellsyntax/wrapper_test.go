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
		Entry(nil, "chrt -o 0 curl x", "curl x"),
		Entry(nil, "chrt -f -T 10 5 curl x", "curl x"),
		Entry(nil, "chrt -p 5 1234", ""),
		Entry(nil, "chrt -o 0 curl -p x", "curl -p x"),
		Entry(nil, "taskset -c 0,1 make", "make"),
		Entry(nil, "taskset -p 1234", ""),
		Entry(nil, "flock -w 5 .lock make", "make"),
		Entry(nil, "prlimit --nofile=100 ls", "ls"),
		Entry(nil, "prlimit -p 1234", ""),
		Entry(nil, "setpriv --no-new-privs --reuid 1000 id", "id"),
		Entry(nil, "unshare -U -w /tmp sh", "sh"),
		Entry(nil, "strace -f -o /dev/null rm x", "rm x"),
		Entry(nil, "strace -p 1", ""),
		Entry(nil, "setsid -w rm x", "rm x"),
		Entry(nil, "runuser -u nobody -- rm x", "rm x"),
		Entry(nil, "runuser nobody -c id", ""),
		Entry(nil, "/usr/sbin/chroot / rm x", "rm x"),
		Entry(nil, "setarch x86_64 -R rm x", "rm x"),
		Entry(nil, "eatmydata rm x", "rm x"),
		Entry(nil, "timeout 5 nice -n1 taskset -c 0 curl x", "nice -n1 taskset -c 0 curl x"),
		Entry(nil, "command -v git", ""),
		Entry(nil, "timeout 5", ""),
		Entry(nil, "env A=1 ls", ""),
		Entry(nil, "ls -la", ""),
		Entry(nil, "timeout", ""),
	)
})
