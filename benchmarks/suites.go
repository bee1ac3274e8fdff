package main

import "github.com/agentcore/agentcore/benchmarks/sdkstart"

// Detected tools, by the name a section's Tools line gives them.
var (
	ripgrep  = tool{"ripgrep", versionOf([]string{"--version"}, "rg")}
	fd       = tool{"fd", versionOf([]string{"--version"}, "fd", "fdfind")}
	gnuGrep  = tool{"grep", versionOf([]string{"--version"}, "grep")}
	gnuFind  = tool{"find", versionOf([]string{"--version"}, "find")}
	bash     = tool{"bash", versionOf([]string{"--version"}, "bash")}
	bwrap    = tool{"bwrap", versionOf([]string{"--version"}, "bwrap")}
	curl     = tool{"curl", versionOf([]string{"--version"}, "curl")}
	node     = tool{"node", versionOf([]string{"--version"}, "node")}
	agentSDK = tool{"Agent SDK", func() string {
		if v := sdkstart.SDKVersion(); v != "" {
			return "@anthropic-ai/claude-agent-sdk " + v
		}
		return ""
	}}
	claudeCode = tool{"Claude Code", func() string { return firstLine(sdkstart.ClaudeCode(), "--version") }}
)

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
		notes: "A batch of no-op calls per run; the baseline decodes and calls each in a bare goroutine joined by a WaitGroup (no lookup, validation, permission, ordering, trace or contexts). The per-call target is absolute, so it is the one figure here a loaded machine can push over.",
	},
	{
		title: "Orchestration: the seed's scenario (five slow tools, streamed in turn)",
		pkg:   "./runtime/orchestrate/",
		bench: "Scenario",
		// Full scale: 1 s tools; the default scale (0.05) keeps go test fast.
		env:       []string{"AGENTCORE_BENCH_SCENARIO_SCALE=1"},
		benchtime: "1x",
		ratios: []ratio{
			{label: "all-safe, streaming / critical-path bound (last arrival + its run)", num: "BenchmarkScenario/all-safe/streaming", metric: "x-bound", target: 1.01},
			{label: "all-unsafe, streaming / critical-path bound (first arrival + every run)", num: "BenchmarkScenario/all-unsafe/streaming", metric: "x-bound", target: 1.01},
			{label: "all-safe, streaming / batch", num: "BenchmarkScenario/all-safe/streaming", den: "BenchmarkScenario/all-safe/batch", metric: "wall-ms", target: 1.01},
			{label: "all-unsafe, streaming / batch", num: "BenchmarkScenario/all-unsafe/streaming", den: "BenchmarkScenario/all-unsafe/batch", metric: "wall-ms", target: 1.0},
			{label: "all-safe, batch / bound", num: "BenchmarkScenario/all-safe/batch", metric: "x-bound"},
			{label: "all-unsafe, batch / bound", num: "BenchmarkScenario/all-unsafe/batch", metric: "x-bound"},
		},
		notes: "On the all-safe mix both paths share the same critical path (the last call's arrival plus its run), so streaming vs batch is a tie up to timer noise; the allowance is the issue's own. `sched-ms` in the table above is what the executor's scheduling added to the recomputed critical path.",
	},
	{
		title: "Search: native Grep and Glob vs ripgrep and fd",
		pkg:   "./tooldefs/search/bench/",
		bench: ".",
		needs: []string{"rg"},
		tools: []tool{ripgrep, fd},
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
		tools: []tool{gnuGrep, gnuFind, bash},
		ratios: []ratio{
			{label: "grep -rn 'func main' . (wall)", num: "BenchmarkWholeCommand/grep-rn-literal", metric: "x-wall", target: 1},
			{label: "grep -rn 'func main' . (CPU)", num: "BenchmarkWholeCommand/grep-rn-literal", metric: "x-cpu", target: 1},
			{label: "grep -rnE 'func \\(\\w+ \\*?\\w+\\) Close\\(' . (wall)", num: "BenchmarkWholeCommand/grep-rn-regex", metric: "x-wall", target: 1},
			{label: "grep -rnE … (CPU)", num: "BenchmarkWholeCommand/grep-rn-regex", metric: "x-cpu", target: 1},
			{label: "grep -rni 'deadline exceeded' . (wall)", num: "BenchmarkWholeCommand/grep-rni", metric: "x-wall", target: 1},
			{label: "grep -rni … (CPU)", num: "BenchmarkWholeCommand/grep-rni", metric: "x-cpu", target: 1},
			{label: "grep -rl --include='*_test.go' 't.Parallel()' . (wall)", num: "BenchmarkWholeCommand/grep-rl-include", metric: "x-wall"},
			{label: "grep -rl --include … (CPU)", num: "BenchmarkWholeCommand/grep-rl-include", metric: "x-cpu"},
			{label: "find . -name '*.go' (wall)", num: "BenchmarkWholeCommand/find-name", metric: "x-wall", target: 1},
			{label: "find . -name '*.go' (CPU)", num: "BenchmarkWholeCommand/find-name", metric: "x-cpu", target: 1},
			{label: "find . -name '*.go' \\| wc -l (wall)", num: "BenchmarkWholeCommand/find-name-wc", metric: "x-wall"},
			{label: "find . -name '*.go' \\| wc -l (CPU)", num: "BenchmarkWholeCommand/find-name-wc", metric: "x-cpu"},
			{label: "start-up: echo x \\| grep x (wall)", num: "BenchmarkWholeCommand/start-grep", metric: "x-wall"},
			{label: "start-up: echo x \\| grep x (CPU)", num: "BenchmarkWholeCommand/start-grep", metric: "x-cpu"},
			{label: "start-up: find /dev/null (wall)", num: "BenchmarkWholeCommand/start-find", metric: "x-wall"},
			{label: "start-up: find /dev/null (CPU)", num: "BenchmarkWholeCommand/start-find", metric: "x-cpu"},
		},
		notes: "Tree: `$(go env GOROOT)/src`, warm cache. Each command runs as ant's Bash runs it: `bash -c '<command>'`, its output through a pipe to the benchmark; embedded has ant's PATH (a directory of grep and find links to a `CGO_ENABLED=0 go build -tags ant ./cmd/agentcore` binary, first), gnu the system's (the Tools line gives their versions). CPU is the child's user+system, bash and what it waited for; x-wall and x-cpu are embedded's totals over GNU's. Both write the same bytes (the benchmark fails otherwise). Each iteration runs the command both ways, the order swapped every time, so that load which comes and goes on this shared machine falls on both. The embedded figures include agentcore's start, which the start-up rows measure alone (bash -c around a grep or find that does almost nothing); they have no target: a large Go binary pays for its runtime's start (mapping and faulting in pages, filling the itab table) where GNU's small C programs do not. find and a grep whose patterns are plain strings are dispatched from an early initialiser of the ant binary (multicall/early; `GODEBUG=inittrace=1` shows the order), a grep that needs regexp after regexp's. grep -rl --include has no target: with most files filtered out, the walk and the start are the work.",
	},
	{
		title:     "Bash cost: a command through shell.Run, with and without the sandbox",
		pkg:       "./tooldefs/shell/",
		bench:     "RunEchoInterleaved",
		benchtime: "100x",
		needs:     []string{"bash", "bwrap"},
		tools:     []tool{bash, bwrap},
		ratios: []ratio{
			{label: "shell.Run / a bare `bash -c` spawn (issue 15)", num: "BenchmarkRunEchoInterleaved", metric: "run/exec", computed: true, target: 1.3},
			{label: "shell.Run in the session's sandbox / shell.Run unsandboxed (issue 15)", num: "BenchmarkRunEchoInterleaved", metric: "sandboxed/run", computed: true, target: 1.5},
			{label: "shell.Run in a bwrap of its own / shell.Run unsandboxed", num: "BenchmarkRunEchoInterleaved", metric: "per-command/run", computed: true},
			{label: "a bare bwrap around `bash -c` / a bare `bash -c`", num: "BenchmarkRunEchoInterleaved", metric: "bwrap/exec", computed: true},
		},
		notes: "Each iteration runs `echo hi` five ways, in a rotating order so that load which drifts on this shared machine falls on all of them: a bare `bash -c` with combined output (exec); shell.Run, as Bash runs a command (run: output file, process group, cwd file); shell.Run in the session's kept-alive sandbox with the protected paths a session adds (sandboxed: one bwrap per session, each command forked inside it by a small server); shell.Run in a bwrap of its own (per-command); and a bare bwrap with the same mounts around `bash -c` (bwrap). ms/… are each way's median over the iterations of a run, the ratios the ratios of those medians; the table gives their medians over the runs. The per-command rows show what the kept-alive sandbox saves: new user, mount and network namespaces and the mounts, paid once per session instead of once per command. The separate benchmarks of tooldefs/shell (RunEcho, ExecBaseline, RunEchoSandboxed, RunEchoSandboxedPerCommand, BwrapBaseline) run each way's iterations one after another and are noisier.",
	},
	{
		title:     "Sandbox network: first byte of a 1 MB download through the egress proxy",
		pkg:       "./tooldefs/shell/",
		bench:     "DownloadInterleaved",
		benchtime: "60x",
		needs:     []string{"bash", "bwrap", "curl"},
		tools:     []tool{bash, bwrap, curl},
		ratios: []ratio{
			{label: "first byte, sandboxed curl through the proxy / unsandboxed curl (issue 35)", num: "BenchmarkDownloadInterleaved", metric: "proxied/direct", computed: true, target: 1.3},
			{label: "curl's own connect-to-first-byte, through the proxy / direct", num: "BenchmarkDownloadInterleaved", metric: "curl-ttfb/proxied-direct", computed: true},
		},
		notes: "A loopback HTTP server serves 1 MiB. Each iteration downloads it twice with `curl -o /dev/null`, through shell.Run as Bash runs a command, in a rotating order: unsandboxed, straight to the server (direct), and in the session's kept-alive sandbox whose settings allow the server's address (sandbox.network.allowedDomains), curl going through the HTTP proxy variables to the sandbox server's loopback bridge, a Unix socket bound into the sandbox and agentcore's filtering proxy (proxied). First byte is the time from the call of shell.Run to curl's first byte of the body: the call's wall time less curl's own time after its first byte. ms/… are each way's median over the iterations of a run, the ratios the ratios of those medians; the table gives their medians over the runs. The curl-ttfb row is the proxy hop alone, as curl times it from its own start (connect, request, first byte): it has no target: the hop is small beside the start of the command around it.",
	},
	{
		title: "Permission check: one Bash call through the engine",
		pkg:   "./runtime/permission/",
		bench: "CheckShell|CheckPath",
		ratios: []ratio{
			{label: "a compound Bash line (parse, analysis, paths, rules), CPU ns per check (issue 34: under 50 µs)", num: "BenchmarkCheckShellCompound", metric: "cpu-ns/check", target: 50000},
			{label: "a compound Bash line, wall ns per check", num: "BenchmarkCheckShellCompound"},
			{label: "a simple Bash command (`git status`), CPU ns per check", num: "BenchmarkCheckShellSimple", metric: "cpu-ns/check"},
			{label: "an Edit of a path (symlinks, confinement, path rules), CPU ns per check", num: "BenchmarkCheckPath", metric: "cpu-ns/check"},
		},
		notes: "permission.Engine.Check of a call bound from its raw input, as the pipeline runs it: the line is parsed in the check (a session binds the parse once per call and hands it over, which saves that part). Rules: allow git status/git diff/go test/ls, Read and Edit of src/**; deny rm, git push and Read of ./secrets/**. The compound line is `git status --short && go test ./... 2>&1 | tee out.txt; ls -la src || echo \"failed: $?\"`: five commands, a write, paths to resolve. The target is absolute and set on CPU time (user and system of the process, the garbage collector's included, per check): a check never waits, so its cost is the CPU it burns, while its wall time on this shared machine also counts the queue for a CPU (the wall row shows it).",
	},
	{
		title:     "Start-up: process start to first model request",
		pkg:       "./benchmarks/startup/",
		bench:     "Startup",
		benchtime: "40x",
		ratios: []ratio{
			{label: "exec of `run -p hi` → first POST /v1/messages / exec → exit of `version` (medians, interleaved)", num: "BenchmarkStartup", metric: "x-version", target: 1.2},
			{label: "exec of `run -p hi` → first POST /v1/messages, ms (absolute, median; issue 36: ≤ 10 on an idle machine)", num: "BenchmarkStartup", metric: "ms/first-request", target: 10},
		},
		notes: "One binary (`CGO_ENABLED=0 go build ./cmd/agentcore`, external variant, static as `make build` and `make release` build it). Each iteration runs `agentcore version` and `agentcore run -p hi --model anthropic:test-model` once each, alternating which goes first; `run` talks to a fake Messages API on loopback (ANTHROPIC_BASE_URL) with an empty HOME, config directory and working directory, and is timed from exec to the fake's receipt of the request. x-version is the ratio of the two medians of a run; the table gives its median over the runs.",
	},
	{
		title: "Binary size: the external variant, as `make build` and as `make release` build it",
		pkg:   "./benchmarks/startup/",
		bench: "BinarySize",
		count: 1,
		ratios: []ratio{
			{label: "external binary, unstripped (`make build`: `CGO_ENABLED=0 go build`), MB", num: "BenchmarkBinarySize", metric: "MB/unstripped", target: 50},
			{label: "external binary, release (`make release`: `CGO_ENABLED=0 go build -trimpath -ldflags='-s -w'`), MB", num: "BenchmarkBinarySize", metric: "MB/release", target: 35},
		},
		notes: "Sizes in MB of 10^6 bytes of one linux/amd64 build each (the platform the benchmark runs on); the targets are issue 36's, absolute. `go tool nm -size -sort size` on the unstripped binary shows what is big.",
	},
	{
		title:     "Exit: a -p run with three stdio MCP servers, last answer → process exit",
		pkg:       "./benchmarks/startup/",
		bench:     "MCPExit",
		benchtime: "10x",
		needs:     []string{"node"},
		tools:     []tool{node},
		ratios: []ratio{
			{label: "last answer → exit with the three reference servers minus the same without servers, ms (medians, interleaved)", num: "BenchmarkMCPExit", metric: "ms-more/exit", target: 150},
			{label: "last answer → exit with the servers, ms (median)", num: "BenchmarkMCPExit", metric: "ms/exit-mcp"},
			{label: "last answer → exit without servers, ms (median)", num: "BenchmarkMCPExit", metric: "ms/exit-bare"},
		},
		notes: "One binary (external variant). Each iteration runs `agentcore run -p go --model anthropic:test-model` twice against a fake Messages API on loopback, once with `--mcp-config` naming the npm reference servers everything, filesystem and memory over stdio (`--strict-mcp-config`) and once without, alternating which goes first; each is timed from the moment the fake flushed the last event of its answer to the process's exit. mcp-server-everything does not exit when its stdin closes, so this row holds the shutdown's grace before SIGTERM. The servers are found in AGENTCORE_NPM_DIR (see the Agent SDK section). ms-more/exit is the difference of the two medians of a run; the table gives its median over the runs.",
	},
	{
		title:     "Stream end → next request with Nagle on at the server",
		pkg:       "./benchmarks/startup/",
		bench:     "NagleGap",
		benchtime: "10x",
		needs:     []string{"bash"},
		tools:     []tool{bash},
		ratios: []ratio{
			{label: "end of the tool_use answer → request with the Bash result, Nagle on / TCP_NODELAY (medians, interleaved)", num: "BenchmarkNagleGap", metric: "x-nodelay", target: 1.1},
			{label: "the gap with Nagle on, ms (median)", num: "BenchmarkNagleGap", metric: "ms/gap-nagle"},
			{label: "the gap with TCP_NODELAY, ms (median)", num: "BenchmarkNagleGap", metric: "ms/gap-nodelay"},
		},
		notes: "One binary (external variant). Each iteration runs `agentcore run -p go --allowedTools Bash` against two fake Messages APIs on loopback, alternating which goes first: one whose accepted connections have TCP_NODELAY off (Nagle on), one with it on (Go's default). Each fake answers first with one Bash call of `true`, then with text, writing and flushing every SSE event on its own; the time runs from its flush of the first answer's message_stop to the arrival of the request carrying the tool's result. With Nagle on, the chunked body's terminator, written after the last event, waits for the ACK of that event; a provider that returns at message_stop does not wait for it. x-nodelay is the ratio of the two medians of a run; the table gives its median over the runs.",
	},
	{
		title:     "Agent SDK: query() to the first model request, agentcore vs Claude Code",
		pkg:       "./benchmarks/sdkstart/",
		bench:     "SDKFirstRequest",
		benchtime: "5x",
		needs:     []string{"node", sdkstart.ClaudeCode()},
		tools:     []tool{node, agentSDK, claudeCode},
		ratios: []ratio{
			{label: "query() → first POST /v1/messages, agentcore / {Claude Code} (medians, interleaved)", num: "BenchmarkSDKFirstRequest", metric: "x-claude-code", target: 0.25},
		},
		notes: "One node process (benchmarks/sdkstart/first_request.mjs) runs the real Agent SDK (the Tools line gives its version) with pathToClaudeCodeExecutable set to agentcore (external variant, built by the benchmark) and to the Claude Code the SDK bundles (its platform package's native binary; AGENTCORE_CLAUDE_CODE overrides it), alternating which goes first, against one fake Messages API on loopback (ANTHROPIC_BASE_URL). Each run: an empty HOME and working directory, `query({prompt: 'hi', options: {model: 'claude-sonnet-4-5', ...}})` read to its result; the time runs from the query() call to the fake's receipt of the first POST /v1/messages. ms/… are each CLI's median of the runs of one benchmark run; x-claude-code is their ratio, and the table gives the median over the runs. The SDK is found in AGENTCORE_NPM_DIR (default ~/.cache/agentcore-npm; install it with `npm install --prefix DIR` and .ci/npm/package.json).",
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
		notes: "In process: a scripted model answers with one Explore Agent call; the time runs from the call's start (after decode, validation and permissions) to the sub-agent provider's first Stream — resolving the type, opening the sub-agent's session over the full generated tool set (filtered pool, own ToolContext), its system prompt and its loop. Median of the iterations, each in a fresh session. The target is absolute.",
	},
	{
		title: "ToolSearch: recall over the built-ins and three MCP servers, and search time",
		pkg:   "./runtime/pool/",
		bench: "Search",
		ratios: []ratio{
			{label: "blind set A (blindA.tsv: github, puppeteer, slack) queries whose tool BM25 does not rank first (issue 31's bar: ≤ 15 of 30)", num: "BenchmarkSearchRecall/bm25", metric: "blindA-miss@1", target: 15},
			{label: "blind set A queries whose tool is not in BM25's first five (issue 31's bar: ≤ 6 of 30)", num: "BenchmarkSearchRecall/bm25", metric: "blindA-miss@5", target: 6},
			{label: "blind set A recall@1, BM25", num: "BenchmarkSearchRecall/bm25", metric: "blindA-r@1"},
			{label: "blind set A recall@5, BM25", num: "BenchmarkSearchRecall/bm25", metric: "blindA-r@5"},
			{label: "blind set A recall@1, keyword scorer before", num: "BenchmarkSearchRecall/keyword", metric: "blindA-r@1"},
			{label: "blind set B (blindB.tsv: playwright, kubernetes, notion) queries whose tool BM25 does not rank first (≤ 15 of 30)", num: "BenchmarkSearchRecall/bm25", metric: "blindB-miss@1", target: 15},
			{label: "blind set B queries whose tool is not in BM25's first five (≤ 6 of 30)", num: "BenchmarkSearchRecall/bm25", metric: "blindB-miss@5", target: 6},
			{label: "blind set B recall@1, BM25", num: "BenchmarkSearchRecall/bm25", metric: "blindB-r@1"},
			{label: "blind set B recall@5, BM25", num: "BenchmarkSearchRecall/bm25", metric: "blindB-r@5"},
			{label: "blind set B recall@1, keyword scorer before", num: "BenchmarkSearchRecall/keyword", metric: "blindB-r@1"},
			{label: "issue 13's blind set (heldout3.tsv) recall@1, BM25", num: "BenchmarkSearchRecall/bm25", metric: "blind3-r@1"},
			{label: "issue 13's blind set recall@5, BM25", num: "BenchmarkSearchRecall/bm25", metric: "blind3-r@5"},
			{label: "issue 13's second blind set (heldout4.tsv) recall@1, BM25", num: "BenchmarkSearchRecall/bm25", metric: "blind4-r@1"},
			{label: "issue 13's second blind set recall@5, BM25", num: "BenchmarkSearchRecall/bm25", metric: "blind4-r@5"},
			{label: "second held-out set (heldout2.tsv) recall@1, BM25", num: "BenchmarkSearchRecall/bm25", metric: "heldout2-r@1"},
			{label: "second held-out set recall@5, BM25", num: "BenchmarkSearchRecall/bm25", metric: "heldout2-r@5"},
			{label: "second held-out set recall@1, keyword scorer before", num: "BenchmarkSearchRecall/keyword", metric: "heldout2-r@1"},
			{label: "own2.tsv recall@1, BM25", num: "BenchmarkSearchRecall/bm25", metric: "own2-r@1"},
			{label: "own.tsv recall@1, BM25", num: "BenchmarkSearchRecall/bm25", metric: "own-r@1"},
			{label: "own3.tsv recall@1, BM25", num: "BenchmarkSearchRecall/bm25", metric: "own3-r@1"},
			{label: "own4.tsv recall@1, BM25", num: "BenchmarkSearchRecall/bm25", metric: "own4-r@1"},
			{label: "own5.tsv recall@1, BM25", num: "BenchmarkSearchRecall/bm25", metric: "own5-r@1"},
			{label: "first held-out set (heldout.tsv) recall@1, BM25", num: "BenchmarkSearchRecall/bm25", metric: "heldout-r@1"},
			{label: "first held-out set recall@1, keyword scorer before", num: "BenchmarkSearchRecall/keyword", metric: "heldout-r@1"},
			{label: "dev recall@1, BM25", num: "BenchmarkSearchRecall/bm25", metric: "dev-r@1"},
			{label: "dev recall@1, keyword scorer before", num: "BenchmarkSearchRecall/keyword", metric: "dev-r@1"},
			{label: "probes.tsv (the tuning probes) recall@1, BM25", num: "BenchmarkSearchRecall/bm25", metric: "probes-r@1"},
			{label: "one plain-language search over the real deferred tools / over the synthetic pool", num: "BenchmarkSearchEvalPool", den: "BenchmarkSearchKeywords"},
		},
		notes: "Pool: the built-ins (testdata/builtins.json, from benchmarks/tooldump) and the tools of the npm reference servers filesystem, everything and memory (testdata/mcp), all but ToolSearch deferred. Queries: testdata/queries, one expected tool each; the figures are counts of queries, the same in every run. Blind sets A and B (issue 31) were written by a helper who had not read the ranker, over six npm MCP servers it had never seen (MCP tools only, no built-ins), and scored once after the ranker was committed; heldout3 and heldout4 (blind3-*, blind4-*) were written blind for the lexicon ranker, whose rules were shaped after the reference servers, and this ranker's author never opened them. No blind set's misses are printed; every other set has been looked at while tuning (`AGENTCORE_TOOLSEARCH_MISSES=dev,heldout2,… go test -run TestPrintSearchMisses ./runtime/pool/` prints their misses). The history of the ranker's rounds is in the git log of runtime/pool. Index: built once per pool, on its first keyword search.",
	},
	{
		title:     "Durable sessions on Temporal: a turn vs a local session, and sessions per second",
		dir:       "runtime/durable/temporal",
		pkg:       "./e2e/",
		bench:     "Turn|TwoWorkers",
		benchtime: "10x",
		count:     3,
		ratios: []ratio{
			{label: "durable turn / the same turn in a local session (interleaved)", num: "BenchmarkTurn", metric: "x-local"},
			{label: "durable turn, ms (absolute)", num: "BenchmarkTurn", metric: "ms/durable-turn"},
			{label: "local turn, ms (absolute)", num: "BenchmarkTurn", metric: "ms/local-turn"},
			{label: "a durable turn's overhead over the local one, ms (absolute)", num: "BenchmarkTurn", metric: "ms-overhead/turn"},
			{label: "sessions per second, two workers", num: "BenchmarkTwoWorkers", metric: "sessions/s"},
		},
		notes: "The durable module (runtime/durable/temporal, its own go.mod; `make bench-durable` rewrites this section alone). One in-process Temporal server (go.temporal.io/server/temporaltest: SQLite in memory, loopback) and in-process workers on it. A turn: a replay model's one request calling Read three times on 50-line files, then its closing answer (two model requests in all), in bypass mode; the durable turn is a whole durable session (start the workflow, open the workspace, two model activities, one tool-batch activity on the workspace queue, close) waited for by the client; the local turn opens a session.Session in the same process and runs the same script; they alternate which goes first, and x-local is the ratio of their sums in a run. Sessions per second: 20 sessions started at once over two workers (each one model request calling Bash `echo hi > hi.txt`, then the answer), all waited for, per iteration. The issue sets no target: the figures are tracked.",
	},
}
