package pool_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agentcore/agentcore/runtime/pool"
)

func TestScratch(t *testing.T) {
	qs := os.Getenv("Q")
	if qs == "" {
		t.Skip()
	}
	p, _ := evalPool()
	for _, q := range strings.Split(qs, ";") {
		fmt.Println("Q:", q)
		fmt.Println("  groups:", pool.Groups(p, q))
		res, _ := pool.Search(p, q, 5)
		fmt.Println("  top:", res.Matches)
		ex := pool.Explain(p, q, res.Matches...)
		for _, m := range res.Matches {
			fmt.Printf("   %s %.2v\n", m, ex[m])
		}
	}
}
