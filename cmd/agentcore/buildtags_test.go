package main_test

import (
	"go/build/constraint"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/gen"
)

// platformTags choose an operating system's or architecture's
// implementation (procgroup_windows.go, server_linux.go), not a feature:
// they gate no tool, and every variant builds for every platform.
var platformTags = map[string]bool{
	"unix": true, "linux": true, "darwin": true, "windows": true, "freebsd": true, "openbsd": true, "netbsd": true,
	"dragonfly": true, "solaris": true, "illumos": true, "aix": true, "plan9": true, "js": true, "wasip1": true,
	"amd64": true, "arm64": true, "386": true, "arm": true,
}

var _ = Describe("build tags", Label("gating"), func() {
	It("uses only the tags "+gen.GatingFile+" allows in every Go file outside testdata", func() {
		for _, v := range gating.Variants {
			for _, tag := range v.Tags {
				Expect(gating.AllowedTags).To(ContainElement(tag), "the %s variant's tag", v.Name)
			}
		}
		var bad []string
		root := repoRoot()
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				switch d.Name() {
				case "testdata", ".git", "bin", "node_modules":
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, line := range strings.Split(string(data), "\n") {
				if strings.HasPrefix(line, "package ") {
					break
				}
				if !constraint.IsGoBuild(line) {
					continue
				}
				expr, err := constraint.Parse(line)
				if err != nil {
					bad = append(bad, path+": "+err.Error())
					continue
				}
				expr.Eval(func(tag string) bool {
					if !slices.Contains(gating.AllowedTags, tag) && !platformTags[tag] {
						rel, _ := filepath.Rel(root, path)
						bad = append(bad, rel+": tag "+tag)
					}
					return false
				})
			}
			return nil
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(bad).To(BeEmpty(), "only the tags %s may gate code", strings.Join(gating.AllowedTags, ", "))
	})
})
