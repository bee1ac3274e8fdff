// Command badserver is a misbehaving stdio MCP server for the runtime/mcp
// fault specs. It speaks JSON-RPC by hand, so that it can break the
// protocol in ways a real SDK would not:
//
//   - BAD_GARBAGE=1: writes lines that are not JSON-RPC to stdout before
//     its answer to initialize and between every two answers;
//   - BAD_INIT_MS=n: waits n ms before answering initialize;
//   - BAD_IGNORE_STDIN=1: keeps running when its stdin closes;
//   - BAD_IGNORE_TERM=1: ignores SIGTERM (else SIGTERM ends it);
//   - BAD_DIR=dir: writes its pid to dir/pid, the pid of a child it
//     starts (a sleep, in its process group) to dir/child, every
//     notification it gets to dir/notes, and the signal that ended it
//     to dir/signal.
//
// Its tools: echo (answers its "text"), hang (never answers), crash (exits
// mid-call), cut (an answer cut off mid-line), badshape (an answer that is
// valid JSON but not a tool result), pid (its process id).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

var (
	dir     = os.Getenv("BAD_DIR")
	garbage = os.Getenv("BAD_GARBAGE") == "1"
	outMu   sync.Mutex
	out     = bufio.NewWriter(os.Stdout)
)

func note(name, text string) {
	if dir == "" {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	fmt.Fprintln(f, text)
	_ = f.Close()
}

// send writes raw lines to stdout, garbage first when asked.
func send(lines ...string) {
	outMu.Lock()
	defer outMu.Unlock()
	if garbage {
		fmt.Fprintln(out, "badserver: this is a log line on stdout")
		fmt.Fprintln(out, "\x1b[32mready\x1b[0m {not json")
		fmt.Fprintln(out, `{"some":"json that is not JSON-RPC"}`)
		fmt.Fprintln(out, "")
	}
	for _, l := range lines {
		fmt.Fprintln(out, l)
	}
	_ = out.Flush()
}

func answer(id json.RawMessage, result any) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	send(string(b))
}

func text(s string) map[string]any {
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}}
}

var tools = []map[string]any{
	{"name": "echo", "description": "Answers its text.", "inputSchema": map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}},
	{"name": "hang", "description": "Never answers.", "inputSchema": map[string]any{"type": "object"}},
	{"name": "crash", "description": "Exits mid-call.", "inputSchema": map[string]any{"type": "object"}},
	{"name": "cut", "description": "Answers with a line cut short.", "inputSchema": map[string]any{"type": "object"}},
	{"name": "badshape", "description": "Answers with valid JSON that is not a tool result.", "inputSchema": map[string]any{"type": "object"}},
	{"name": "pid", "description": "Answers its process id.", "inputSchema": map[string]any{"type": "object"}},
}

func main() {
	note("pid", strconv.Itoa(os.Getpid()))
	if dir != "" {
		child := exec.Command("sleep", "1000")
		if child.Start() == nil {
			note("child", strconv.Itoa(child.Process.Pid))
		}
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		for s := range sigs {
			if s == syscall.SIGTERM && os.Getenv("BAD_IGNORE_TERM") == "1" {
				note("signal", "ignored "+s.String())
				continue
			}
			note("signal", s.String())
			os.Exit(0)
		}
	}()
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string            `json:"name"`
				Arguments map[string]string `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &msg) != nil {
			continue
		}
		if msg.ID == nil {
			note("notes", in.Text())
			continue
		}
		switch msg.Method {
		case "initialize":
			if ms, err := strconv.Atoi(os.Getenv("BAD_INIT_MS")); err == nil {
				time.Sleep(time.Duration(ms) * time.Millisecond)
			}
			answer(msg.ID, map[string]any{
				"protocolVersion": "2025-06-18",
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "badserver", "version": "1"},
			})
		case "tools/list":
			answer(msg.ID, map[string]any{"tools": tools})
		case "tools/call":
			switch msg.Params.Name {
			case "echo":
				answer(msg.ID, text(msg.Params.Arguments["text"]))
			case "hang":
			case "crash":
				fmt.Fprintln(os.Stderr, "badserver: crashing on purpose")
				os.Exit(3)
			case "cut":
				send(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":{"content":[{"type":"text","text":"cut sh`)
			case "badshape":
				send(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":{"content":"not a list"}}`)
			case "pid":
				answer(msg.ID, text(strconv.Itoa(os.Getpid())))
			default:
				send(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"error":{"code":-32602,"message":"no such tool"}}`)
			}
		default:
			answer(msg.ID, map[string]any{})
		}
	}
	if os.Getenv("BAD_IGNORE_STDIN") == "1" {
		for {
			time.Sleep(time.Hour)
		}
	}
}
