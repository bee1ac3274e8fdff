package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agentcore/agentcore/runtime"
)

// toolInfo is one entry of `agentcore tools --json`.
type toolInfo struct {
	Name    string   `json:"name"`
	Aliases []string `json:"aliases"`
	// Description is the description as sent with this pool: fitted to
	// it, so it names no tool the pool lacks.
	Description     string `json:"description"`
	ReadOnly        bool   `json:"read_only"`
	ConcurrencySafe bool   `json:"concurrency_safe"`
	Destructive     bool   `json:"destructive"`
	Enabled         bool   `json:"enabled"`
	Deferred        bool   `json:"deferred"`
	// Interrupt is "cancel" or "block": what a user interrupt does to a
	// running call (the fail-closed answer when input-dependent).
	Interrupt string `json:"interrupt"`
	// CancelsSiblingsOnError: an error result cancels the parallel calls.
	CancelsSiblingsOnError bool `json:"cancels_siblings_on_error"`
	// PermissionFamily is the family of calls the tool's rules govern.
	PermissionFamily string `json:"permission_family"`
	// LocalOnly is true when every call stays on this machine.
	LocalOnly bool `json:"local_only"`
	// AgentOnly is true for tools that need an agent loop around them;
	// agentcore mcp serve does not offer them.
	AgentOnly bool `json:"agent_only"`
	// InputDependent says, per flag, whether the tool decides per input;
	// for those flags the static field holds the fail-closed answer.
	InputDependent inputDependence `json:"input_dependent"`
}

type inputDependence struct {
	ReadOnly        bool `json:"read_only"`
	ConcurrencySafe bool `json:"concurrency_safe"`
	Destructive     bool `json:"destructive"`
	Interrupt       bool `json:"interrupt"`
}

func describeTool(t runtime.Tool, deferred bool) toolInfo {
	tr := t.Traits()
	aliases := t.Aliases()
	if aliases == nil {
		aliases = []string{}
	}
	return toolInfo{
		Name:            t.Name(),
		Aliases:         aliases,
		Description:     t.Description(),
		ReadOnly:        tr.ReadOnly.Value,
		ConcurrencySafe: tr.ConcurrencySafe.Value,
		Destructive:     tr.Destructive.Value,
		Enabled:         t.IsEnabled(),
		Deferred:        deferred,
		Interrupt:       tr.Interrupt.String(),
		InputDependent: inputDependence{
			ReadOnly:        tr.ReadOnly.InputDependent,
			ConcurrencySafe: tr.ConcurrencySafe.InputDependent,
			Destructive:     tr.Destructive.InputDependent,
			Interrupt:       tr.InterruptDependent,
		},
		CancelsSiblingsOnError: tr.CancelsSiblingsOnError,
		PermissionFamily:       tr.PermissionFamily.String(),
		LocalOnly:              tr.LocalOnly,
		AgentOnly:              tr.AgentOnly,
	}
}

func newToolsCmd() *cobra.Command {
	var asJSON bool
	var opts sessionFlags
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "List the tools the model would see, in pool order",
		Long: `List the tool pool as the model would see it under the given permission mode,
rules and MCP configuration: built-in tools sorted by name, then MCP tools.
Each tool shows its scheduling flags and what a user interrupt does to it; a
value marked "input" is decided per call (Bash is concurrency-safe only for
read-only commands, and lets only test suites and builds finish on interrupt). Deferred
tools are not sent to the model until ToolSearch loads them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := opts.openSession(cmd.Context(), openOptions{waitMCP: true})
			if err != nil {
				return err
			}
			defer s.Close()
			p := s.Pool()
			tools := p.Tools()
			infos := make([]toolInfo, 0, len(tools))
			for _, t := range tools {
				infos = append(infos, describeTool(t, p.IsDeferred(t.Name())))
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(infos)
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 2, 2, ' ', 0)
			fmt.Fprintln(w, "NAME\tREAD-ONLY\tCONCURRENCY-SAFE\tDESTRUCTIVE\tINTERRUPT\tDEFERRED\tALIASES")
			for _, in := range infos {
				interrupt := in.Interrupt
				if in.InputDependent.Interrupt {
					interrupt = "input"
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", in.Name,
					flagText(in.ReadOnly, in.InputDependent.ReadOnly),
					flagText(in.ConcurrencySafe, in.InputDependent.ConcurrencySafe),
					flagText(in.Destructive, in.InputDependent.Destructive),
					interrupt, yesNo(in.Deferred), strings.Join(in.Aliases, ","))
			}
			return w.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array, one object per tool")
	opts.register(cmd)
	return cmd
}

func flagText(v, dependent bool) string {
	if dependent {
		return "input"
	}
	return yesNo(v)
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}
