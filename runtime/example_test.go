package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentcore/agentcore/runtime"
)

// greetInput is the decoded input of the Greet tool below.
type greetInput struct {
	Name string `json:"name"`
}

// A tool without toolgen: name, description, schema, decode and Call, plus
// the answers that differ from the fail-closed defaults.
func ExampleDefine() {
	greet := runtime.Define(runtime.Definition[*greetInput]{
		Name:        "Greet",
		Description: "Greets a person by name.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`),
		Decode: func(raw json.RawMessage) (*greetInput, error) {
			in := new(greetInput)
			if err := json.Unmarshal(raw, in); err != nil {
				return nil, fmt.Errorf("the input must be an object with a string \"name\": %v", err)
			}
			if in.Name == "" {
				return nil, errors.New(`the required parameter "name" is missing`)
			}
			return in, nil
		},
		Call: func(_ context.Context, in *greetInput, _ *runtime.Call) (runtime.Result, error) {
			text := "Hello, " + in.Name + "!"
			return runtime.Result{Data: text, Content: []runtime.Block{runtime.TextBlock(text)}}, nil
		},
		// Greeting changes nothing, so it may run beside other calls.
		ReadOnly:        true,
		ConcurrencySafe: true,
		RenderUse:       func(in *greetInput) string { return in.Name },
	})

	in, err := greet.Decode(json.RawMessage(`{"name":"Ada"}`))
	if err != nil {
		panic(err)
	}
	res, _ := greet.Call(context.Background(), in, nil)
	fmt.Println(res.Text())
	fmt.Println(greet.UserFacingName(in) + "(" + greet.RenderUse(in) + ")")
	fmt.Println("read-only:", greet.IsReadOnly(in), "destructive:", greet.IsDestructive(in), "interrupt:", greet.InterruptBehavior(in))
	fmt.Println(greet.RenderResult(in, res), "/", greet.RenderRejected(in))
	_, err = greet.Decode(json.RawMessage(`{}`))
	fmt.Println(err)
	// Output:
	// Hello, Ada!
	// Greet(Ada)
	// read-only: true destructive: false interrupt: block
	// Done / Rejected
	// the required parameter "name" is missing
}

// countTool is a tool type with its own state, configured by struct literal.
type countTool struct {
	runtime.ToolDefaults
	name string
	n    int
}

func (c *countTool) Name() string                 { return c.name }
func (c *countTool) Description() string          { return "Counts its calls." }
func (c *countTool) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (c *countTool) Decode(json.RawMessage) (any, error) {
	return struct{}{}, nil
}
func (c *countTool) Call(context.Context, any, *runtime.Call) (runtime.Result, error) {
	c.n++
	return runtime.Result{Content: []runtime.Block{runtime.TextBlock(fmt.Sprint(c.n))}}, nil
}
func (c *countTool) UserFacingName(any) string         { return c.name }
func (c *countTool) RenderGrouped(inputs []any) string { return runtime.RenderUses(c, inputs) }

// A tool type that embeds ToolDefaults writes the seven methods that make
// it itself; every other answer is the fail-closed default.
func ExampleToolDefaults() {
	var tool runtime.Tool = &countTool{name: "Count"}
	in, _ := tool.Decode(nil)
	res, _ := tool.Call(context.Background(), in, nil)
	fmt.Println(tool.UserFacingName(in), res.Text())
	fmt.Println("safe:", tool.IsConcurrencySafe(in), "enabled:", tool.IsEnabled(), "permission:", tool.CheckPermissions(context.Background(), in, nil).Behavior)
	// Output:
	// Count 1
	// safe: false enabled: true permission: passthrough
}
