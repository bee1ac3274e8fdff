package classify

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// FinishOnInterrupt reports whether a user interrupt should let cmd run to
// its end rather than stop it: true when some simple command of cmd runs a
// test suite or a build (go test, npm test, pytest, cargo test, make …),
// whose result is still worth having; false for everything else (an
// install, a download, a server), which the interrupt stops at once. A
// command that does not parse is let finish, the fail-closed answer of
// the seed's interruptBehavior.
func FinishOnInterrupt(cmd string) bool {
	return FinishOnInterruptParsed(shellsyntax.ParseCommand(cmd))
}

// FinishOnInterruptParsed is FinishOnInterrupt of a command parsed
// already.
func FinishOnInterruptParsed(c *shellsyntax.Command) bool {
	if c.Err != nil {
		return true
	}
	for _, sc := range c.Cmds {
		if runsSuiteOrBuild(unwrapArgs(sc.Args)) {
			return true
		}
	}
	return false
}

// unwrapArgs drops the wrappers that run another command unchanged
// (shellsyntax.WrappedCommand: timeout, nice, time, sudo …) and env with
// its options and assignments. watch is kept: it reruns its command
// forever, so letting it finish would never end.
func unwrapArgs(args []shellsyntax.Word) []string {
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = a.Value
	}
	for len(words) > 0 {
		switch filepath.Base(words[0]) {
		case "watch":
			return words
		case "env":
			words = dropOptions(words[1:])
			for len(words) > 0 && strings.Contains(words[0], "=") {
				words = words[1:]
			}
			continue
		}
		i, ok := shellsyntax.WrappedCommand(words)
		if !ok {
			return words
		}
		words = words[i:]
	}
	return words
}

func dropOptions(words []string) []string {
	for len(words) > 0 && strings.HasPrefix(words[0], "-") {
		words = words[1:]
	}
	return words
}

// suiteSubcommands are the subcommands that run tests or builds, per
// program whose first argument is a subcommand.
var suiteSubcommands = map[string][]string{
	"go":      {"test", "build", "vet", "install"},
	"cargo":   {"test", "build", "check", "nextest", "bench", "clippy"},
	"npm":     {"test", "t", "ci-test", "build"},
	"pnpm":    {"test", "t", "build"},
	"yarn":    {"test", "build"},
	"bun":     {"test"},
	"deno":    {"test"},
	"mvn":     {"test", "verify", "package", "install"},
	"gradle":  {"test", "build", "check"},
	"gradlew": {"test", "build", "check"},
	"dotnet":  {"test", "build"},
	"mix":     {"test", "compile"},
	"swift":   {"test", "build"},
	"bazel":   {"test", "build"},
}

// suitePrograms run a test suite or a build whatever their arguments.
var suitePrograms = []string{
	"pytest", "py.test", "tox", "nox", "jest", "vitest", "mocha", "rspec", "phpunit",
	"ctest", "ginkgo", "gotestsum", "make", "gmake", "ninja", "cmake", "tsc", "rake",
}

// runScripts are the script names that npm-style "run" executes as
// tests or builds.
var runScripts = []string{"test", "tests", "build", "check", "lint", "typecheck", "ci"}

func runsSuiteOrBuild(words []string) bool {
	if len(words) == 0 {
		return false
	}
	prog := filepath.Base(words[0])
	if slices.Contains(suitePrograms, prog) {
		return true
	}
	args := words[1:]
	switch prog {
	case "python", "python3":
		// python -m pytest / unittest
		for i := 0; i+1 < len(args); i++ {
			if args[i] == "-m" {
				return slices.Contains([]string{"pytest", "unittest", "tox", "nox"}, args[i+1])
			}
		}
		return false
	case "bundle", "npx", "pnpx", "bunx", "uv", "poetry", "pipenv":
		// bundle exec rspec, npx jest, uv run pytest, poetry run pytest
		rest := dropOptions(args)
		if len(rest) > 0 && (rest[0] == "exec" || rest[0] == "run") && prog != "npx" {
			rest = dropOptions(rest[1:])
		}
		return runsSuiteOrBuild(rest)
	}
	subs, ok := suiteSubcommands[prog]
	if !ok {
		return false
	}
	rest := dropOptions(args)
	if len(rest) == 0 {
		return false
	}
	if slices.Contains(subs, rest[0]) {
		return true
	}
	// npm run test, pnpm run test:unit
	if !slices.Contains([]string{"npm", "pnpm", "yarn", "bun"}, prog) || (rest[0] != "run" && rest[0] != "run-script") {
		return false
	}
	rest = dropOptions(rest[1:])
	if len(rest) == 0 {
		return false
	}
	script, _, _ := strings.Cut(rest[0], ":")
	return slices.Contains(runScripts, script)
}
