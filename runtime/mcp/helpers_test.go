package mcp_test

import (
	"context"
	"encoding/json"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/mcp"
)

// stdio is a config entry starting one of the test servers.
func stdio(path string) mcp.ServerConfig { return mcp.ServerConfig{Command: path} }

// start runs a Manager for the servers, closed when the spec ends.
func start(servers map[string]mcp.ServerConfig, opts mcp.Options) *mcp.Manager {
	if opts.ConnectTimeout == 0 {
		opts.ConnectTimeout = 30 * time.Second
	}
	if opts.TerminateDuration == 0 {
		opts.TerminateDuration = 500 * time.Millisecond
	}
	m := mcp.NewManager(mcp.Config{Servers: servers}, opts)
	DeferCleanup(m.Close)
	return m
}

func waitAll(m *mcp.Manager) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	Expect(m.Wait(ctx)).To(Succeed())
}

func names(tools []runtime.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name()
	}
	return out
}

func find(m *mcp.Manager, name string) runtime.Tool {
	t := runtime.Lookup(m.Tools(), name)
	ExpectWithOffset(1, t).NotTo(BeNil(), "tool %s in %v", name, names(m.Tools()))
	return t
}

// call decodes raw and runs the tool as the orchestrator would.
func call(t runtime.Tool, raw string) runtime.Result {
	return callCtx(context.Background(), t, raw, nil)
}

func callCtx(ctx context.Context, t runtime.Tool, raw string, onProgress func(any)) runtime.Result {
	in, err := t.Decode(json.RawMessage(raw))
	ExpectWithOffset(2, err).NotTo(HaveOccurred())
	tc := runtime.NewToolContext(GinkgoT().TempDir())
	res, err := t.Call(ctx, in, runtime.NewCall("toolu_1", tc, onProgress))
	ExpectWithOffset(2, err).NotTo(HaveOccurred())
	return res
}

func state(m *mcp.Manager, name string) mcp.ServerStatus {
	for _, s := range m.Servers() {
		if s.Name == name {
			return s
		}
	}
	Fail("no server " + name)
	return mcp.ServerStatus{}
}
