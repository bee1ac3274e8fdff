// Package startup holds the start-up benchmark (startup_test.go): the time
// from exec of `agentcore run -p hi --model anthropic:test-model` to its
// first POST /v1/messages at a fake Messages API on loopback, next to the
// same binary's `agentcore version` from exec to exit, the two runs
// interleaved so machine noise hits both alike. Run
//
//	go test -run '^$' -bench Startup -benchtime 40x -count 5 ./benchmarks/startup/
//
// BenchmarkStartup reports the medians (ns/first-request, ns/version) and
// their ratio (x-version); `make bench` holds the ratio to its target.
package startup
