package permission_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
)

// An allow rule for a program lets that program run; it does not let it
// start another one. A wrapper's rule covers what it runs only when the
// rule names that program too.
var _ = Describe("allow rules for wrappers", func() {
	var (
		engine *permission.Engine
		tc     *runtime.ToolContext
	)

	BeforeEach(func() {
		dir := GinkgoT().TempDir()
		rules := mustRules(
			[]string{"Bash(timeout:*)", "Bash(sudo:*)", "Bash(xargs:*)", "Bash(chrt *)", "Bash(nice:*)",
				"Bash(timeout 30 make:*)", "Bash(sudo apt-get install *)", "Bash(go test:*)", "Bash(env FOO=1 make)"},
			nil, nil,
		)
		var err error
		engine, err = permission.NewEngine(permission.Config{Cwd: dir, Home: GinkgoT().TempDir(), Rules: rules})
		Expect(err).NotTo(HaveOccurred())
		tc = runtime.NewToolContext(dir)
	})

	DescribeTable("decides",
		func(command string, want runtime.Behavior) {
			d := engine.Check(context.Background(), bashTool(), command, tc)
			Expect(d.Behavior).To(Equal(want), "command %q: %s", command, d.Message)
		},
		Entry("timeout's rule does not run rm", "timeout 5 rm -f x", runtime.Ask),
		Entry("sudo's rule does not run sh", "sudo sh -c 'id'", runtime.Ask),
		Entry("xargs' rule does not run make", "echo a | xargs make", runtime.Ask),
		Entry("chrt's wildcard rule does not run curl", "chrt -f 1 curl http://127.0.0.1:9/", runtime.Ask),
		Entry("nice's rule does not run python", "nice -n 5 python3 -c 'print(1)'", runtime.Ask),
		Entry("a rule naming the wrapped program covers it", "timeout 30 make build", runtime.Allow),
		Entry("a wildcard rule naming the wrapped program covers it", "sudo apt-get install jq", runtime.Allow),
		Entry("a transparent wrapper passes the rule of what it runs", "timeout 30 go test ./...", runtime.Allow),
		Entry("nested transparent wrappers too", "nice -n 5 timeout 30 go test ./...", runtime.Allow),
		Entry("an exact rule through env covers its command", "env FOO=1 make", runtime.Allow),
	)
})
