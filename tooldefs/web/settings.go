package web

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// Endpoint finds the configured search API: the AGENTCORE_WEB_SEARCH_URL
// variable (looked up with getenv), else "webSearch.endpoint" in
// .agentcore/settings.local.json, .agentcore/settings.json under project,
// then the user settings ($AGENTCORE_CONFIG_DIR or ~/.agentcore).
func Endpoint(getenv func(string) string, project string) string {
	if v := getenv("AGENTCORE_WEB_SEARCH_URL"); v != "" {
		return v
	}
	userDir := getenv("AGENTCORE_CONFIG_DIR")
	if userDir == "" {
		if home, err := os.UserHomeDir(); err == nil {
			userDir = filepath.Join(home, ".agentcore")
		}
	}
	files := []string{
		filepath.Join(project, ".agentcore", "settings.local.json"),
		filepath.Join(project, ".agentcore", "settings.json"),
	}
	if userDir != "" {
		files = append(files, filepath.Join(userDir, "settings.json"))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var doc struct {
			WebSearch struct {
				Endpoint string `json:"endpoint"`
			} `json:"webSearch"`
		}
		if json.Unmarshal(data, &doc) == nil && doc.WebSearch.Endpoint != "" {
			return doc.WebSearch.Endpoint
		}
	}
	return ""
}
