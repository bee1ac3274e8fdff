// Package runtime is the tool protocol of agentcore and the engine around it.
//
// Every tool, generated from a tooldef or dynamic (MCP), satisfies [Tool]:
// a name and aliases, an input schema with decode and validation, layered
// permission checks and scheduling attributes, a Call that reports progress
// and returns a [Result] with an optional [ContextModifier], and six render
// methods. What a tool does not declare gets the fail-closed answer (see
// DESIGN §2): not concurrency-safe, not read-only, not destructive, enabled,
// permission deferred to the rules, interrupt behaviour block.
//
// The runtime knows nothing of any concrete tool: it never imports the
// generated or tooldefs packages.
package runtime
