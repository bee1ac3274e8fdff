package runtime

import (
	"context"
	"encoding/json"
	"fmt"
)

// The helpers below adapt a tool written with a typed output (a tooldef's
// Call returning Out, its RenderResult taking Out, its RenderProgress
// taking its own progress type P) to a [Definition]'s funcs. toolgen
// writes them into every generated Definition; a hand-written tool may use
// them too. None uses reflection.

// OutputCall is a Definition's Call for a call returning Out: the result's
// Data is out, its Content content(out), and its Modifier what the call
// registered with c.ModifyContext.
func OutputCall[In, Out any](call func(context.Context, In, *Call) (Out, error), content func(Out) ([]Block, error)) func(context.Context, In, *Call) (Result, error) {
	return func(ctx context.Context, in In, c *Call) (Result, error) {
		out, err := call(ctx, in, c)
		if err != nil {
			return Result{}, err
		}
		blocks, err := content(out)
		if err != nil {
			return Result{}, err
		}
		return Result{Data: out, Content: blocks, Modifier: c.Modifier()}, nil
	}
}

// TextContent is an output of a string type as one text block.
func TextContent[S ~string](out S) ([]Block, error) {
	return []Block{TextBlock(string(out))}, nil
}

// StringerContent is an output's String() as one text block.
func StringerContent[S fmt.Stringer](out S) ([]Block, error) {
	return []Block{TextBlock(out.String())}, nil
}

// JSONContent is an output marshalled with encoding/json, as one text
// block.
func JSONContent[Out any](out Out) ([]Block, error) {
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("encode the output: %w", err)
	}
	return []Block{TextBlock(string(b))}, nil
}

// BlocksContent is an output turned into blocks by f (a tooldef's
// ResultBlocks).
func BlocksContent[Out any](f func(Out) []Block) func(Out) ([]Block, error) {
	return func(out Out) ([]Block, error) { return f(out), nil }
}

// OutputRender is a Definition's RenderResult for a call returning Out:
// f of the result's Data, or the default of [ToolDefaults] when Data is no
// Out.
func OutputRender[In, Out any](f func(In, Out) string) func(In, Result) string {
	return func(in In, r Result) string {
		if out, ok := r.Data.(Out); ok {
			return f(in, out)
		}
		return ToolDefaults{}.RenderResult(in, r)
	}
}

// ProgressRender is a Definition's RenderProgress for a tool reporting
// progress values of type P: f of a P, the default of [ToolDefaults] for
// any other value.
func ProgressRender[In, P any](f func(In, P) string) func(In, any) string {
	return func(in In, progress any) string {
		if p, ok := progress.(P); ok {
			return f(in, p)
		}
		return ToolDefaults{}.RenderProgress(in, progress)
	}
}
