// Package mcp connects agentcore to the Model Context Protocol, both ways.
//
// As a client, a [Manager] starts the servers named in an .mcp.json file
// (Claude Code's format, see [Config]) in the background and turns each
// server tool into a [runtime.Tool] named mcp__<server>__<tool> ([Tool]).
// Start-up never waits for a server: [Manager.Tools] returns what is
// connected now and [Manager.PendingServers] names the servers still
// connecting. A server that dies during a call gives that call an error
// result and is started again on its next use.
//
// A stdio server is run by a transport of this package's own: a line of
// its stdout that is not a JSON-RPC message (a banner, a log line) is
// skipped and logged ([Options.Log]); an answer that is cut short or
// cannot be read as the call's result fails that call only. A call ends
// at [Options.CallTimeout] (MCP_TOOL_TIMEOUT, default
// [DefaultCallTimeout]) with an error result naming the server and the
// limit; the server is told (notifications/cancelled) and serves on. On
// Close every server is stopped at once: stdin closed, SIGTERM to its
// process group after [Options.TerminateDuration], SIGKILL soon after.
//
// When any server offers
// resources, the ListMcpResourcesTool and ReadMcpResourceTool tools read
// them.
//
// A server's prompts (prompts/list, listed on connecting and again on
// notifications/prompts/list_changed) are [Manager.Prompts]; the
// interactive session runs each as the slash command
// /mcp__<server>__<prompt> ([Prompt.CommandName], [Prompt.ParseArgs]),
// and [Manager.GetPrompt] returns the messages (prompts/get) as text,
// content that is not text described in brackets. A server whose prompts
// cannot be listed keeps its tools ([ServerStatus.PromptErr]).
//
// The client declares roots ([Options.Roots], changed with
// [Manager.SetRoots], which sends notifications/roots/list_changed),
// elicitation in form and URL modes when [Options.Elicit] is set, and
// sampling when [Options.Sample] is set (runtime/session sets all three:
// its working directories, its user through the permission engine, its
// model behind [SamplingRule] rules). The SDK answers both the classic
// server-to-client requests and the input requests of protocol
// 2026-07-28's multi round-trip calls with the same handlers.
//
// How server tools map onto the runtime contract:
//
//   - name: "mcp__" + server + "__" + tool, every character outside
//     [A-Za-z0-9_-] replaced by "_" ([ToolName]);
//   - description: cut to [MaxDescriptionLength] characters;
//   - input schema: passed through unchanged; Decode only checks that the
//     input is a JSON object holding the schema's required keys (the server
//     validates the rest);
//   - annotations: readOnlyHint makes the tool read-only and
//     concurrency-safe, destructiveHint makes it destructive; absent hints
//     get the fail-closed answer (false);
//   - deferral: every MCP tool is deferred (ShouldDefer) unless its _meta
//     holds "anthropic/alwaysLoad": true ([MetaAlwaysLoad]), which makes
//     AlwaysLoad true; "anthropic/searchHint" in _meta becomes the search
//     hint ([MetaSearchHint]);
//   - interrupts cancel the call (the SDK sends notifications/cancelled);
//   - results: text and image content become text and image blocks,
//     other content is described in text; isError becomes an is_error
//     result.
//
// As a server, [Serve] exposes runtime tools over MCP (agentcore mcp
// serve), each call run by a caller-supplied [Runner].
package mcp
