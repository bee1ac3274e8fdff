package pool_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agentcore/agentcore/runtime/pool"
)

func TestZZExplain(t *testing.T) {
	q := os.Getenv("Q")
	if q == "" {
		t.Skip()
	}
	p, _ := evalPool()
	fmt.Println(pool.Groups(p, q))
	for name, c := range pool.Explain(p, q, strings.Split(os.Getenv("T"), ",")...) {
		fmt.Println(name, c)
	}
}
