package main_test

import (
	"go/build/constraint"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// allowedTags are the only build tags agentcore's sources may use.
var allowedTags = map[string]bool{"external": true, "internal": true, "ant": true}

var _ = Describe("build tags", Label("gating"), func() {
	It("uses only external, internal and ant in every Go file outside testdata", func() {
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
					if !allowedTags[tag] {
						rel, _ := filepath.Rel(root, path)
						bad = append(bad, rel+": tag "+tag)
					}
					return false
				})
			}
			return nil
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(bad).To(BeEmpty(), "only the tags external, internal and ant may gate code")
	})
})
