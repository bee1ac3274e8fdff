package main

import "github.com/agentcore/agentcore/benchmarks/sdkstart"

// suites are the benchmark runs of `make bench`, each with the ratios the
// issues set targets for. Targets are the largest acceptable value.
var suites = []suite{
	{
		title: "Generated decode + validation (toolgen)",
		pkg:   "./gen/",
		bench: "DecodeRead",
		ratios: []ratio{
			{label: "generated decode+validate / json.Unmarshal into the same struct", num: "BenchmarkDecodeRead/generated", den: "BenchmarkDecodeRead/json.Unmarshal", target: 1.3},
			{label: "generated decode+validate / santhosh-tekuri parse+validate (≥ 2× faster)", num: "BenchmarkDecodeRead/generated", den: "BenchmarkDecodeRead/santhosh-tekuri", target: 0.5},
			{label: "the real Read tool's decoder / json.Unmarshal", num: "BenchmarkDecodeRead/generated-agentcore-Read", den: "BenchmarkDecodeRead/json.Unmarshal", target: 1.3},
		},
		notes: "Input: a typical Read call (`file_path`, `offset`, `limit`). json.Unmarshal does no validation at all; the generated decoder also checks required keys, types, bounds and unknown keys.",
	},
	{
		title: "Orchestration: per-call overhead with no-op tools",
		pkg:   "./runtime/orchestrate/",
		bench: "Overhead",
		ratios: []ratio{
			{label: "batch path, all safe: ns per call", num: "BenchmarkOverhead/batch/safe", metric: "ns/call", target: 5000},
			{label: "batch path, all unsafe: ns per call", num: "BenchmarkOverhead/batch/unsafe", metric: "ns/call", target: 5000},
			{label: "batch, all safe / goroutine-per-call baseline (CPU)", num: "BenchmarkOverhead/batch/safe", den: "BenchmarkOverhead/baseline=goroutine-per-call", metric: "cpu-ns/call"},
			{label: "streaming, all safe / goroutine-per-call baseline (CPU)", num: "BenchmarkOverhead/streaming/safe", den: "BenchmarkOverhead/baseline=goroutine-per-call", metric: "cpu-ns/call"},
		},
		notes: "64 no-op calls per run; the baseline decodes and calls each in a bare goroutine joined by a WaitGroup (no lookup, validation, permission, ordering, trace or contexts). The 5 µs target is absolute, so it is the one figure here a loaded machine can push over.",
	},
	{
		title: "Orchestration: the seed's scenario (five 1 s tools, streamed 400 ms apart)",
		pkg:   "./runtime/orchestrate/",
		bench: "Scenario",
		// Full scale: 1 s tools; the default scale (0.05) keeps go test fast.
		env:       []string{"AGENTCORE_BENCH_SCENARIO_SCALE=1"},
		benchtime: "2x",
		ratios: []ratio{
			{label: "all-safe, streaming / critical-path bound (last arrival + 1 s)", num: "BenchmarkScenario/all-safe/streaming", metric: "x-bound", target: 1.01},
			{label: "all-unsafe, streaming / critical-path bound (first arrival + 5 s)", num: "BenchmarkScenario/all-unsafe/streaming", metric: "x-bound", target: 1.01},
			{label: "all-safe, streaming / batch", num: "BenchmarkScenario/all-safe/streaming", den: "BenchmarkScenario/all-safe/batch", metric: "wall-ms", target: 1.01},
			{label: "all-unsafe, streaming / batch", num: "BenchmarkScenario/all-unsafe/streaming", den: "BenchmarkScenario/all-unsafe/batch", metric: "wall-ms", target: 1.0},
			{label: "all-safe, batch / bound", num: "BenchmarkScenario/all-safe/batch", metric: "x-bound"},
			{label: "all-unsafe, batch / bound", num: "BenchmarkScenario/all-unsafe/batch", metric: "x-bound"},
		},
		notes: "On the all-safe mix both paths share the same critical path (the last call arrives at 2.0 s and runs 1 s), so streaming vs batch is a tie up to timer noise; the 1 % allowance is the issue's own. `sched-ms` in the table above is what the executor's scheduling added to the recomputed critical path.",
	},
	{
		title: "Search: native Grep and Glob vs ripgrep and fd",
		pkg:   "./tooldefs/search/bench/",
		bench: ".",
		needs: []string{"rg"},
		ratios: []ratio{
			{label: "Grep literal vs rg (CPU)", num: "BenchmarkGrepGoroot/literal/native", den: "BenchmarkGrepGoroot/literal/rg", metric: "cpu-ns/op", target: 1.1},
			{label: "Grep regex with a required literal vs rg (CPU)", num: "BenchmarkGrepGoroot/regex/native", den: "BenchmarkGrepGoroot/regex/rg", metric: "cpu-ns/op", target: 1.3},
			{label: "Grep case-insensitive vs rg (CPU)", num: "BenchmarkGrepGoroot/ignorecase/native", den: "BenchmarkGrepGoroot/ignorecase/rg", metric: "cpu-ns/op", target: 2},
			{label: "Grep count vs rg (CPU)", num: "BenchmarkGrepGoroot/count/native", den: "BenchmarkGrepGoroot/count/rg", metric: "cpu-ns/op"},
			{label: "Glob **/*.go by mtime vs fd (CPU)", num: "BenchmarkGlobGoroot/native", den: "BenchmarkGlobGoroot/fd", metric: "cpu-ns/op", target: 1.5},
			{label: "Grep in process vs spawning rg, small repo (wall)", num: "BenchmarkGrepRepo/native", den: "BenchmarkGrepRepo/rg", target: 1},
			{label: "Grep literal vs rg (wall)", num: "BenchmarkGrepGoroot/literal/native", den: "BenchmarkGrepGoroot/literal/rg", target: 1.1},
			{label: "Grep regex vs rg (wall)", num: "BenchmarkGrepGoroot/regex/native", den: "BenchmarkGrepGoroot/regex/rg", target: 1.3},
			{label: "Grep case-insensitive vs rg (wall)", num: "BenchmarkGrepGoroot/ignorecase/native", den: "BenchmarkGrepGoroot/ignorecase/rg", target: 2},
			{label: "Glob vs fd (wall)", num: "BenchmarkGlobGoroot/native", den: "BenchmarkGlobGoroot/fd", target: 1.5},
		},
		notes: "Tree: `$(go env GOROOT)/src`, warm cache. CPU time is user+system of this process for the native engines (GC included) and of the child for rg/fd; on a shared machine it is the steadier figure. fd is looked up as fd or fdfind; its benchmark skips when neither is installed.",
	},
	{
		title: "Ant's Bash: embedded grep and find vs GNU's, as whole commands",
		pkg:   "./tooldefs/search/gnu/",
		bench: "WholeCommand",
		needs: []string{"grep", "find", "bash"},
		ratios: []ratio{
			{label: "grep -rn 'func main' . (wall)", num: "BenchmarkWholeCommand/grep-rn-literal/embedded", den: "BenchmarkWholeCommand/grep-rn-literal/gnu", target: 1},
			{label: "grep -rn 'func main' . (CPU)", num: "BenchmarkWholeCommand/grep-rn-literal/embedded", den: "BenchmarkWholeCommand/grep-rn-literal/gnu", metric: "cpu-ns/op", target: 1},
			{label: "grep -rnE 'func \\(\\w+ \\*?\\w+\\) Close\\(' . (wall)", num: "BenchmarkWholeCommand/grep-rn-regex/embedded", den: "BenchmarkWholeCommand/grep-rn-regex/gnu", target: 1},
			{label: "grep -rnE … (CPU)", num: "BenchmarkWholeCommand/grep-rn-regex/embedded", den: "BenchmarkWholeCommand/grep-rn-regex/gnu", metric: "cpu-ns/op", target: 1},
			{label: "grep -rni 'deadline exceeded' . (wall)", num: "BenchmarkWholeCommand/grep-rni/embedded", den: "BenchmarkWholeCommand/grep-rni/gnu", target: 1},
			{label: "grep -rni … (CPU)", num: "BenchmarkWholeCommand/grep-rni/embedded", den: "BenchmarkWholeCommand/grep-rni/gnu", metric: "cpu-ns/op", target: 1},
			{label: "grep -rl --include='*_test.go' 't.Parallel()' . (wall)", num: "BenchmarkWholeCommand/grep-rl-include/embedded", den: "BenchmarkWholeCommand/grep-rl-include/gnu"},
			{label: "grep -rl --include … (CPU)", num: "BenchmarkWholeCommand/grep-rl-include/embedded", den: "BenchmarkWholeCommand/grep-rl-include/gnu", metric: "cpu-ns/op"},
			{label: "find . -name '*.go' (wall)", num: "BenchmarkWholeCommand/find-name/embedded", den: "BenchmarkWholeCommand/find-name/gnu", target: 1},
			{label: "find . -name '*.go' (CPU)", num: "BenchmarkWholeCommand/find-name/embedded", den: "BenchmarkWholeCommand/find-name/gnu", metric: "cpu-ns/op", target: 1},
			{label: "find . -name '*.go' \\| wc -l (wall)", num: "BenchmarkWholeCommand/find-name-wc/embedded", den: "BenchmarkWholeCommand/find-name-wc/gnu"},
			{label: "find . -name '*.go' \\| wc -l (CPU)", num: "BenchmarkWholeCommand/find-name-wc/embedded", den: "BenchmarkWholeCommand/find-name-wc/gnu", metric: "cpu-ns/op"},
		},
		notes: "Tree: `$(go env GOROOT)/src`, warm cache. Each command runs as ant's Bash runs it: `bash -c '<command>'`, its output through a pipe to the benchmark; embedded has ant's PATH (a directory of grep and find links to a `go build -tags ant ./cmd/agentcore` binary, first), gnu the system's (GNU grep 3.8, findutils 4.9). CPU is the child's user+system, bash and what it waited for. Both write the same bytes (the benchmark fails otherwise). The embedded figures include agentcore's start: ~25 ms from exec to exit for `grep -q x /dev/null` against GNU grep's ~6 ms on this machine (a hello-world Go binary takes ~13 ms; the rest is the 62 MB binary's package initialisers, which Go runs before multicall's dispatch). That start is most of the gap on the short commands (find, grep --include over few files); the machine is shared, so the grep ratios move by ±0.2 between runs.",
	},
	{
		title:     "Start-up: process start to first model request",
		pkg:       "./benchmarks/startup/",
		bench:     "Startup",
		benchtime: "40x",
		ratios: []ratio{
			{label: "exec of `run -p hi` → first POST /v1/messages / exec → exit of `version` (medians, interleaved)", num: "BenchmarkStartup", metric: "x-version", target: 1.2},
		},
		notes: "One binary (`go build ./cmd/agentcore`, external variant). Each iteration runs `agentcore version` and `agentcore run -p hi --model anthropic:test-model` once each, alternating which goes first; `run` talks to a fake Messages API on loopback (ANTHROPIC_BASE_URL) with an empty HOME, config directory and working directory, and is timed from exec to the fake's receipt of the request. x-version is the ratio of the two medians of a run; the table gives its median over the runs.",
	},
	{
		title:     "Agent SDK: query() to the first model request, agentcore vs Claude Code",
		pkg:       "./benchmarks/sdkstart/",
		bench:     "SDKFirstRequest",
		benchtime: "5x",
		needs:     []string{"node", sdkstart.ClaudeCode()},
		ratios: []ratio{
			{label: "query() → first POST /v1/messages, agentcore / Claude Code 2.1.197 (medians, interleaved)", num: "BenchmarkSDKFirstRequest", metric: "x-claude-code", target: 0.25},
		},
		notes: "One node process (benchmarks/sdkstart/first_request.mjs) runs the real @anthropic-ai/claude-agent-sdk 0.3.335 with pathToClaudeCodeExecutable set to agentcore (external variant, built by the benchmark) and to Claude Code 2.1.197, alternating which goes first, against one fake Messages API on loopback (ANTHROPIC_BASE_URL). Each run: an empty HOME and working directory, `query({prompt: 'hi', options: {model: 'claude-sonnet-4-5', ...}})` read to its result; the time runs from the query() call to the fake's receipt of the first POST /v1/messages. ms/… are each CLI's median of the 5 runs of one benchmark run; x-claude-code is their ratio, and the table gives the median over the runs.",
	},
	{
		title:     "Agent loop against a fake Messages API on loopback",
		pkg:       "./runtime/agent/",
		bench:     ".",
		benchtime: "30x",
		ratios: []ratio{
			{label: "process start → first API request / process start → exit of `version`", num: "BenchmarkProcessStartToFirstRequest", den: "BenchmarkProcessStartBaseline", metric: "ns/first-request"},
			{label: "end of a model stream → next request / provider floor", num: "BenchmarkStreamEndToNextRequest", den: "BenchmarkStreamEndToNextRequestBaseline", metric: "ns/gap"},
		},
		notes: "The real SDK is pointed at an httptest server with real SSE framing through ANTHROPIC_BASE_URL. The issue sets no target for these two; they are tracked as ratios to their floors.",
	},
	{
		title:     "Sub-agents: Agent call start to the sub-agent's first model request",
		pkg:       "./tooldefs/subagent/",
		bench:     "AgentCallToFirstRequest",
		benchtime: "200x",
		ratios: []ratio{
			{label: "Agent call start → sub-agent's first request, ms (absolute)", num: "BenchmarkAgentCallToFirstRequest", metric: "ms/first-request", target: 2},
		},
		notes: "In process: a scripted model answers with one Explore Agent call; the time runs from the call's start (after decode, validation and permissions) to the sub-agent provider's first Stream — resolving the type, opening the sub-agent's session over the full generated tool set (filtered pool, own ToolContext), its system prompt and its loop. Median of the iterations, each in a fresh session. The 2 ms target is absolute.",
	},
	{
		title: "ToolSearch: recall over the built-ins and three MCP servers, and search time",
		pkg:   "./runtime/pool/",
		bench: "Search",
		ratios: []ratio{
			{label: "held-out queries whose tool BM25 does not rank first (issue 13: ≤ 4 of 24)", num: "BenchmarkSearchRecall/bm25", metric: "heldout-miss@1", target: 4},
			{label: "held-out recall@1, BM25 (of 24)", num: "BenchmarkSearchRecall/bm25", metric: "heldout-r@1"},
			{label: "held-out recall@1, keyword scorer before (of 24)", num: "BenchmarkSearchRecall/keyword", metric: "heldout-r@1"},
			{label: "dev recall@1, BM25 (of 153)", num: "BenchmarkSearchRecall/bm25", metric: "dev-r@1"},
			{label: "dev recall@1, keyword scorer before (of 153)", num: "BenchmarkSearchRecall/keyword", metric: "dev-r@1"},
			{label: "one plain-language search over the 62 real deferred tools / over 150 synthetic ones", num: "BenchmarkSearchEvalPool", den: "BenchmarkSearchKeywords"},
		},
		notes: "Pool: the 24 built-ins (testdata/builtins.json, from benchmarks/tooldump) and the 39 tools of the npm reference servers filesystem 0.2.0, everything 2.0.0 and memory 0.6.3 (testdata/mcp), all but ToolSearch deferred: 62 searched. Queries: testdata/queries, one expected tool each; heldout.tsv (24) was written before any tuning and is never tuned on (its misses are not printed), dev.tsv (153) is what the ranking was tuned on. The recall figures are counts, the same in every run. For comparison, issue 13 quotes Claude Code 2.1.328 at 10/24 and agentcore's keyword scorer at 15/24 on the held-out set (the keyword scorer scores 14/24 against the built-ins as first dumped, 12/24 against today's, with AskUserQuestion, plan-mode, worktree and task-list tools added). ToolSearch's own definition is 179 tokens by pool.EstimateTokens (tooldefs/tool_search_test.go keeps it under 500). Index: built once per pool, on its first keyword search.",
	},
}
