package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
)

// previewed is a Define'd tool with a preview.
func previewed() runtime.Tool {
	return runtime.Define(runtime.Definition[*echoIn]{
		Name: "Echo", Description: "Echoes its text. Use Finder first.", Decode: decodeEcho, Call: callEcho,
		RenderPreview: func(in *echoIn, _ *runtime.ToolContext) string { return "will echo " + in.Text },
	})
}

// dropFinder is a fit that removes the sentence naming Finder.
func dropFinder(own string) string { return strings.TrimSuffix(own, " Use Finder first.") }

var _ = Describe("WithDescription and Refit", func() {
	It("copy a Define'd tool: no wrapper, the preview still there", func() {
		t := previewed()
		d := runtime.WithDescription(t, "Echoes. Skills: x.")
		Expect(d.Description()).To(Equal("Echoes. Skills: x."))
		Expect(t.Description()).To(Equal("Echoes its text. Use Finder first."), "the original is untouched")
		_, wrapped := d.(interface{ Unwrap() runtime.Tool })
		Expect(wrapped).To(BeFalse())
		in := decoded(d)
		Expect(d.(runtime.Previewer).RenderPreview(in, nil)).To(Equal("will echo hi"))
	})

	It("wrap any other tool once, forwarding its preview", func() {
		var base runtime.Tool = &embedded{}
		d := runtime.WithDescription(runtime.WithDescription(base, "one"), "two")
		Expect(d.Description()).To(Equal("two"))
		Expect(d.(interface{ Unwrap() runtime.Tool }).Unwrap()).To(BeIdenticalTo(base), "wrapped once, not twice")
		Expect(d.(runtime.Previewer).RenderPreview(decoded(d), nil)).To(Equal(""), "ToolDefaults has no preview")
	})

	It("refit from the tool's own description, not from an earlier fit", func() {
		t := previewed()
		Expect(runtime.Refit(t, func(own string) string { return own })).To(BeIdenticalTo(t), "unchanged: the tool itself")
		fitted := runtime.Refit(t, dropFinder)
		Expect(fitted.Description()).To(Equal("Echoes its text."))
		var seen string
		again := runtime.Refit(fitted, func(own string) string { seen = own; return own })
		Expect(seen).To(Equal("Echoes its text. Use Finder first."))
		Expect(again.Description()).To(Equal("Echoes its text. Use Finder first."))

		described := runtime.WithDescription(fitted, "Echoes, described.")
		Expect(runtime.Refit(described, func(own string) string { seen = own; return own + "!" }).Description()).To(Equal("Echoes, described.!"))
		Expect(seen).To(Equal("Echoes, described."), "a new description is the tool's own")
	})
})

var _ = Describe("the typed-output helpers", func() {
	type count struct{ N float64 }
	var call func(ctx context.Context, in *echoIn, c *runtime.Call) (runtime.Result, error)
	BeforeEach(func() {
		call = runtime.OutputCall(func(_ context.Context, in *echoIn, c *runtime.Call) (count, error) {
			c.ModifyContext(func(*runtime.ToolContext) {})
			if in.Text == "nan" {
				return count{N: math.NaN()}, nil
			}
			if in.Text == "fail" {
				return count{}, errors.New("boom")
			}
			return count{N: float64(len(in.Text))}, nil
		}, runtime.JSONContent[count])
	})

	It("turn a typed output into Data, content and the call's modifier", func() {
		res, err := call(context.Background(), &echoIn{Text: "abc"}, runtime.NewCall("1", nil, nil))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Data).To(Equal(count{N: 3}))
		Expect(res.Text()).To(Equal(`{"N":3}`))
		Expect(res.Modifier).NotTo(BeNil())
		_, err = call(context.Background(), &echoIn{Text: "fail"}, nil)
		Expect(err).To(MatchError("boom"))
		_, err = call(context.Background(), &echoIn{Text: "nan"}, nil)
		Expect(err).To(MatchError(ContainSubstring("encode the output")))
	})

	It("render a typed result and progress, and the defaults for anything else", func() {
		rr := runtime.OutputRender(func(in *echoIn, c count) string { return in.Text + " done" })
		Expect(rr(&echoIn{Text: "a"}, runtime.Result{Data: count{}})).To(Equal("a done"))
		Expect(rr(&echoIn{Text: "a"}, runtime.Result{Data: "other"})).To(Equal("Done"))
		rp := runtime.ProgressRender(func(_ *echoIn, p int) string { return "step" })
		Expect(rp(nil, 1)).To(Equal("step"))
		Expect(rp(nil, "x")).To(Equal("x"))
		blocks, err := runtime.TextContent(json.Number("7"))
		Expect(err).NotTo(HaveOccurred())
		Expect(blocks).To(Equal([]runtime.Block{runtime.TextBlock("7")}))
	})
})
