package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/pprof"
	"strings"
	"time"
)

func main() {
	sessions := flag.Int("sessions", 200, "sessions at once")
	turns := flag.Int("turns", 20, "tool turns per session")
	timeout := flag.Duration("timeout", 5*time.Minute, "bound of the whole run")
	out := flag.String("out", "", "a file whose load markers get the figures (RELIABILITY.md)")
	profile := flag.String("profile", "", "write block and mutex profiles of the run to this directory")
	noGC := flag.Bool("nogc", false, "turn the garbage collector off during the run, so that no finalizer hides a leaked descriptor (the heap only grows: not for the memory figures)")
	flag.Parse()
	if *profile != "" {
		goruntime.SetBlockProfileRate(int(time.Millisecond))
		goruntime.SetMutexProfileFraction(1)
		defer writeProfiles(*profile)
	}

	root, err := os.MkdirTemp("", "agentcore-load-*")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(root)
	rep, err := Run(Config{Sessions: *sessions, Turns: *turns, Timeout: *timeout, Root: root, NoGC: *noGC})
	if err != nil {
		fail(err)
	}
	figures := rep.Markdown()
	fmt.Print(figures)
	problems := rep.Problems()
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "load:", p)
	}
	if *out != "" && len(problems) == 0 {
		doc, err := os.ReadFile(*out)
		if err != nil {
			fail(err)
		}
		stamp := fmt.Sprintf("Measured %s by `go run ./benchmarks/load -sessions %d -turns %d -out %s`.\n\n",
			time.Now().UTC().Format("2006-01-02 15:04 MST"), *sessions, *turns, *out)
		next, err := splice(string(doc), stamp+figures)
		if err != nil {
			fail(err)
		}
		if err := os.WriteFile(*out, []byte(next), 0o644); err != nil {
			fail(err)
		}
		fmt.Fprintln(os.Stderr, "wrote the figures into", *out)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
}

func writeProfiles(dir string) {
	for _, name := range []string{"block", "mutex", "goroutine"} {
		f, err := os.Create(filepath.Join(dir, name+".pprof"))
		if err != nil {
			fail(err)
		}
		_ = pprof.Lookup(name).WriteTo(f, 0)
		f.Close()
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, strings.TrimSpace(err.Error()))
	os.Exit(1)
}
