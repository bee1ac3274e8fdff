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
	Go      string `json:"go"`
}

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
				Go:      goruntime.Version(),
			}
			if asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(info)
			}
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "agentcore %s (%s variant, %d tools, %s)\n",
				info.Version, info.Variant, info.Tools, info.Go)
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
