package main

import (
	"strings"

	"github.com/spf13/cobra"
)

// newRootCmd builds the agentcore command with every subcommand.
func newRootCmd() *cobra.Command {
	var f runFlags
	root := &cobra.Command{
		Use:   "agentcore [-p] [PROMPT]",
		Short: "A tool runtime for LLM agents, and the agent built on it",
		Long: `agentcore runs the tools a coding agent calls — Bash, Read, Edit, Grep and
more — with Claude Code's protocol: validated input, layered permissions,
concurrency-aware scheduling and streaming execution.

Run as Claude Code's CLI is: agentcore -p PROMPT (or the prompt on standard
input) is print mode — one run, the final answer on stdout (the transcript on
stderr with --verbose), no permission prompts, and a model required: an
ANTHROPIC_API_KEY or a --model. agentcore PROMPT runs once with the transcript;
agentcore alone asks for prompts on the terminal. The flags are agentcore
run's (see agentcore run --help), in Claude Code's spellings too.`,
		Example: `  agentcore -p "list the TODOs in this repo" --allowedTools "Read Grep"
  echo "what does go.mod require?" | agentcore -p --output-format json
  agentcore -p --model replay "look around"     # offline`,
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			f.prompt = strings.Join(args, " ")
			return f.run(cmd)
		},
	}
	root.Flags().BoolVarP(&f.print, "print", "p", false, "print mode: run the prompt once and print only the answer (Claude Code's -p)")
	f.register(root)
	root.AddCommand(
		newConfigCmd(),
		newExecCmd(execDeps{}),
		newMCPCmd(),
		newRunCmd(),
		newSchemaCmd(),
		newToolsCmd(),
		newVersionCmd(),
	)
	return root
}
