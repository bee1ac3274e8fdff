//go:build !internal && !ant

// The variant specs build all three binaries themselves, so they run once,
// in the default (external) pass of `make test`.

package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"

	"github.com/agentcore/agentcore/gen"
)

// binaries maps each variant to its built agentcore binary.
var binaries map[string]string

var _ = SynchronizedBeforeSuite(func() []byte {
	paths := map[string]string{}
	for _, v := range gating.Variants {
		p, err := gexec.Build(module+"/cmd/agentcore", "-tags", tagsOf(v))
		Expect(err).NotTo(HaveOccurred(), "build the %s variant", v.Name)
		paths[v.Name] = p
	}
	data, err := json.Marshal(paths)
	Expect(err).NotTo(HaveOccurred())
	return data
}, func(data []byte) {
	Expect(json.Unmarshal(data, &binaries)).To(Succeed())
})

// Every process removes what it built (a spec's gexec.Build on a process
// other than the first would stay in $TMPDIR otherwise); the first one
// last, once all are done with the variants it built for them.
var _ = SynchronizedAfterSuite(func() {
	if GinkgoParallelProcess() != 1 {
		gexec.CleanupBuildArtifacts()
	}
}, func() { gexec.CleanupBuildArtifacts() })

// agentcore runs the variant's binary and returns its stdout.
func agentcore(variant string, args ...string) []byte {
	cmd := exec.Command(binaries[variant], args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Dir = repoRoot()
	out, err := cmd.Output()
	Expect(err).NotTo(HaveOccurred(), "agentcore-%s %v: %s", variant, args, stderr.String())
	return out
}

type listedTool struct {
	Name string `json:"name"`
}

// toolNames lists the variant's tools, those AGENTCORE_ENABLE_TASKS
// switches on and those it switches off (TodoWrite or the Task tools:
// one set at a time, both compiled in).
func toolNames(variant string, env ...string) []string {
	if len(env) == 0 {
		names := toolNames(variant, "AGENTCORE_ENABLE_TASKS=")
		for _, n := range toolNames(variant, "AGENTCORE_ENABLE_TASKS=1") {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		return names
	}
	cmd := exec.Command(binaries[variant], "tools", "--json")
	cmd.Dir, cmd.Env = repoRoot(), append(os.Environ(), env...)
	out, err := cmd.Output()
	Expect(err).NotTo(HaveOccurred(), "agentcore-%s tools --json", variant)
	var tools []listedTool
	Expect(json.Unmarshal(out, &tools)).To(Succeed())
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return names
}

var _ = Describe("build variants", Label("gating"), func() {
	It("names its variant and tool count in version --json", func() {
		for _, gv := range gating.Variants {
			v := gv.Name
			var info struct {
				Variant string `json:"variant"`
				Tools   int    `json:"tools"`
			}
			Expect(json.Unmarshal(agentcore(v, "version", "--json"), &info)).To(Succeed())
			Expect(info.Variant).To(Equal(v))
			Expect(info.Tools).To(BeNumerically(">", 0))
		}
	})

	It("keeps the internal tools out of external and in internal and ant", func() {
		for _, name := range []string{"Config", "CtxInspect", "REPL"} {
			Expect(toolNames("external")).NotTo(ContainElement(name))
			Expect(toolNames("internal")).To(ContainElement(name))
			Expect(toolNames("ant")).To(ContainElement(name))
		}
	})

	It("has no Glob or Grep in ant", func() {
		Expect(toolNames("external")).To(ContainElement("Glob"))
		Expect(toolNames("ant")).NotTo(ContainElement("Glob"))
		Expect(toolNames("ant")).NotTo(ContainElement("Grep"))
	})

	It("answers as grep in ant before the terminal renderer's initialisers run", func() {
		// Go runs a ready package's initialiser before those of packages
		// whose paths sort after it, so multicall's dispatch precedes
		// these only while all its imports are initialised early
		// (multicall's package doc says which are not).
		dir := GinkgoT().TempDir()
		grep := filepath.Join(dir, "grep")
		Expect(os.Symlink(binaries["ant"], grep)).To(Succeed())
		// A regular expression: a plain string is answered earlier still
		// (the next spec).
		cmd := exec.Command(grep, "-qE", "x+", os.DevNull)
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		Expect(errors.As(err, &exit)).To(BeTrue(), "grep -qE x+ /dev/null: %v", err)
		Expect(exit.ExitCode()).To(Equal(1), "no line selected: %s", stderr.String())
		var ran []string
		for _, line := range strings.Split(stderr.String(), "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == "init" {
				ran = append(ran, f[1])
			}
		}
		Expect(ran).To(ContainElement(module+"/tooldefs/search/gnu"), "the engine's own initialiser ran")
		for _, heavy := range []string{
			"github.com/alecthomas/chroma/v2/lexers", "github.com/alecthomas/chroma/v2/styles",
			"github.com/microcosm-cc/bluemonday/css", "github.com/yuin/goldmark/extension",
			module + "/cmd/agentcore/tui",
		} {
			Expect(ran).NotTo(ContainElement(heavy), "grep ran %s's initialiser before its dispatch", heavy)
		}
	})

	It("answers as grep of a plain string in ant before reflect's, regexp's and the crypto initialisers run", func() {
		// Package early answers a grep whose patterns need no regular
		// expression from the same early initialiser as find.
		dir := GinkgoT().TempDir()
		grep := filepath.Join(dir, "grep")
		Expect(os.Symlink(binaries["ant"], grep)).To(Succeed())
		file := filepath.Join(dir, "in.txt")
		Expect(os.WriteFile(file, []byte("a.b\nab\nxa.by\n"), 0o644)).To(Succeed())
		cmd := exec.Command(grep, "-nF", "a.b", file)
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		Expect(cmd.Run()).To(Succeed(), "grep -nF a.b: %s", stderr.String())
		Expect(stdout.String()).To(Equal("1:a.b\n3:xa.by\n"))
		var ran []string
		for _, line := range strings.Split(stderr.String(), "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == "init" {
				ran = append(ran, f[1])
			}
		}
		Expect(ran).To(ContainElement("os"))
		for _, late := range []string{
			"reflect", "path/filepath", "regexp", "encoding/gob", "crypto/internal/fips140", "go/token",
			"github.com/alecthomas/chroma/v2/lexers",
		} {
			Expect(ran).NotTo(ContainElement(late), "grep -F ran %s's initialiser before its dispatch", late)
		}
	})

	It("answers as find in ant before reflect's, path/filepath's and the crypto initialisers run", func() {
		// find's package and package early import only what os needs and
		// bytes (early's package doc says why): one import of fmt,
		// strings or path/filepath puts dozens of initialisers first.
		dir := GinkgoT().TempDir()
		find := filepath.Join(dir, "find")
		Expect(os.Symlink(binaries["ant"], find)).To(Succeed())
		cmd := exec.Command(find, os.DevNull, "-maxdepth", "0")
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		Expect(cmd.Run()).To(Succeed(), "find /dev/null: %s", stderr.String())
		Expect(stdout.String()).To(Equal(os.DevNull + "\n"))
		var ran []string
		for _, line := range strings.Split(stderr.String(), "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == "init" {
				ran = append(ran, f[1])
			}
		}
		Expect(ran).To(ContainElement("os"))
		for _, late := range []string{
			"reflect", "path/filepath", "regexp", "encoding/gob", "crypto/internal/fips140", "go/token",
			module + "/tooldefs/search/gnu/regex", "github.com/alecthomas/chroma/v2/lexers",
		} {
			Expect(ran).NotTo(ContainElement(late), "find ran %s's initialiser before its dispatch", late)
		}
	})

	It("refuses to compile external together with internal or ant, saying why", func() {
		for _, tags := range []string{"external,internal", "external,ant"} {
			cmd := exec.Command("go", "build", "-tags", tags, "-o", os.DevNull, "./cmd/agentcore")
			cmd.Dir = repoRoot()
			out, err := cmd.CombinedOutput()
			Expect(err).To(HaveOccurred(), "tags %s must not build", tags)
			Expect(string(out)).To(ContainSubstring("external_tag_cannot_be_combined_with_internal_or_ant"))
		}
	})
})

// The absence proof is driven by generated/gating.json (see gating_test.go):
// for every variant, every package only its left-out tools reach, and for
// every tool it leaves out, the tool's strings and symbols.

// probes caches, per variant, what the proofs look into; each Ginkgo
// process fills it once.
var probes = struct {
	sync.Mutex
	deps, nm map[string]string
}{deps: map[string]string{}, nm: map[string]string{}}

// deps returns `go list -deps` of cmd/agentcore built as the variant.
func deps(v gen.GatingVariant) []string {
	probes.Lock()
	defer probes.Unlock()
	if _, ok := probes.deps[v.Name]; !ok {
		cmd := exec.Command("go", "list", "-deps", "-tags", tagsOf(v), "./cmd/agentcore")
		cmd.Dir = repoRoot()
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred(), "go list -deps -tags %q", tagsOf(v))
		probes.deps[v.Name] = string(out)
	}
	return strings.Fields(probes.deps[v.Name])
}

// symbols returns `go tool nm` of the variant's binary.
func symbols(variant string) string {
	probes.Lock()
	defer probes.Unlock()
	if _, ok := probes.nm[variant]; !ok {
		out, err := exec.Command("go", "tool", "nm", binaries[variant]).Output()
		Expect(err).NotTo(HaveOccurred())
		probes.nm[variant] = string(out)
	}
	return probes.nm[variant]
}

// symbolPattern matches a symbol of one of names declared in pkg: the
// name itself, its methods (pkg.(*T).M), its type descriptors and its use
// as a type argument.
func symbolPattern(pkg string, names []string) *regexp.Regexp {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return regexp.MustCompile(`(?m)\S*` + regexp.QuoteMeta(pkg) + `\.\(?\*?(` + strings.Join(quoted, "|") + `)([.\[\]),].*)?$`)
}

// toolSymbols returns up to max symbols of t found in nm output.
func toolSymbols(nm string, t gen.GatingTool, max int) []string {
	var out []string
	if len(t.Symbols.Tooldefs) > 0 {
		out = append(out, symbolPattern(gating.Package, t.Symbols.Tooldefs).FindAllString(nm, max)...)
	}
	if len(t.Symbols.Generated) > 0 {
		out = append(out, symbolPattern(generatedPkg, t.Symbols.Generated).FindAllString(nm, max)...)
	}
	return out
}

// schemaOf reads the tool's embedded schema file, or nil when gating.json
// names none.
func schemaOf(t gen.GatingTool) []byte {
	if t.Schema == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(generatedDir, filepath.FromSlash(t.Schema)))
	Expect(err).NotTo(HaveOccurred(), "read the schema of %s", t.Name)
	return b
}

var _ = Describe("proof of absence", Label("gating"), func() {
	It("has something to prove: some variant leaves a tool out", func() {
		absent := 0
		for _, v := range gating.Variants {
			absent += len(v.Absent)
		}
		Expect(absent).To(BeNumerically(">", 0), "%s lists no gated tool", gen.GatingFile)
	})

	It("bans only packages that exist and that the variants having their tool pull in", func() {
		var stale []string
		for _, v := range gating.Variants {
			for _, b := range v.Banned {
				if rel, ok := strings.CutPrefix(b.Path, module+"/"); ok {
					if _, err := os.Stat(filepath.Join(repoRoot(), filepath.FromSlash(rel))); err != nil {
						stale = append(stale, fmt.Sprintf("%s (banned from %s: %s) does not exist any more", b.Path, v.Name, b.Reason))
						continue
					}
				}
				if len(b.In) == 0 {
					stale = append(stale, fmt.Sprintf("%s (banned from %s: %s) is in no variant", b.Path, v.Name, b.Reason))
				}
				for _, w := range gating.Variants {
					if slices.Contains(b.In, w.Name) && !slices.Contains(deps(w), b.Path) {
						stale = append(stale, fmt.Sprintf("%s (banned from %s: %s) is not a dependency of the %s binary either", b.Path, v.Name, b.Reason, w.Name))
					}
				}
			}
		}
		Expect(stale).To(BeEmpty(), "%s is out of date; run `make generate`", gen.GatingFile)
	})

	for _, v := range gating.Variants {
		Context("the "+v.Name+" variant", func() {
			It("registers exactly the tools "+gen.GatingFile+" gives it", func() {
				Expect(toolNames(v.Name)).To(ConsistOf(v.Tools))
			})

			It("pulls in none of the packages only its left-out tools reach (go list -deps)", func() {
				have := deps(v)
				var leaks []string
				for _, b := range v.Banned {
					if slices.Contains(have, b.Path) {
						leaks = append(leaks, b.Path+": "+b.Reason)
					}
				}
				Expect(leaks).To(BeEmpty(), "banned packages in the %s binary", v.Name)
			})

			for _, name := range v.Absent {
				t := gatedTool(name)
				Context(name+" ("+t.File+", //go:build "+t.Build+")", func() {
					It("is not in the binary's tool list", func() {
						Expect(toolNames(v.Name)).NotTo(ContainElement(t.Name))
					})

					It("leaves no unique string of it in the binary (description, schema)", func() {
						bin, err := os.ReadFile(binaries[v.Name])
						Expect(err).NotTo(HaveOccurred())
						Expect(t.Strings).NotTo(BeEmpty(), "%s gives no string of %s", gen.GatingFile, t.Name)
						for _, s := range t.Strings {
							Expect(bytes.Contains(bin, []byte(s))).To(BeFalse(), "text %q of %s found in the %s binary", s, t.Name, v.Name)
						}
						if schema := schemaOf(t); schema != nil {
							Expect(bytes.Contains(bin, schema)).To(BeFalse(), "the schema of %s (%s) found in the %s binary", t.Name, t.Schema, v.Name)
						}
					})

					It("leaves no symbol of it in the binary (go tool nm)", func() {
						Expect(toolSymbols(symbols(v.Name), t, 5)).To(BeEmpty(), "symbols of %s in the %s binary", t.Name, v.Name)
					})

					It("finds those strings and symbols in the variants that have it", func() {
						for _, w := range t.Variants {
							bin, err := os.ReadFile(binaries[w])
							Expect(err).NotTo(HaveOccurred())
							for _, s := range t.Strings {
								Expect(bytes.Contains(bin, []byte(s))).To(BeTrue(), "text %q of %s missing from the %s binary", s, t.Name, w)
							}
							if schema := schemaOf(t); schema != nil {
								Expect(bytes.Contains(bin, schema)).To(BeTrue(), "the schema of %s missing from the %s binary", t.Name, w)
							}
							// The wrapper's methods are always linked (they are called
							// through runtime.Tool); a tooldef's own code may be inlined.
							nm := symbols(w)
							Expect(symbolPattern(generatedPkg, t.Symbols.Generated).MatchString(nm)).To(BeTrue(), "no generated symbol of %s in the %s binary", t.Name, w)
						}
					})
				})
			}
		})
	}
})
