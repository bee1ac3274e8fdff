package configstore_test

import (
	"encoding/json"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/tooldefs/configstore"
)

var _ = Describe("Store", func() {
	var store configstore.Store

	BeforeEach(func() {
		store = configstore.Store{Path: filepath.Join(GinkgoT().TempDir(), "nested", "settings.json")}
	})

	It("reads an unset key from a missing file as unset", func() {
		_, ok, err := store.Get("verbose")
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
	})

	It("sets nested keys and keeps every other setting", func() {
		Expect(os.MkdirAll(filepath.Dir(store.Path), 0o755)).To(Succeed())
		Expect(os.WriteFile(store.Path, []byte(`{"permissions":{"allow":["Bash(ls)"]},"other":1}`), 0o644)).To(Succeed())
		Expect(store.Set("permissions.defaultMode", "plan")).To(Succeed())

		v, ok, err := store.Get("permissions.defaultMode")
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		Expect(v).To(Equal("plan"))

		data, err := os.ReadFile(store.Path)
		Expect(err).NotTo(HaveOccurred())
		var doc map[string]any
		Expect(json.Unmarshal(data, &doc)).To(Succeed())
		Expect(doc).To(HaveKeyWithValue("other", BeNumerically("==", 1)))
		Expect(doc["permissions"]).To(HaveKeyWithValue("allow", ConsistOf("Bash(ls)")))
		entries, _ := os.ReadDir(filepath.Dir(store.Path))
		Expect(entries).To(HaveLen(1), "no temp file is left behind")
	})

	It("refuses a settings file that is not a JSON object and leaves it untouched", func() {
		Expect(os.MkdirAll(filepath.Dir(store.Path), 0o755)).To(Succeed())
		Expect(os.WriteFile(store.Path, []byte(`[1,2`), 0o644)).To(Succeed())
		err := store.Set("verbose", true)
		Expect(err).To(MatchError(ContainSubstring("is not a JSON object")))
		data, _ := os.ReadFile(store.Path)
		Expect(string(data)).To(Equal(`[1,2`))
	})

	It("refuses to descend into a non-object", func() {
		Expect(os.MkdirAll(filepath.Dir(store.Path), 0o755)).To(Succeed())
		Expect(os.WriteFile(store.Path, []byte(`{"permissions":"x"}`), 0o644)).To(Succeed())
		Expect(store.Set("permissions.defaultMode", "plan")).To(MatchError(ContainSubstring(`"permissions" is not an object`)))
	})
})

var _ = DescribeTable("Setting.Check",
	func(key, raw string, wantErr string) {
		s, err := configstore.Lookup(key)
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Check(json.RawMessage(raw))
		if wantErr == "" {
			Expect(err).NotTo(HaveOccurred())
		} else {
			Expect(err).To(MatchError(ContainSubstring(wantErr)))
		}
	},
	Entry("bool accepts true", "verbose", `true`, ""),
	Entry("bool refuses a string", "verbose", `"yes"`, "takes true or false"),
	Entry("enum accepts a member", "permissions.defaultMode", `"acceptEdits"`, ""),
	Entry("enum refuses others", "permissions.defaultMode", `"yolo"`, "takes one of default, acceptEdits"),
	Entry("string refuses a number", "model", `3`, "takes a string"),
	Entry("toolSearch auto:N", "toolSearch", `"auto:15"`, ""),
	Entry("toolSearch refuses auto:0", "toolSearch", `"auto:0"`, "auto:N"),
	Entry("toolSearch refuses junk", "toolSearch", `"sometimes"`, "auto:N"),
	Entry("invalid JSON", "model", `{`, "not valid JSON"),
)

var _ = Describe("Lookup", func() {
	It("names the known settings when the key is unknown", func() {
		_, err := configstore.Lookup("colour")
		Expect(err).To(MatchError(And(ContainSubstring(`unknown setting "colour"`), ContainSubstring("permissions.defaultMode"))))
	})
})
