package main

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the report's rows and verdicts", func() {
	out := "goos: linux\n" +
		"BenchmarkA/fast-2   10   100 ns/op   0.9 x-bound\n" +
		"BenchmarkA/fast-2   10   120 ns/op   1.3 x-bound\n" +
		"BenchmarkA/fast-2   10   110 ns/op   1.1 x-bound\n" +
		"BenchmarkA/slow-2   10   400 ns/op\n" +
		"PASS\n"
	results := parse(out)
	plain := func(r ratio) string { return r.label }

	It("reads the medians of every run of a benchmark", func() {
		Expect(median(results["BenchmarkA/fast"]["ns/op"])).To(Equal(110.0))
		Expect(median(results["BenchmarkA/fast"]["x-bound"])).To(Equal(1.1))
	})

	It("names each row over its target, with its value and target, and passes the rest", func() {
		s := suite{title: "S", ratios: []ratio{
			{label: "slow / fast", num: "BenchmarkA/slow", den: "BenchmarkA/fast", target: 3},
			{label: "fast / bound", num: "BenchmarkA/fast", metric: "x-bound", target: 1.05},
			{label: "tracked", num: "BenchmarkA/slow", den: "BenchmarkA/fast"},
		}}
		table, misses := ratioTable(s, results, plain)
		Expect(misses).To(Equal([]miss{{"S", "slow / fast", "3.636× > 3.00×"}, {"S", "fast / bound", "1.100× > 1.05×"}}))
		Expect(table).To(ContainSubstring("| slow / fast | 3.636× | ≤ 3.00× | **over target** |"))
		Expect(table).To(ContainSubstring("| tracked | 3.636× |  |  |"))
		v := verdict(misses, "Verdict", false)
		Expect(v).To(ContainSubstring("**2 rows missed their target**"))
		Expect(v).To(ContainSubstring("- fast / bound: 1.100× > 1.05×"))
	})

	It("counts a row with a target as missed when its benchmark reported nothing", func() {
		s := suite{title: "S", ratios: []ratio{
			{label: "gone", num: "BenchmarkB", target: 2, metric: "x-cpu"},
			{label: "gone, tracked", num: "BenchmarkB", metric: "x-cpu"},
		}}
		table, misses := ratioTable(s, results, plain)
		Expect(misses).To(HaveLen(1))
		Expect(misses[0].why).To(ContainSubstring("not measured"))
		Expect(strings.Count(table, "missing")).To(Equal(2))
	})

	It("says every row met its target only when none missed", func() {
		s := suite{title: "S", ratios: []ratio{{label: "slow / fast", num: "BenchmarkA/slow", den: "BenchmarkA/fast", target: 4}}}
		_, misses := ratioTable(s, results, plain)
		Expect(misses).To(BeEmpty())
		Expect(verdict(misses, "Verdict", false)).To(Equal("Verdict: every row with a target met it.\n"))
	})

	It("rewrites one section run alone, keeps the others and names it in the header", func() {
		doc := "# Benchmarks\n\nWritten whole.\n\nEach figure is the median.\n\nVerdict.\n\n## A\n\nold a\n\n## B\n\nold b\n"
		got := markAlone(splice(doc, "A", "\n## A\n\nnew a\n"), "A")
		Expect(got).To(ContainSubstring("## A\n\nnew a\n\n## B\n\nold b\n"))
		Expect(got).NotTo(ContainSubstring("old a"))
		Expect(got).To(ContainSubstring(aloneNote + "A.\n\nEach figure is the median."))
		got = markAlone(splice(got, "B", "\n## B\n\nnew b\n"), "B")
		Expect(got).To(HaveSuffix("## A\n\nnew a\n\n## B\n\nnew b\n"))
		Expect(strings.Count(got, aloneNote)).To(Equal(1))
		Expect(got).To(ContainSubstring(aloneNote + "A; B.\n"))
		got = markAlone(splice(got, "C", "\n## C\n\nc\n"), "C")
		Expect(got).To(HaveSuffix("## B\n\nnew b\n\n## C\n\nc\n"))
		Expect(markAlone(got, "C")).To(Equal(got))
	})
})
