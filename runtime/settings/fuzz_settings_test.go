package settings_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentcore/agentcore/runtime/settings"
)

// FuzzReadSettingsFile feeds arbitrary bytes to the settings loader
// through a real file: it must never panic, and a file it rejects returns
// an error naming the file.
//
//	go test -run '^$' -fuzz FuzzReadSettingsFile -fuzztime 30s ./runtime/settings/
func FuzzReadSettingsFile(f *testing.F) {
	for _, s := range []string{
		``, ` `, `{}`, `null`, `[]`, `"x"`,
		`{"permissions":{"allow":["Bash(echo:*)"],"deny":["Read(./.env)"],"defaultMode":"acceptEdits"}}`,
		`{"permissions":{"allow":"Bash"}}`, `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}`,
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "settings.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		_, found, err := settings.ReadSettingsFile(path)
		if !found {
			t.Fatalf("an existing file reported missing")
		}
		if err != nil && !contains(err.Error(), path) {
			t.Fatalf("error does not name the file: %v", err)
		}
	})
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
