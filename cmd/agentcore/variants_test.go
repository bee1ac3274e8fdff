//go:build !internal && !ant

// The variant specs build all three binaries themselves, so they run once,
// in the default (external) pass of `make test`.

package main_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"
)

const module = "github.com/agentcore/agentcore"

// variantTags maps each variant to its -tags value.
var variantTags = map[string]string{"external": "", "internal": "internal", "ant": "ant"}

// binaries maps each variant to its built agentcore binary.
var binaries map[string]string

var _ = SynchronizedBeforeSuite(func() []byte {
	paths := map[string]string{}
	for v, tags := range variantTags {
		args := []string{}
		if tags != "" {
			args = append(args, "-tags", tags)
		}
		p, err := gexec.Build(module+"/cmd/agentcore", args...)
		Expect(err).NotTo(HaveOccurred(), "build the %s variant", v)
		paths[v] = p
	}
	data, err := json.Marshal(paths)
	Expect(err).NotTo(HaveOccurred())
	return data
}, func(data []byte) {
	Expect(json.Unmarshal(data, &binaries)).To(Succeed())
})

var _ = SynchronizedAfterSuite(func() {}, func() { gexec.CleanupBuildArtifacts() })

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

func toolNames(variant string) []string {
	var tools []listedTool
	Expect(json.Unmarshal(agentcore(variant, "tools", "--json"), &tools)).To(Succeed())
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return names
}

var _ = Describe("build variants", Label("gating"), func() {
	It("names its variant and tool count in version --json", func() {
		for v := range variantTags {
			var info struct {
				Variant string `json:"variant"`
				Tools   int    `json:"tools"`
			}
			Expect(json.Unmarshal(agentcore(v, "version", "--json"), &info)).To(Succeed())
			Expect(info.Variant).To(Equal(v))
			Expect(info.Tools).To(BeNumerically(">", 0))
		}
	})

	It("keeps the internal tool out of external and in internal and ant", func() {
		Expect(toolNames("external")).NotTo(ContainElement("Config"))
		Expect(toolNames("internal")).To(ContainElement("Config"))
		Expect(toolNames("ant")).To(ContainElement("Config"))
	})

	It("has no Glob or Grep in ant", func() {
		Expect(toolNames("external")).To(ContainElement("Glob"))
		Expect(toolNames("ant")).NotTo(ContainElement("Glob"))
		Expect(toolNames("ant")).NotTo(ContainElement("Grep"))
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

// absence describes a tool compiled out of a variant, and how to prove it.
type absence struct {
	variant, tool string
	// packages must not be dependencies of the variant's binary; each with
	// the reason it is banned.
	packages map[string]string
}

var absences = []absence{
	{variant: "external", tool: "Config", packages: map[string]string{
		module + "/tooldefs/configstore": "the settings engine is used only by the internal Config tool",
	}},
	{variant: "ant", tool: "Glob"},
	{variant: "ant", tool: "Grep"},
}

var _ = Describe("proof of absence", Label("gating"), func() {
	var internalSchema []map[string]any

	BeforeEach(func() {
		Expect(json.Unmarshal(agentcore("internal", "schema", "--format", "anthropic"), &internalSchema)).To(Succeed())
	})

	for _, a := range absences {
		Context(a.tool+" in the "+a.variant+" variant", func() {
			It("is not in the binary's tool list", func() {
				Expect(toolNames(a.variant)).NotTo(ContainElement(a.tool))
			})

			It("pulls in none of its packages (go list -deps)", func() {
				args := []string{"list", "-deps"}
				if tags := variantTags[a.variant]; tags != "" {
					args = append(args, "-tags", tags)
				}
				cmd := exec.Command("go", append(args, "./cmd/agentcore")...)
				cmd.Dir = repoRoot()
				out, err := cmd.Output()
				Expect(err).NotTo(HaveOccurred())
				deps := strings.Fields(string(out))
				for pkg, why := range a.packages {
					Expect(deps).NotTo(ContainElement(pkg), why)
				}
			})

			It("leaves no unique string of it in the binary (description, schema)", func() {
				bin, err := os.ReadFile(binaries[a.variant])
				Expect(err).NotTo(HaveOccurred())
				def := findTool(internalSchema, a.tool)
				Expect(def).NotTo(BeNil(), "the internal variant describes %s", a.tool)
				desc := def["description"].(string)
				Expect(len(desc)).To(BeNumerically(">", 40))
				Expect(bytes.Contains(bin, []byte(desc[:40]))).To(BeFalse(), "description of %s found in %s binary", a.tool, a.variant)
				for _, s := range propertyDescriptions(def) {
					Expect(bytes.Contains(bin, []byte(s))).To(BeFalse(), "schema text %q of %s found in the %s binary", s, a.tool, a.variant)
				}
			})

			It("leaves no symbol of it in the binary (go tool nm)", func() {
				out, err := exec.Command("go", "tool", "nm", binaries[a.variant]).Output()
				Expect(err).NotTo(HaveOccurred())
				sym := regexp.MustCompile(`(?m)\b(tooldefs|generated)\.\(?\*?` + a.tool + `(Input|Output|Progress|Tool|Wrapper)?\)?\.`)
				Expect(sym.FindAllString(string(out), 5)).To(BeEmpty())
				Expect(string(out)).NotTo(MatchRegexp(`(?i)generated\.[a-z]*` + a.tool + `[A-Za-z]*\.`))
			})
		})
	}
})

func findTool(defs []map[string]any, name string) map[string]any {
	for _, d := range defs {
		if d["name"] == name {
			return d
		}
	}
	return nil
}

// propertyDescriptions returns the long descriptions of a tool's input
// properties: strings unique enough to identify its schema.
func propertyDescriptions(def map[string]any) []string {
	schema, _ := def["input_schema"].(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	var out []string
	for _, p := range props {
		if d, _ := p.(map[string]any)["description"].(string); len(d) > 20 {
			out = append(out, d)
		}
	}
	return out
}
