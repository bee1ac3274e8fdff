package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/openai"
)

func newSchemaCmd() *cobra.Command {
	var format string
	var opts sessionFlags
	var stats bool
	cmd := &cobra.Command{
		Use:   "schema",
		Short: "Print the tool list exactly as a model API takes it",
		Long: `Print the tools sent to the model (deferred tools left out) in the format an
API takes (--stats prints token estimates of the list instead): --format anthropic (the Messages API "tools" array, the default),
openai (Chat Completions "tools" array of functions) or mcp (a tools/list
result with read-only and destructive annotations).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := opts.openSession(cmd.Context(), openOptions{waitMCP: true})
			if err != nil {
				return err
			}
			defer s.Close()
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			if stats {
				return enc.Encode(s.Pool().Stats())
			}
			doc, err := schemaDocument(format, s.Definitions())
			if err != nil {
				return err
			}
			return enc.Encode(doc)
		},
	}
	cmd.Flags().StringVar(&format, "format", "anthropic", "anthropic, openai or mcp")
	cmd.Flags().BoolVar(&stats, "stats", false, "print token estimates instead: sent vs deferred definitions and the saving")
	opts.register(cmd)
	return cmd
}

// schemaDocument renders tools in one API's format.
func schemaDocument(format string, tools []runtime.Tool) (any, error) {
	switch format {
	case "anthropic":
		out := make([]map[string]any, 0, len(tools))
		for _, t := range tools {
			out = append(out, map[string]any{
				"name":         t.Name(),
				"description":  t.Description(),
				"input_schema": t.InputSchema(),
			})
		}
		return out, nil
	case "openai":
		return openai.Tools(provider.ToolsOf(tools))
	case "mcp":
		list := make([]map[string]any, 0, len(tools))
		for _, t := range tools {
			tr := t.Traits()
			list = append(list, map[string]any{
				"name":        t.Name(),
				"description": t.Description(),
				"inputSchema": t.InputSchema(),
				"annotations": map[string]any{
					"readOnlyHint":    tr.ReadOnly.Value && !tr.ReadOnly.InputDependent,
					"destructiveHint": tr.Destructive.Value || tr.Destructive.InputDependent,
				},
			})
		}
		return map[string]any{"tools": list}, nil
	default:
		return nil, fmt.Errorf("unknown --format %q: use anthropic, openai or mcp", format)
	}
}
