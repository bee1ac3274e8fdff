package gen_test

import (
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/gen"
)

var _ = Describe("gating.json", func() {
	It("is toolgen's: Write removes it when it is no longer produced", func() {
		dir := GinkgoT().TempDir()
		_, err := gen.Write(dir, gen.Files{gen.GatingFile: []byte("{}\n")})
		Expect(err).NotTo(HaveOccurred())
		changes, err := gen.Write(dir, gen.Files{})
		Expect(err).NotTo(HaveOccurred())
		Expect(changes).To(Equal([]gen.Change{{Path: gen.GatingFile, Kind: "stale"}}))
		Expect(filepath.Join(dir, gen.GatingFile)).NotTo(BeAnExistingFile())
	})

	It("is written only from a loaded model", func() {
		files, err := gen.Emit(&gen.Model{PkgPath: "example.com/tooldefs", PkgName: "tooldefs"}, gen.EmitConfig{})
		Expect(err).NotTo(HaveOccurred())
		Expect(files).NotTo(HaveKey(gen.GatingFile))
	})
})
