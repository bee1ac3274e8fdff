// Command ccrecord runs every case of ../cases.jsonl through Claude Code
// in print mode against a fake Messages API on loopback, and writes what
// Claude Code did with each into ../claude-code.json: "allow" (the call
// ran), "blocked" (a permission denial: print mode denies what it would
// ask) or "error" (the tool refused the input before any permission
// question). It builds the same tree as the spec for each case.
//
//	go run ./tooldefs/testdata/adversarial/ccrecord -claude /path/to/claude
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

type testCase struct {
	ID    string   `json:"id"`
	Tool  string   `json:"tool"`
	Input string   `json:"input"`
	Mode  string   `json:"mode"`
	Allow []string `json:"allow"`
	Deny  []string `json:"deny"`
}

type decision struct {
	Decision string `json:"decision"`
	Message  string `json:"message,omitempty"`
}

func main() {
	claude := flag.String("claude", "claude", "the Claude Code binary")
	version := flag.String("version", "", "Claude Code's version, for the file")
	only := flag.String("only", "", "run only the case with this id")
	flag.Parse()
	here := "tooldefs/testdata/adversarial"
	cases := readCases(filepath.Join(here, "cases.jsonl"))

	var mu sync.Mutex
	var current json.RawMessage
	var toolName string
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(r.URL.Path, "count_tokens") {
			fmt.Fprint(w, `{"input_tokens":10}`)
			return
		}
		mu.Lock()
		in, name := current, toolName
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		start := `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}`
		var evs []string
		if !strings.Contains(string(body), `"tools"`) || strings.Contains(string(body), `"tool_result"`) {
			evs = []string{start,
				`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"done"}}`,
				`{"type":"content_block_stop","index":0}`,
				`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":1}}`,
				`{"type":"message_stop"}`}
		} else {
			partial, _ := json.Marshal(string(in))
			block, _ := json.Marshal(map[string]any{"type": "tool_use", "id": "toolu_01", "name": name, "input": map[string]any{}})
			evs = []string{start,
				`{"type":"content_block_start","index":0,"content_block":` + string(block) + `}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":` + string(partial) + `}}`,
				`{"type":"content_block_stop","index":0}`,
				`{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":1}}`,
				`{"type":"message_stop"}`}
		}
		for _, ev := range evs {
			var p struct{ Type string }
			json.Unmarshal([]byte(ev), &p)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", p.Type, ev)
		}
	}))

	out := map[string]decision{}
	file := filepath.Join(here, "claude-code.json")
	if b, err := os.ReadFile(file); err == nil {
		var f struct {
			Decisions map[string]decision `json:"decisions"`
		}
		if json.Unmarshal(b, &f) == nil && f.Decisions != nil {
			out = f.Decisions
		}
	}
	for _, c := range cases {
		if *only != "" && c.ID != *only {
			continue
		}
		if strings.HasPrefix(c.Tool, "mcp__") {
			continue // needs a real server of that name
		}
		root, _ := os.MkdirTemp("", "ccrecord-")
		dir, outside, home := fixture(root)
		input := strings.NewReplacer("${DIR}", dir, "${OUT}", outside, "${OUTBASE}", filepath.Base(outside),
			"${LONG}", strings.Repeat("a", 70000)).Replace(c.Input)
		if c.Tool != "Bash" && c.Tool != "WebFetch" && !filepath.IsAbs(input) && !strings.HasPrefix(input, "~") {
			input = filepath.Join(dir, input) // Claude Code's file tools take absolute paths
		}
		mu.Lock()
		current, toolName = toolInput(c.Tool, input), c.Tool
		mu.Unlock()
		allow := c.Allow
		if allow == nil {
			allow = []string{"Bash(echo:*)", "Bash(git status:*)"}
		}
		mode := c.Mode
		if mode == "" {
			mode = "default"
		}
		args := []string{"-p", "go", "--output-format", "stream-json", "--verbose", "--permission-mode", mode, "--allowedTools"}
		args = append(args, allow...)
		if len(c.Deny) > 0 {
			args = append(args, "--disallowedTools")
			args = append(args, c.Deny...)
		}
		cmd := exec.Command(*claude, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "ANTHROPIC_API_KEY=sk-test", "ANTHROPIC_BASE_URL=http://"+ln.Addr().String(),
			"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1")
		stdout, _ := cmd.Output()
		d := judge(stdout)
		out[c.ID] = d
		fmt.Printf("%-40s %-8s %.100s\n", c.ID, d.Decision, d.Message)
		os.RemoveAll(root)
	}
	b, _ := json.MarshalIndent(map[string]any{"version": *version, "decisions": out}, "", " ")
	if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
		log.Fatal(err)
	}
}

// judge reads Claude Code's stream-json: a permission denial in the
// result is "blocked"; an error tool_result without one is "error".
func judge(stream []byte) decision {
	var d decision
	sc := bufio.NewScanner(strings.NewReader(string(stream)))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var toolErr string
	ran := false
	for sc.Scan() {
		var ev struct {
			Type    string `json:"type"`
			Message struct {
				Content []struct {
					Type    string          `json:"type"`
					IsError bool            `json:"is_error"`
					Content json.RawMessage `json:"content"`
				} `json:"content"`
			} `json:"message"`
			PermissionDenials []json.RawMessage `json:"permission_denials"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		switch ev.Type {
		case "user":
			for _, b := range ev.Message.Content {
				if b.Type == "tool_result" {
					ran = !b.IsError
					if b.IsError {
						toolErr = strings.Trim(string(b.Content), `"`)
					}
				}
			}
		case "result":
			if len(ev.PermissionDenials) > 0 {
				return decision{Decision: "blocked", Message: toolErr}
			}
		}
	}
	switch {
	case ran:
		d.Decision = "allow"
	case toolErr != "":
		d = decision{Decision: "error", Message: toolErr}
	default:
		d = decision{Decision: "unknown", Message: "no tool_result in Claude Code's output"}
	}
	return d
}

func toolInput(tool, input string) json.RawMessage {
	var m map[string]string
	switch tool {
	case "Bash":
		m = map[string]string{"command": input, "description": "case"}
	case "Read":
		m = map[string]string{"file_path": input}
	case "Edit":
		m = map[string]string{"file_path": input, "old_string": "a", "new_string": "b"}
	case "Write":
		m = map[string]string{"file_path": input, "content": "x\n"}
	case "WebFetch":
		m = map[string]string{"url": input, "prompt": "summarise"}
	}
	b, _ := json.Marshal(m)
	return b
}

// fixture lays out the spec's tree (tooldefs/adversarial_test.go).
func fixture(root string) (dir, out, home string) {
	dir, out, home = filepath.Join(root, "work"), filepath.Join(root, "outside"), filepath.Join(root, "home")
	for _, d := range []string{dir + "/sub", dir + "/.git/hooks", dir + "/.claude", out, home} {
		os.MkdirAll(d, 0o755)
	}
	for name, body := range map[string]string{
		dir + "/in.md": "a\n", dir + "/.git/config": "[core]\n", dir + "/.claude/settings.json": "{}\n",
		out + "/secret.txt": "secret\n", out + "/hard.txt": "outside\n",
	} {
		os.WriteFile(name, []byte(body), 0o644)
	}
	os.Symlink(out, dir+"/link-out")
	os.Symlink(out+"/secret.txt", dir+"/link-file")
	os.Link(out+"/hard.txt", dir+"/hard.txt")
	os.WriteFile(home+"/.claude.json", []byte(`{"hasCompletedOnboarding":true}`), 0o644)
	return dir, out, home
}

func readCases(path string) []testCase {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	var cases []testCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c testCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			log.Fatal(err)
		}
		cases = append(cases, c)
	}
	return cases
}
