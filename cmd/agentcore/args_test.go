//go:build !internal && !ant

package main_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("rule flags that take several values, as Claude Code's do", func() {
	It("say so when they took the file argument, and leave it alone after --", func() {
		dir := GinkgoT().TempDir()
		calls := `[{"id":"a","name":"Bash","input":{"command":"echo hi","description":"Say hi"}}]`
		Expect(os.WriteFile(filepath.Join(dir, "calls.json"), []byte(calls), 0o644)).To(Succeed())
		inv := invocation{dir: dir, home: dir, configDir: dir}

		_, stderr, code := invoke(inv, "exec", "--allowedTools", "Bash(echo:*)", "calls.json")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring(`permission rule "calls.json"`))
		Expect(stderr).To(ContainSubstring(`--allowedTools takes every value after it up to the next flag, as Claude Code's does, so it took the file "calls.json": put the file before the flag, or after --`))
		Expect(stderr).NotTo(ContainSubstring("no input"))

		stdout, stderr, code := invoke(inv, "exec", "--allowedTools", "Bash(echo:*)", "--", "calls.json")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring("hi"))
	})
})
