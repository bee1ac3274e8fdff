package main

import (
	"encoding/json"
	"fmt"
	goruntime "runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/agentcore/agentcore/features"
	"github.com/agentcore/agentcore/generated"
)

// versionInfo is what `agentcore version --json` prints.
type versionInfo struct {
	Variant string `json:"variant"`
	Tools   int    `json:"tools"`
	Version string `json:"version"`
	Commit  string `json:"commit,omitempty"`
	Go      string `json:"go"`
}

// version and commit are stamped by `make release` (-ldflags "-X
// main.version=… -X main.commit=…"); other builds take them from the
// build info (the commit only where Go stamps VCS information).
var version, commit string

func newVersionCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the build variant, tool count and version",
		Long: `Print the build variant this binary was compiled as (external, internal or
ant), how many tools it carries, and its version.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			info := versionInfo{
				Variant: features.Variant,
				Tools:   len(generated.AllBaseTools()),
				Version: moduleVersion(),
				Commit:  vcsCommit(),
				Go:      goruntime.Version(),
			}
			if asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(info)
			}
			commit := ""
			if info.Commit != "" {
				commit = ", commit " + info.Commit
			}
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "agentcore %s (%s variant, %d tools%s, %s)\n",
				info.Version, info.Variant, info.Tools, commit, info.Go)
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// moduleVersion is the stamped version, else the module's (a tag when
// built by go install …@vX), else "dev".
func moduleVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// vcsCommit is the commit the binary was built from (12 digits, "-dirty"
// when the tree had changes), "" when the build recorded none.
func vcsCommit() string {
	if commit != "" {
		return commit
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev == "" {
		return ""
	}
	return rev[:min(12, len(rev))] + dirty
}
