package gen_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/gen"
)

// update refreshes the goldens instead of comparing: UPDATE_GOLDEN=1.
var update = os.Getenv("UPDATE_GOLDEN") != ""

// goldenCases lists gen/testdata/<case>/ directories holding a tooldefs
// package. A case with error.txt expects that error text; the others
// expect the files under generated/.
func goldenCases() []string {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		panic(err)
	}
	var out []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join("testdata", e.Name(), "tooldefs")); err == nil {
			out = append(out, e.Name())
		}
	}
	return out
}

// outputCases are the golden cases that expect generated files.
func outputCases() []string {
	var out []string
	for _, name := range goldenCases() {
		if _, err := os.Stat(filepath.Join("testdata", name, "error.txt")); err != nil {
			out = append(out, name)
		}
	}
	return out
}

func generate(dir string) (gen.Files, error) {
	m, err := gen.Load(context.Background(), gen.LoadConfig{Dir: filepath.Join(dir, "tooldefs"), BaseDir: dir})
	if err != nil {
		return nil, err
	}
	return gen.Emit(m, gen.EmitConfig{Package: "generated"})
}

var _ = Describe("golden scenarios", Label("golden"), func() {
	for _, name := range goldenCases() {
		dir := filepath.Join("testdata", name)
		errFile := filepath.Join(dir, "error.txt")
		_, statErr := os.Stat(errFile)
		if statErr == nil {
			It(name+": fails with the expected errors", func() {
				_, err := generate(dir)
				Expect(err).To(HaveOccurred())
				got := err.Error() + "\n"
				if update {
					Expect(os.WriteFile(errFile, []byte(got), 0o644)).To(Succeed())
					return
				}
				want, rerr := os.ReadFile(errFile)
				Expect(rerr).NotTo(HaveOccurred())
				Expect(cmp.Diff(string(want), got)).To(BeEmpty(), "error text differs (-want +got); UPDATE_GOLDEN=1 refreshes")
			})
			continue
		}
		It(name+": generates the expected files", func() {
			files, err := generate(dir)
			Expect(err).NotTo(HaveOccurred())
			out := filepath.Join(dir, "generated")
			if update {
				_, err := gen.Write(out, files)
				Expect(err).NotTo(HaveOccurred())
				return
			}
			changes, err := gen.Diff(out, files)
			Expect(err).NotTo(HaveOccurred())
			for _, c := range changes {
				want, _ := os.ReadFile(filepath.Join(out, c.Path))
				GinkgoWriter.Println(c.String(), cmp.Diff(string(want), string(files[c.Path])))
			}
			Expect(changes).To(BeEmpty(), "generated files differ (see the diffs above); UPDATE_GOLDEN=1 refreshes")
		})
	}

	It("exits 1 from the command line, naming the file, line and what to add", Label("slow"), func() {
		cmd := exec.Command("go", "run", "../cmd/toolgen", "-dir", "testdata/missing_call/tooldefs", "-out", GinkgoT().TempDir())
		out, err := cmd.CombinedOutput()
		Expect(err).To(HaveOccurred())
		var exit *exec.ExitError
		Expect(errors.As(err, &exit)).To(BeTrue())
		Expect(exit.ExitCode()).To(Equal(1))
		Expect(string(out)).To(ContainSubstring("testdata/missing_call/tooldefs/read.go:7:6: type Read has +tool:name but no Call method; add: func (Read) Call("))
	})

	It("leaves an excluded tool's code, description and schema out of the binary", Label("slow", "gating"), func() {
		dir := GinkgoT().TempDir()
		for _, v := range []struct {
			tags         string
			secret, find bool
		}{{"", false, true}, {"internal", true, true}, {"ant", true, false}} {
			bin := filepath.Join(dir, "fixture-"+v.tags)
			out, err := exec.Command("go", "build", "-tags="+v.tags, "-o", bin, "./testdata/gated/cmd/fixture").CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "%s", out)
			b, err := os.ReadFile(bin)
			Expect(err).NotTo(HaveOccurred())
			Expect(bytes.Contains(b, []byte("SECRET-TOOL-DESCRIPTION-7f3a"))).To(Equal(v.secret), "Secret's description in -tags=%q", v.tags)
			Expect(bytes.Contains(b, []byte("Finder is absent from the ant variant."))).To(Equal(v.find), "Finder's description in -tags=%q", v.tags)
			nm, err := exec.Command("go", "tool", "nm", bin).CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "%s", nm)
			Expect(strings.Contains(string(nm), "SecretTool")).To(Equal(v.secret), "SecretTool symbols in -tags=%q", v.tags)
			Expect(strings.Contains(string(nm), "secretSchema")).To(Equal(v.secret), "Secret's embedded schema in -tags=%q", v.tags)
			run, err := exec.Command(bin).CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "%s", run)
			Expect(strings.Contains(string(run), "Secret ")).To(Equal(v.secret))
			// Always's description links [AlwaysNote], a constant each
			// variant declares in its own build-tagged file.
			note := map[bool]string{true: "ALWAYS-NOTE-ant.", false: "ALWAYS-NOTE-not-ant."}
			Expect(string(run)).To(ContainSubstring("Always is in every variant. "+note[v.tags == "ant"]), "-tags=%q", v.tags)
			Expect(string(run)).NotTo(ContainSubstring(note[v.tags != "ant"]), "-tags=%q", v.tags)
		}
	})

	It("keeps the packages gating.json bans out of the fixture's dependencies, and only those", Label("slow", "gating"), func() {
		data, err := os.ReadFile("testdata/gated/generated/" + gen.GatingFile)
		Expect(err).NotTo(HaveOccurred())
		var g gen.Gating
		Expect(json.Unmarshal(data, &g)).To(Succeed())
		deps := map[string][]string{}
		for _, v := range g.Variants {
			out, err := exec.Command("go", "list", "-deps", "-tags="+strings.Join(v.Tags, ","), "./testdata/gated/cmd/fixture").Output()
			Expect(err).NotTo(HaveOccurred())
			deps[v.Name] = strings.Fields(string(out))
		}
		banned := 0
		for _, v := range g.Variants {
			for _, b := range v.Banned {
				banned++
				Expect(deps[v.Name]).NotTo(ContainElement(b.Path), "%s in the %s fixture: %s", b.Path, v.Name, b.Reason)
				for _, w := range b.In {
					Expect(deps[w]).To(ContainElement(b.Path), "%s is in the %s variant", b.Path, w)
				}
			}
		}
		Expect(banned).To(Equal(3), "secretstore and its vault from external, patterns from ant")
		Expect(deps["external"]).To(ContainElement(g.Package+"/common"), "a package an ungated tool imports is banned nowhere")
	})

	It("generates byte-identical output twice", func() {
		for _, name := range outputCases() {
			a, err := generate(filepath.Join("testdata", name))
			Expect(err).NotTo(HaveOccurred())
			b, err := generate(filepath.Join("testdata", name))
			Expect(err).NotTo(HaveOccurred())
			Expect(a.Paths()).To(Equal(b.Paths()), name)
			for _, p := range a.Paths() {
				Expect(string(b[p])).To(Equal(string(a[p])), name+"/"+p)
			}
		}
	})

	It("marks every Go file exactly and carries the tooldef's build line", func() {
		for _, name := range outputCases() {
			files, err := generate(filepath.Join("testdata", name))
			Expect(err).NotTo(HaveOccurred())
			for _, p := range files.Paths() {
				if strings.HasSuffix(p, ".go") {
					Expect(string(files[p])).To(HavePrefix("// Code generated by toolgen. DO NOT EDIT.\n\n"), name+"/"+p)
				}
			}
			Expect(string(files[gen.GatingFile])).To(HavePrefix("{\n  \"comment\": \"Code generated by toolgen. DO NOT EDIT.\",\n"), name)
		}
		files, err := generate("testdata/gated")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(files["secret_tool.go"])).To(ContainSubstring("\n//go:build internal || ant\n\npackage generated"))
		Expect(string(files["finder_tool.go"])).To(ContainSubstring("\n//go:build !ant\n\npackage generated"))
		Expect(string(files["always_tool.go"])).NotTo(ContainSubstring("//go:build"))
		Expect(string(files["registry_external.go"])).To(ContainSubstring("//go:build !internal && !ant\n"))
		Expect(string(files["registry_internal.go"])).To(ContainSubstring("//go:build internal && !ant\n"))
		Expect(string(files["registry_ant.go"])).To(ContainSubstring("//go:build ant\n"))
	})

	It("compiles and vets the golden output in every variant", Label("slow"), func() {
		var pkgs []string
		for _, name := range outputCases() {
			pkgs = append(pkgs, "./testdata/"+name+"/generated/")
		}
		Expect(pkgs).NotTo(BeEmpty())
		for _, tags := range []string{"", "internal", "ant"} {
			for _, tool := range []string{"build", "vet"} {
				cmd := exec.Command("go", append([]string{tool, "-tags=" + tags}, pkgs...)...)
				out, err := cmd.CombinedOutput()
				Expect(err).NotTo(HaveOccurred(), "go %s -tags=%q: %s", tool, tags, out)
			}
		}
	})
})

var _ = Describe("Write", func() {
	var dir string
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
	})

	It("writes only changed files and removes the stale ones it owns", func() {
		files := gen.Files{"a.go": []byte("// Code generated by toolgen. DO NOT EDIT.\n\npackage x\n"), "schemas/a.json": []byte("{}\n")}
		changes, err := gen.Write(dir, files)
		Expect(err).NotTo(HaveOccurred())
		Expect(changes).To(HaveLen(2))

		Expect(os.WriteFile(filepath.Join(dir, "old.go"), []byte("// Code generated by toolgen. DO NOT EDIT.\n\npackage x\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "schemas", "old.json"), []byte("{}\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "mine.go"), []byte("package x\n"), 0o644)).To(Succeed())
		before, _ := os.Stat(filepath.Join(dir, "a.go"))

		changes, err = gen.Write(dir, files)
		Expect(err).NotTo(HaveOccurred())
		Expect(changes).To(Equal([]gen.Change{{Path: "old.go", Kind: "stale"}, {Path: "schemas/old.json", Kind: "stale"}}))
		Expect(filepath.Join(dir, "old.go")).NotTo(BeAnExistingFile())
		Expect(filepath.Join(dir, "mine.go")).To(BeAnExistingFile(), "a hand-written file is not toolgen's")
		after, _ := os.Stat(filepath.Join(dir, "a.go"))
		Expect(after.ModTime()).To(Equal(before.ModTime()), "an unchanged file is not rewritten")

		changes, err = gen.Diff(dir, files)
		Expect(err).NotTo(HaveOccurred())
		Expect(changes).To(BeEmpty())
	})
})
