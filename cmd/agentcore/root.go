package main

import (
	"github.com/spf13/cobra"
)

// newRootCmd builds the agentcore command with every subcommand.
func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "agentcore",
		Short: "A tool runtime for LLM agents, and the agent built on it",
		Long: `agentcore runs the tools a coding agent calls — Bash, Read, Edit, Grep and
more — with Claude Code's protocol: validated input, layered permissions,
concurrency-aware scheduling and streaming execution.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(
		newExecCmd(execDeps{}),
		newMCPCmd(),
		newRunCmd(),
		newSchemaCmd(),
		newToolsCmd(),
		newVersionCmd(),
	)
	return root
}
