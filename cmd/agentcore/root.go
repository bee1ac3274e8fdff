package main

import (
	"github.com/spf13/cobra"
)

// subcommands lists the constructors of agentcore's subcommands; each
// command's file adds itself in an init function.
var subcommands []func() *cobra.Command

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
	for _, sub := range subcommands {
		root.AddCommand(sub())
	}
	return root
}
