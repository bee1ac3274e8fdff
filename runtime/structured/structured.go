// Package structured holds a run to a structured final answer, Claude
// Code's -p --json-schema: the model gets a StructuredOutput tool whose
// input schema is the caller's JSON Schema, and the run ends once it has
// called it with an input the schema accepts. An input it rejects comes
// back to the model as an is_error result naming what is wrong; a turn
// that ends without calling it is answered with a reminder. After
// MaxRetries such failures the run ends with an error wrapping
// ErrMaxRetries.
//
// The input is validated with github.com/google/jsonschema-go, the
// validator the MCP SDK already links for MCP tool schemas (draft 2020-12
// and draft-07).
package structured

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/provider"
)

// ToolName is the tool's name, Claude Code's.
const ToolName = "StructuredOutput"

// DefaultMaxRetries is how many failed answers (an input the schema
// rejects, a turn ended without an answer) a run allows before it
// fails; MAX_STRUCTURED_OUTPUT_RETRIES overrides it, as in Claude Code.
const DefaultMaxRetries = 5

// EnvMaxRetries names the environment variable of MaxRetriesFromEnv.
const EnvMaxRetries = "MAX_STRUCTURED_OUTPUT_RETRIES"

// Description is the tool's description (kept short: it is sent with
// every request of the run).
const Description = "Return your final answer in the requested structured format. Call this exactly once, at the end, with input matching the schema."

// Reminder is the user message sent when the model ends its turn without
// an answer.
const Reminder = "You MUST call the " + ToolName + " tool to complete this request. Call this tool now."

// accepted is the tool's result for an answer the schema accepts.
const accepted = "Structured output provided successfully"

// ErrMaxRetries is wrapped by the error that ends a run whose answers
// kept failing (the result's subtype error_max_structured_output_retries).
var ErrMaxRetries = errors.New("structured output retries exhausted")

// Output is the StructuredOutput tool of one session and the state of
// the current run's answer. It is safe for concurrent use.
type Output struct {
	tool       runtime.Tool
	schema     *jsonschema.Resolved
	maxRetries int

	mu       sync.Mutex
	answers  map[string]json.RawMessage // accepted inputs by tool_use id, this turn
	answer   json.RawMessage
	failures int
	lastErr  string
}

// New compiles schema (a JSON Schema object whose type is "object", or
// which has no type) into the tool; maxRetries ≤ 0 means
// DefaultMaxRetries. The error says what is wrong with the schema.
func New(schema json.RawMessage, maxRetries int) (*Output, error) {
	if maxRetries <= 0 {
		maxRetries = DefaultMaxRetries
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("the JSON schema is not a JSON Schema object: %w", err)
	}
	if err := checkTypes(schema); err != nil {
		return nil, err
	}
	switch {
	case s.Type == "":
		s.Type = "object" // the API insists on an object input schema
	case s.Type != "object":
		return nil, fmt.Errorf("the JSON schema must describe an object (\"type\": \"object\"), got type %q: wrap the value in a property", s.Type)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("the JSON schema is invalid: %w", err)
	}
	sent, err := json.Marshal(&s)
	if err != nil {
		return nil, fmt.Errorf("the JSON schema: %w", err)
	}
	o := &Output{schema: rs, maxRetries: maxRetries, answers: map[string]json.RawMessage{}}
	o.tool = runtime.Define(runtime.Definition[json.RawMessage]{
		Name:        ToolName,
		Description: Description,
		Schema:      sent,
		Decode:      o.decode,
		Call:        o.call,
		// Nothing runs: the answer is kept. It never waits in
		// ToolSearch and needs no permission.
		ReadOnly:        true,
		ConcurrencySafe: true,
		LocalOnly:       true,
		CheckPermissions: func(context.Context, json.RawMessage, *runtime.ToolContext) runtime.PermissionDecision {
			return runtime.PermissionDecision{Behavior: runtime.Allow}
		},
		RenderUse:    func(in json.RawMessage) string { return string(in) },
		RenderResult: func(json.RawMessage, runtime.Result) string { return "answer accepted" },
	})
	return o, nil
}

// MaxRetriesFromEnv reads MAX_STRUCTURED_OUTPUT_RETRIES from getenv: 0
// (the default) when unset, an error when it is not a positive integer.
func MaxRetriesFromEnv(getenv func(string) string) (int, error) {
	v := getenv(EnvMaxRetries)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s=%q: want a whole number ≥ 1", EnvMaxRetries, v)
	}
	return n, nil
}

// Tool is the StructuredOutput tool to add to the run's tools.
func (o *Output) Tool() runtime.Tool { return o.tool }

// Validate checks raw, one JSON value, against the schema; the error
// lists what is wrong in the words the model reads.
func (o *Output) Validate(raw json.RawMessage) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("the input is not valid JSON: %w", err)
	}
	if dec.More() {
		return errors.New("the input is not one JSON value")
	}
	if err := o.schema.Validate(v); err != nil {
		return fmt.Errorf("the output does not match the required schema: %s", strings.TrimPrefix(err.Error(), "validating root: "))
	}
	return nil
}

func (o *Output) decode(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.Trim(raw, " \t\r\n")
	if len(raw) == 0 {
		raw = json.RawMessage(`{}`)
	}
	if err := o.Validate(raw); err != nil {
		return nil, err
	}
	return bytes.Clone(raw), nil
}

func (o *Output) call(_ context.Context, in json.RawMessage, call *runtime.Call) (runtime.Result, error) {
	o.mu.Lock()
	o.answers[call.ID] = in
	o.mu.Unlock()
	return runtime.Result{Content: []runtime.Block{runtime.TextBlock(accepted)}}, nil
}

// Begin starts a run: no answer yet, no failures.
func (o *Output) Begin() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.answer, o.failures, o.lastErr = nil, 0, ""
	clear(o.answers)
}

// Turn is told of a turn's tool_use blocks once each has its result. It
// returns the answer once a StructuredOutput call was accepted (the last
// accepted one of the turn); each call that was not accepted counts as a
// failure, and the error, wrapping ErrMaxRetries, says when the failures
// are more than MaxRetries.
func (o *Output) Turn(uses []provider.Block) (json.RawMessage, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, u := range uses {
		if u.Name != ToolName {
			continue
		}
		if v, ok := o.answers[u.ID]; ok {
			o.answer = v
			continue
		}
		o.failures++
		o.lastErr = "the input did not match the schema"
		if err := o.Validate(u.Input); err != nil {
			o.lastErr = err.Error()
		}
	}
	clear(o.answers)
	if o.answer != nil {
		return o.answer, nil
	}
	return nil, o.exhausted()
}

// Missing is asked when the model ends its turn with no answer: the
// reminder to send, or the error wrapping ErrMaxRetries when the
// failures are used up.
func (o *Output) Missing() (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.failures++
	o.lastErr = "the model ended its turn without calling " + ToolName
	if err := o.exhausted(); err != nil {
		return "", err
	}
	return Reminder, nil
}

// exhausted is the run's error once the failures are more than allowed.
func (o *Output) exhausted() error {
	if o.failures <= o.maxRetries {
		return nil
	}
	return fmt.Errorf("%w: no valid %s answer after %d attempts (last: %s); check the schema, or raise %s",
		ErrMaxRetries, ToolName, o.failures, o.lastErr, EnvMaxRetries)
}

// jsonTypes are the type names JSON Schema knows.
var jsonTypes = map[string]bool{"array": true, "boolean": true, "integer": true, "null": true, "number": true, "object": true, "string": true}

// checkTypes refuses a "type" keyword naming no JSON type anywhere in
// schema: jsonschema-go's Resolve accepts {"type": "nonsense"}, and a
// schema no answer can meet would spend every retry. Values under enum,
// const, default and examples are data, not schemas, and are skipped.
func checkTypes(schema json.RawMessage) error {
	var v any
	if err := json.Unmarshal(schema, &v); err != nil {
		return fmt.Errorf("the JSON schema is not JSON: %w", err)
	}
	var walk func(v any, at string) error
	walk = func(v any, at string) error {
		switch v := v.(type) {
		case map[string]any:
			for k, sub := range v {
				switch k {
				case "enum", "const", "default", "examples":
					continue
				case "type":
					names, _ := sub.([]any)
					if name, ok := sub.(string); ok {
						names = []any{name}
					}
					for _, n := range names {
						if name, _ := n.(string); !jsonTypes[name] {
							return fmt.Errorf("the JSON schema is invalid: %s/type: %q is not a JSON type (array, boolean, integer, null, number, object or string)", at, n)
						}
					}
					if _, isSchema := sub.(map[string]any); isSchema {
						if err := walk(sub, at+"/"+k); err != nil { // a property named "type"
							return err
						}
					}
					continue
				}
				if err := walk(sub, at+"/"+k); err != nil {
					return err
				}
			}
		case []any:
			for i, sub := range v {
				if err := walk(sub, fmt.Sprintf("%s/%d", at, i)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(v, "#")
}
