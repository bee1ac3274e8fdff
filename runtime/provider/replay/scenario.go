package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/agentcore/agentcore/runtime/provider"
)

// Scenario is a scripted conversation: the model's side of it, turn by turn.
//
// On disk it is JSON (one object with "turns") or JSONL: a header line
// without "blocks", then one turn per line. Blank lines and lines starting
// with "#" or "//" are comments. In a tool input, ${CWD} stands for the
// directory the scenario is played in (Options.Cwd), for tools that want
// absolute paths.
//
//	{"name":"tour","prompt":"Look around the repo"}
//	{"blocks":[{"type":"text","text":"Reading…"},{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"go.mod"},"delay_ms":200}]}
//	{"when":{"errors":["t1"]},"blocks":[{"type":"text","text":"That failed."}]}
//	{"blocks":[{"type":"text","text":"Done."}]}
//
// A sub-agent's turns are scripted under the tool_use id of the Agent call
// that starts it: in JSONL, a turn line with "agent": that id (anywhere
// after the header); in one JSON document, "subagents": {id: [turns]}.
// The sub-agent plays them from its first request, with the same rules.
//
//	{"blocks":[{"type":"tool_use","id":"a1","name":"Agent","input":{"description":"Find tests","prompt":"…","subagent_type":"Explore"}}]}
//	{"agent":"a1","blocks":[{"type":"tool_use","id":"a1_g","name":"Glob","input":{"pattern":"**/*_test.go"}}]}
//	{"agent":"a1","blocks":[{"type":"text","text":"12 test files."}]}
//
// A request a tool makes to the session's model while it runs (an MCP
// server's sampling request) plays the next turn like any other: script
// its answer right after the turn whose call makes it.
type Scenario struct {
	// Name and Description say what the scenario shows.
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// Prompt is the user prompt the scenario answers; the CLI sends it
	// when no -p is given.
	Prompt string `json:"prompt,omitempty"`
	// Stream false makes the provider non-streaming: the whole message
	// arrives at once and the loop runs its calls as a batch.
	Stream *bool `json:"stream,omitempty"`
	// Turns are the model's responses, in order.
	Turns []Turn `json:"turns,omitempty"`
	// Subagents are the sub-agents' responses, keyed by the tool_use id of
	// the Agent call that starts each.
	Subagents map[string][]Turn `json:"subagents,omitempty"`
}

// Turn is one response of the model.
type Turn struct {
	// Agent, in a JSONL scenario, puts the turn into the script of the
	// sub-agent that the Agent call with this tool_use id starts.
	Agent string `json:"agent,omitempty"`
	// When, if set, makes the turn apply only when the previous tool
	// results match; turns that do not match are skipped.
	When *Condition `json:"when,omitempty"`
	// Blocks are streamed in order.
	Blocks []ScriptBlock `json:"blocks"`
	// StopReason defaults to tool_use when the turn calls tools, else
	// end_turn.
	StopReason provider.StopReason `json:"stop_reason,omitempty"`
	// Usage, when set, is the usage the response reports instead of the
	// estimate from the request's size: a script can play a long
	// conversation near the context window (compaction).
	Usage *provider.Usage `json:"usage,omitempty"`
}

// Condition matches the tool results of the last user message.
type Condition struct {
	// Results lists tool_use ids that must have a result.
	Results []string `json:"results,omitempty"`
	// Errors lists ids whose result must be an error.
	Errors []string `json:"errors,omitempty"`
	// OK lists ids whose result must not be an error.
	OK []string `json:"ok,omitempty"`
	// Said maps tool_use ids to text their result must contain, wherever
	// in the conversation that result is: {"ask": "Table"} holds for the
	// rest of a session in which the user picked Table in the question
	// ask, so a script can go on from what the user chose.
	Said map[string]string `json:"said,omitempty"`
}

// ScriptBlock is one content block and its timing.
type ScriptBlock struct {
	// Type is "text" or "tool_use".
	Type  provider.BlockType `json:"type"`
	Text  string             `json:"text,omitempty"`
	ID    string             `json:"id,omitempty"`
	Name  string             `json:"name,omitempty"`
	Input json.RawMessage    `json:"input,omitempty"`
	// DelayMS is the pause before the block starts.
	DelayMS int `json:"delay_ms,omitempty"`
	// DurationMS is how long the block takes to stream (text deltas, or a
	// tool_use's input arriving in pieces); default from its length.
	DurationMS *int `json:"duration_ms,omitempty"`
}

// Load reads a scenario file (JSON or JSONL).
func Load(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	sc, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("replay %s: %w", path, err)
	}
	return sc, nil
}

// Parse reads a scenario from JSON or JSONL and checks it.
func Parse(data []byte) (*Scenario, error) {
	sc, err := parse(data)
	if err != nil {
		return nil, err
	}
	if err := sc.check(); err != nil {
		return nil, err
	}
	return sc, nil
}

func parse(data []byte) (*Scenario, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, errors.New("the scenario is empty")
	}
	// One JSON document with "turns".
	var whole struct {
		Scenario
		Blocks json.RawMessage `json:"blocks"`
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	wholeErr := dec.Decode(&whole)
	if wholeErr == nil && !dec.More() && whole.Blocks == nil {
		sc := whole.Scenario
		return &sc, nil
	}

	sc := &Scenario{}
	sawHeader := false
	scan := bufio.NewScanner(bytes.NewReader(data))
	scan.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for n := 1; scan.Scan(); n++ {
		line := strings.TrimSpace(scan.Text())
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "//") {
			continue
		}
		var probe map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &probe); err != nil {
			if wholeErr != nil && n == 1 {
				return nil, fmt.Errorf("neither one JSON scenario (%w) nor JSONL (line 1: %w)", wholeErr, err)
			}
			return nil, fmt.Errorf("line %d: not a JSON object: %w", n, err)
		}
		d := json.NewDecoder(strings.NewReader(line))
		d.DisallowUnknownFields()
		if _, isTurn := probe["blocks"]; isTurn {
			var t Turn
			if err := d.Decode(&t); err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			if t.Agent != "" {
				if sc.Subagents == nil {
					sc.Subagents = map[string][]Turn{}
				}
				id := t.Agent
				t.Agent = ""
				sc.Subagents[id] = append(sc.Subagents[id], t)
				continue
			}
			sc.Turns = append(sc.Turns, t)
			continue
		}
		if sawHeader || len(sc.Turns) > 0 {
			return nil, fmt.Errorf("line %d: a line without \"blocks\" is the header, and it must come first, once", n)
		}
		if err := d.Decode(sc); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		sawHeader = true
	}
	if err := scan.Err(); err != nil {
		return nil, err
	}
	return sc, nil
}

// check validates the turns, the main conversation's and each
// sub-agent's, and gives tool_use blocks without an id a deterministic one.
func (sc *Scenario) check() error {
	if len(sc.Turns) == 0 {
		return errors.New("the scenario has no turns")
	}
	seen := map[string]bool{}
	if err := checkTurns(sc.Turns, "", seen); err != nil {
		return err
	}
	ids := make([]string, 0, len(sc.Subagents))
	for id := range sc.Subagents {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		turns := sc.Subagents[id]
		if len(turns) == 0 {
			return fmt.Errorf("sub-agent %s: no turns", id)
		}
		for _, t := range turns {
			if t.Agent != "" {
				return fmt.Errorf("sub-agent %s: a turn inside \"subagents\" must not name an \"agent\"", id)
			}
		}
		if err := checkTurns(turns, id, seen); err != nil {
			return err
		}
	}
	return nil
}

// checkTurns validates one script; agent is "" for the main one. A
// turn conditioned on "said" is an alternative to turns after it (a
// table where the user asked for one, a list otherwise), so they may use
// its tool_use ids: only one of them plays.
func checkTurns(turns []Turn, agent string, seen map[string]bool) error {
	alternative := map[string]bool{} // ids first used by a turn conditioned on said
	for i := range turns {
		t := &turns[i]
		saidTurn := t.When != nil && len(t.When.Said) > 0
		if t.Agent != "" {
			return fmt.Errorf("turn %d: \"agent\" belongs on JSONL turn lines; in one JSON document put the turns under \"subagents\"", i+1)
		}
		if len(t.Blocks) == 0 {
			return fmt.Errorf("%sturn %d: no blocks", agentPrefix(agent), i+1)
		}
		for j := range t.Blocks {
			b := &t.Blocks[j]
			where := fmt.Sprintf("%sturn %d, block %d", agentPrefix(agent), i+1, j+1)
			if b.DelayMS < 0 || (b.DurationMS != nil && *b.DurationMS < 0) {
				return fmt.Errorf("%s: delays must not be negative", where)
			}
			switch b.Type {
			case provider.TextBlock:
			case provider.ToolUseBlock:
				if b.Name == "" {
					return fmt.Errorf("%s: a tool_use needs a \"name\"", where)
				}
				if b.ID == "" {
					if agent == "" {
						b.ID = fmt.Sprintf("toolu_replay_%02d_%02d", i+1, j+1)
					} else {
						b.ID = fmt.Sprintf("toolu_replay_%s_%02d_%02d", agent, i+1, j+1)
					}
				}
				if seen[b.ID] && !alternative[b.ID] {
					return fmt.Errorf("%s: tool_use id %q is used twice (only the turns after one conditioned on \"said\" may reuse its ids, as its alternatives)", where, b.ID)
				}
				if !seen[b.ID] && saidTurn {
					alternative[b.ID] = true
				}
				seen[b.ID] = true
				if len(b.Input) == 0 {
					b.Input = json.RawMessage(`{}`)
				}
				var obj map[string]any
				if err := json.Unmarshal(b.Input, &obj); err != nil {
					return fmt.Errorf("%s: input of %s must be a JSON object: %w", where, b.Name, err)
				}
			default:
				return fmt.Errorf("%s: type must be \"text\" or \"tool_use\", got %q", where, b.Type)
			}
		}
	}
	return nil
}

func agentPrefix(agent string) string {
	if agent == "" {
		return ""
	}
	return "sub-agent " + agent + ", "
}

// matches reports whether c holds for the conversation so far: Results,
// Errors and OK for its last message, Said for any of its messages.
func (c *Condition) matches(msgs []provider.Message) bool {
	if c == nil {
		return true
	}
	for id, text := range c.Said {
		if !said(msgs, id, text) {
			return false
		}
	}
	var last provider.Message
	if n := len(msgs); n > 0 {
		last = msgs[n-1]
	}
	results := map[string]bool{} // id → is_error
	for _, b := range last.Content {
		if b.Type == provider.ToolResultBlock {
			results[b.ToolUseID] = b.IsError
		}
	}
	for _, id := range c.Results {
		if _, ok := results[id]; !ok {
			return false
		}
	}
	for _, id := range c.Errors {
		if isErr, ok := results[id]; !ok || !isErr {
			return false
		}
	}
	for _, id := range c.OK {
		if isErr, ok := results[id]; !ok || isErr {
			return false
		}
	}
	return true
}

// said reports whether the result of the tool call id, in any of msgs,
// holds text in one of its text blocks.
func said(msgs []provider.Message, id, text string) bool {
	for _, m := range msgs {
		for _, b := range m.Content {
			if b.Type != provider.ToolResultBlock || b.ToolUseID != id {
				continue
			}
			for _, c := range b.Content {
				if strings.Contains(c.Text, text) {
					return true
				}
			}
		}
	}
	return false
}

// Marshal writes sc as JSONL: the header, then one turn per line.
func (sc *Scenario) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	head := *sc
	head.Turns, head.Subagents = nil, nil
	if err := writeLine(&buf, head); err != nil {
		return nil, err
	}
	for _, t := range sc.Turns {
		if err := writeLine(&buf, t); err != nil {
			return nil, err
		}
	}
	ids := make([]string, 0, len(sc.Subagents))
	for id := range sc.Subagents {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		for _, t := range sc.Subagents[id] {
			t.Agent = id
			if err := writeLine(&buf, t); err != nil {
				return nil, err
			}
		}
	}
	return buf.Bytes(), nil
}

func writeLine(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
