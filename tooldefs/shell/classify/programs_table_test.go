package classify_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/shellprog"
	"github.com/agentcore/agentcore/tooldefs/shell/classify"
)

// The read-only verdict and the permission engine read the same programs
// table (runtime/shellprog): what the table says writes or runs is never
// read-only, and the reason is the table's.
var _ = Describe("the read-only verdict from the programs table", func() {
	DescribeTable("is negative, with the table's reason, for options and operands that write or run",
		func(cmd, reason string) {
			v := classify.Classify(cmd)
			Expect(v.ReadOnly).To(BeFalse(), "command %q", cmd)
			Expect(v.Reason).To(ContainSubstring(reason))
		},
		Entry("xxd in out", "xxd in out", "xxd's operand 2 writes files"),
		Entry("shuf -o", "shuf -o out in", "shuf -o writes files"),
		Entry("shuf --output abbreviated", "shuf --out=out in", "writes files"),
		Entry("uniq in out", "uniq in out", "uniq's operand 2 writes files"),
		Entry("sort --compress-program abbreviated", "sort --compress=sh in", "runs a program"),
		Entry("sort with an option it cannot judge", "sort --frob in", "the option --frob of sort"),
		Entry("uniq with an option it cannot judge", "uniq -Q in", "the option -Q of uniq"),
		Entry("rg --pre abbreviated", "rg --pr=./x foo", "runs a program"),
		Entry("rg --hostname-bin", "rg --hostname-bin=./x foo", "runs a program"),
		Entry("find -fls", "find . -fls out", "find -fls writes files"),
		Entry("find -execdir", "find . -execdir ls ;", "find -execdir runs a program"),
		Entry("git grep -O attached", "git grep -Oless foo", "-O"),
		Entry("git log --textconv", "git log --textconv", "--textconv"),
		Entry("git diff --output abbreviated", "git diff --outp=x", "--output"),
		Entry("tree -o", "tree -o out", "tree -o writes files"),
		Entry("file --compile", "file --compile -m magic", "writes files"),
	)

	DescribeTable("stays positive for plain uses",
		func(cmd string) {
			v := classify.Classify(cmd)
			Expect(v.ReadOnly).To(BeTrue(), "command %q: %s", cmd, v.Reason)
		},
		Entry("xxd one operand", "xxd -g 1 in"),
		Entry("shuf -n", "shuf -n 3 in"),
		Entry("uniq -c", "uniq -c in"),
		Entry("sort -k", "sort -t, -k2,2n in"),
		Entry("git grep -n", "git grep -n foo"),
	)

	It("agrees with the table on every program it judges by the table", func() {
		for _, name := range []string{"sort", "uniq", "shuf", "xxd", "rg", "find", "tree", "file"} {
			Expect(shellprog.Lookup(name)).NotTo(BeNil(), name)
		}
	})
})
