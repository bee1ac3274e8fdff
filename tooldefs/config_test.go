//go:build internal || ant

package tooldefs_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
)

var _ = Describe("Config (internal variants), through its generated wrapper", func() {
	var (
		tool    runtime.Tool
		tc      *runtime.ToolContext
		cfgDir  string
		decoded func(raw string) any
	)

	BeforeEach(func() {
		tool = runtime.Lookup(generated.AllBaseTools(), "Config")
		Expect(tool).NotTo(BeNil(), "Config is compiled into this variant")
		cfgDir = GinkgoT().TempDir()
		tc = runtime.NewToolContext(GinkgoT().TempDir())
		tc.Env = map[string]string{"AGENTCORE_CONFIG_DIR": cfgDir}
		decoded = func(raw string) any {
			in, err := tool.Decode(json.RawMessage(raw))
			Expect(err).NotTo(HaveOccurred())
			return in
		}
	})

	call := func(raw string) (runtime.Result, error) {
		in := decoded(raw)
		if err := tool.ValidateInput(context.Background(), in, tc); err != nil {
			return runtime.Result{}, err
		}
		return tool.Call(context.Background(), in, runtime.NewCall("c1", tc, nil))
	}

	It("writes to the session's ToolOptions.ConfigDir when the settings' env names none", func() {
		tc.Env = nil
		GinkgoT().Setenv("AGENTCORE_CONFIG_DIR", GinkgoT().TempDir()) // read by the CLI, not the tool
		runtime.WithService(tc, runtime.ToolOptions{ConfigDir: cfgDir})
		_, err := call(`{"setting":"permissions.defaultMode","value":"plan"}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(filepath.Join(cfgDir, "settings.json")).To(BeAnExistingFile())
	})

	It("reads an unset setting, sets it, and reads it back", func() {
		res, err := call(`{"setting":"permissions.defaultMode"}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Text()).To(ContainSubstring("is not set"))

		res, err = call(`{"setting":"permissions.defaultMode","value":"plan"}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Text()).To(ContainSubstring(`Set permissions.defaultMode to "plan"`))

		data, err := os.ReadFile(filepath.Join(cfgDir, "settings.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(data).To(MatchJSON(`{"permissions":{"defaultMode":"plan"}}`))

		res, err = call(`{"setting":"permissions.defaultMode"}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Text()).To(Equal(`permissions.defaultMode = "plan"`))
	})

	It("is read-only only when it reads", func() {
		Expect(tool.IsReadOnly(decoded(`{"setting":"verbose"}`))).To(BeTrue())
		Expect(tool.IsReadOnly(decoded(`{"setting":"verbose","value":false}`))).To(BeFalse())
		Expect(tool.Traits().ReadOnly.InputDependent).To(BeTrue())
		Expect(tool.IsConcurrencySafe(decoded(`{"setting":"verbose"}`))).To(BeFalse())
	})

	It("refuses unknown settings and wrong values before running, writing nothing", func() {
		_, err := call(`{"setting":"colour","value":"red"}`)
		Expect(err).To(MatchError(ContainSubstring(`unknown setting "colour"`)))
		_, err = call(`{"setting":"verbose","value":"yes"}`)
		Expect(err).To(MatchError(ContainSubstring("takes true or false")))
		Expect(filepath.Join(cfgDir, "settings.json")).NotTo(BeAnExistingFile())
	})

	It("names the settings file as its permission target, written only when setting", func() {
		t := tool.PermissionTarget(decoded(`{"setting":"verbose","value":true}`))
		Expect(t.Kind).To(Equal(runtime.TargetPath))
		Expect(t.Writes).To(BeTrue())
		Expect(tool.PermissionTarget(decoded(`{"setting":"verbose"}`)).Writes).To(BeFalse())
	})
})
