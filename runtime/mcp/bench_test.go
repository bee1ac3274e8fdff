package mcp_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/mcp"
)

// benchToolServer builds the tool server into a temporary directory.
func benchToolServer(b *testing.B) string {
	b.Helper()
	out := filepath.Join(b.TempDir(), "toolserver")
	cmd := exec.Command("go", "build", "-o", out, "github.com/agentcore/agentcore/runtime/mcp/testdata/toolserver")
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build toolserver: %v\n%s", err, msg)
	}
	return out
}

func benchManager(b *testing.B, bin string) *mcp.Manager {
	b.Helper()
	m := mcp.NewManager(mcp.Config{Servers: map[string]mcp.ServerConfig{"tools": {Command: bin}}},
		mcp.Options{ConnectTimeout: time.Minute, TerminateDuration: time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkCallStdioRawSDK is the baseline: a go-sdk client calling the
// echo tool over stdio, no adapter.
func BenchmarkCallStdioRawSDK(b *testing.B) {
	bin := benchToolServer(b)
	client := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "v1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.CommandTransport{Command: exec.Command(bin)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	params := &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hello"}}
	b.ResetTimer()
	for b.Loop() {
		if _, err := cs.CallTool(context.Background(), params); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallStdioAdapter is the same call through the Manager's
// runtime.Tool adapter: Decode, Call, result mapping.
func BenchmarkCallStdioAdapter(b *testing.B) {
	m := benchManager(b, benchToolServer(b))
	defer m.Close()
	echo := runtime.Lookup(m.Tools(), "mcp__tools__echo")
	raw := json.RawMessage(`{"text":"hello"}`)
	b.ResetTimer()
	for b.Loop() {
		in, err := echo.Decode(raw)
		if err != nil {
			b.Fatal(err)
		}
		res, err := echo.Call(context.Background(), in, nil)
		if err != nil || res.IsError {
			b.Fatal(err, res.Text())
		}
	}
}

// BenchmarkConnectStdio measures a server's start-up: process start,
// initialize, tools/list, then Close (process end).
func BenchmarkConnectStdio(b *testing.B) {
	bin := benchToolServer(b)
	b.ResetTimer()
	for b.Loop() {
		m := benchManager(b, bin)
		if len(m.Tools()) == 0 {
			b.Fatal("no tools")
		}
		m.Close()
	}
}

// BenchmarkDecode is the adapter's input check for a typical input.
func BenchmarkDecode(b *testing.B) {
	m := benchManager(b, benchToolServer(b))
	defer m.Close()
	echo := runtime.Lookup(m.Tools(), "mcp__tools__echo")
	raw := json.RawMessage(`{"text":"hello world","extra":{"a":[1,2,3]}}`)
	b.ResetTimer()
	for b.Loop() {
		if _, err := echo.Decode(raw); err != nil {
			b.Fatal(err)
		}
	}
}
