package editengine_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/tooldefs/editengine"
)

var _ = Describe("LineDiff and Unified", func() {
	It("shows a one-line change with three lines of context", func() {
		a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n"
		b := "1\n2\n3\n4\nfive\n6\n7\n8\n9\n"
		ops := editengine.LineDiff(a, b)
		add, rem := editengine.Stats(ops)
		Expect([]int{add, rem}).To(Equal([]int{1, 1}))
		Expect(editengine.Unified(ops, "a/x", "b/x", 3)).To(Equal(
			"--- a/x\n+++ b/x\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"))
	})

	It("keeps the smallest edit: one line inside a block changed, not the whole block", func() {
		ops := editengine.LineDiff("a\nb\nc\nd\n", "a\nB\nc\nd\n")
		add, rem := editengine.Stats(ops)
		Expect(add).To(Equal(1))
		Expect(rem).To(Equal(1))
	})

	It("splits far-apart changes into separate hunks", func() {
		var a, b []string
		for i := range 30 {
			a = append(a, "line")
			b = append(b, "line")
			_ = i
		}
		a[2], b[2] = "old-top", "new-top"
		a[25], b[25] = "old-bottom", "new-bottom"
		d := editengine.Unified(editengine.LineDiff(strings.Join(a, "\n"), strings.Join(b, "\n")), "a", "b", 3)
		Expect(strings.Count(d, "@@ -")).To(Equal(2))
		Expect(d).To(ContainSubstring("@@ -1,6 +1,6 @@"))
		Expect(d).To(ContainSubstring("@@ -23,7 +23,7 @@"))
	})

	It("merges changes within twice the context into one hunk", func() {
		a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
		b := "one\n2\n3\n4\n5\n6\nseven\n8\n9\n10\n"
		d := editengine.Unified(editengine.LineDiff(a, b), "a", "b", 3)
		Expect(strings.Count(d, "@@ -")).To(Equal(1))
		Expect(d).To(ContainSubstring("@@ -1,10 +1,10 @@"))
	})

	It("renders a creation and a deletion of everything", func() {
		Expect(editengine.Unified(editengine.LineDiff("", "x\ny\n"), "a", "b", 3)).To(Equal("--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n"))
		Expect(editengine.Unified(editengine.LineDiff("x\n", ""), "a", "b", 3)).To(Equal("--- a\n+++ b\n@@ -1 +0,0 @@\n-x\n"))
	})

	It("is empty when nothing changed", func() {
		Expect(editengine.Unified(editengine.LineDiff("same\n", "same\n"), "a", "b", 3)).To(BeEmpty())
	})

	It("falls back to remove-then-add past the edit-distance bound and stays correct", func() {
		// Every third line is common, but 4000 edits separate the texts:
		// past the bound (1000) the common lines are not searched for.
		var a, b strings.Builder
		for i := range 3000 {
			if i%3 == 0 {
				a.WriteString("common\n")
				b.WriteString("common\n")
				continue
			}
			fmt.Fprintf(&a, "a%d\n", i)
			fmt.Fprintf(&b, "b%d\n", i)
		}
		ops := editengine.LineDiff(a.String(), b.String())
		add, rem := editengine.Stats(ops)
		Expect(add).To(Equal(2999), "everything after the common first line")
		Expect(rem).To(Equal(2999))
		Expect(reconstruct(ops)).To(Equal([2]string{a.String(), b.String()}))
	})

	It("finds the common lines within the bound", func() {
		var a, b strings.Builder
		for i := range 300 {
			if i%3 == 0 {
				a.WriteString("common\n")
				b.WriteString("common\n")
				continue
			}
			fmt.Fprintf(&a, "a%d\n", i)
			fmt.Fprintf(&b, "b%d\n", i)
		}
		add, rem := editengine.Stats(editengine.LineDiff(a.String(), b.String()))
		Expect(add).To(Equal(200))
		Expect(rem).To(Equal(200))
	})
})

// reconstruct rebuilds both sides of a diff (lines joined with LF).
func reconstruct(ops []editengine.Op) [2]string {
	var a, b strings.Builder
	for _, o := range ops {
		if o.Kind != editengine.Insert {
			a.WriteString(o.Line + "\n")
		}
		if o.Kind != editengine.Delete {
			b.WriteString(o.Line + "\n")
		}
	}
	return [2]string{a.String(), b.String()}
}
