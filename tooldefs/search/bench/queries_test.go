package bench

import (
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

// gorootSrc is $(go env GOROOT)/src, the large tree (~10k files).
func gorootSrc() (string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", err
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src"), nil
}

// The benchmarks compare timings, so they are only worth reading when
// every query matches something and native and rg do the same work. These
// specs check both on net/http, a small part of the tree the benchmarks
// search.
var _ = Describe("the benchmark queries", func() {
	var tree string

	BeforeEach(func() {
		src, err := gorootSrc()
		Expect(err).NotTo(HaveOccurred(), "go env GOROOT")
		tree = filepath.Join(src, "net", "http")
	})

	var entries []TableEntry
	for _, q := range queries {
		entries = append(entries, Entry(q.name, q))
	}

	DescribeTable("find lines, so the benchmark times a search that matches",
		func(q query) {
			n, err := nativeLines(tree, q.opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(n).To(BeNumerically(">", 0))
		},
		entries,
	)

	DescribeTable("render as many lines natively as rg prints, so both are timed on the same work",
		func(q query) {
			rg := tooltest.Need(tooltest.Rg)
			n, err := nativeLines(tree, q.opts)
			Expect(err).NotTo(HaveOccurred())
			cmd := exec.Command(rg, append(append([]string{"--no-config"}, q.args...), tree)...)
			out, err := cmd.Output()
			Expect(err).NotTo(HaveOccurred(), "rg %v", q.args)
			Expect(strings.Count(string(out), "\n")).To(Equal(n))
		},
		entries,
	)
})
