//go:build !internal && !ant

package main_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// ownInitAllocBudget is how many heap allocations agentcore's own package
// initialisers may make together before main. Every start pays for them,
// -p and `version` included (issue 36's start-up row); at 126–132 they
// are the sync.OnceValue wrappers and a few small tables. A table or
// regexp a run does not need right away is built at first use instead.
// The count is exact for a given binary, unlike a time.
const ownInitAllocBudget = 150

// ownInitAllocs runs `agentcore version` with GODEBUG=inittrace=1 and
// returns the allocations of each of agentcore's own packages' initialisers.
func ownInitAllocs(bin string) map[string]int {
	cmd := exec.Command(bin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	Expect(cmd.Run()).To(Succeed(), "%s version: %s", bin, stderr.String())
	allocs := map[string]int{}
	for line := range strings.Lines(stderr.String()) {
		// init github.com/agentcore/agentcore/runtime/agent @5.9 ms, 0.051 ms clock, 8768 bytes, 66 allocs
		f := strings.Fields(line)
		if len(f) != 11 || f[0] != "init" || f[10] != "allocs" || !strings.HasPrefix(f[1], module+"/") {
			continue
		}
		n, err := strconv.Atoi(f[9])
		Expect(err).NotTo(HaveOccurred(), "inittrace line %q", line)
		allocs[strings.TrimPrefix(f[1], module+"/")] += n
	}
	return allocs
}

var _ = Describe("start-up", Label("gating"), func() {
	for _, v := range gating.Variants {
		It("runs agentcore's own initialisers in the "+v.Name+" variant within "+strconv.Itoa(ownInitAllocBudget)+" allocations", func() {
			allocs := ownInitAllocs(binaries[v.Name])
			Expect(allocs).NotTo(BeEmpty(), "GODEBUG=inittrace=1 printed no line for agentcore's packages")
			total := 0
			var lines []string
			for pkg, n := range allocs {
				total += n
				lines = append(lines, fmt.Sprintf("%5d %s", n, pkg))
			}
			sort.Sort(sort.Reverse(sort.StringSlice(lines)))
			Expect(total).To(BeNumerically("<=", ownInitAllocBudget),
				"agentcore's package initialisers allocate %d times before main in the %s variant; build the new tables or regexps at first use (sync.OnceValue). By package:\n%s",
				total, v.Name, strings.Join(lines, "\n"))
		})
	}
})
