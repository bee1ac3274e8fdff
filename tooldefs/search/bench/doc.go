// Package bench holds the search engines' benchmarks against ripgrep and
// fd (bench_test.go): native Grep and Glob on the Go source tree, warm
// cache, next to spawning rg/fd on the same tree in the same run, and
// in-process search of this repository next to spawning rg. Run
//
//	go test -run '^$' -bench . -count 5 ./tooldefs/search/bench/
//
// Benchmarks whose tool is missing skip with a message.
package bench
