// Package permission decides whether a tool call may run: Claude Code's
// permission pipeline, in Go.
//
// # Rules
//
// Rules come from settings files and command-line flags and use Claude
// Code's syntax. A rule names a tool, optionally with content in
// parentheses:
//
//	Bash                     every Bash call
//	Bash(npm run test:*)     "npm run test" and "npm run test …" (word boundary)
//	Bash(git * main)         * matches anything; a trailing " *" is optional
//	Bash(npm install)        exactly that command
//	Read(./secrets/**)       gitignore-style path patterns, see below
//	Edit(src/**)             applies to every tool that writes files
//	WebFetch(domain:x.com)   fetches of that host
//	mcp__github              every tool of the MCP server "github"
//	mcp__github__*           the same
//	mcp__github__get_issue   one MCP tool
//
// Path patterns follow gitignore with four roots: "//abs/path" (from the
// file-system root), "~/path" (from the home directory), "/path" (from the
// project root) and "path" or "./path" (from the directory agentcore was
// started in). A pattern without a slash, such as "*.env", matches at any
// depth. Read rules apply to every tool that reads files (Read, Grep,
// Glob…), Edit rules to every tool that writes files (Edit, Write,
// NotebookEdit…), and a rule naming the tool itself always applies.
//
// # Order
//
// Every call goes through the same steps; the first that decides wins:
//
//  1. deny rules: deny (also in bypassPermissions mode)
//  2. ask rules: ask (also in bypassPermissions mode)
//  3. safety checks: writes to protected paths (.git/, .agentcore/settings*.json)
//     ask in every mode; paths outside the working directories ask unless an
//     allow rule names them (symlinks are resolved first, with
//     runtime/fspath as the file tools do: a dangling link is judged by its
//     target, and a path whose links loop counts as outside)
//  4. the tool's own CheckPermissions: deny, ask (allowed in bypass) or allow
//  5. the mode: plan denies calls that are not read-only; bypassPermissions
//     allows; read-only calls inside the working directories are allowed
//     (not network fetches, not MCP tools, and shell lines only when nothing
//     in them taints them and their path arguments stay inside); acceptEdits
//     allows writes inside the working directories
//  6. allow rules: allow
//  7. otherwise: ask
//
// CanUseTool resolves "ask" with an Asker (a TTY prompt, or a deny in
// non-interactive runs); dontAsk mode turns every "ask" into a deny.
//
// # Use
//
//	engine, err := permission.Load(cwd, home, permission.Flags{
//		AllowedTools: allowed, DisallowedTools: disallowed,
//		PermissionMode: mode, AddDirs: dirs,
//	})
//	engine.SetAsker(permission.NewPrompt(os.Stdin, os.Stderr)) // or NonInteractive{}
//	executor.CanUseTool = engine.CanUseTool     // the orchestrator's hook
//	poolOptions.DenyTool = engine.DeniesTool    // blanket denies hide tools
//
// # Shell commands
//
// Bash commands are parsed and their words read by runtime/shellsyntax
// (mvdan.cc/sh/v3), the reading the shell tool's read-only verdict uses
// too; they are never split with regular expressions. A line longer than
// shellsyntax.MaxCommandLen is not analysed: no allow rule covers it and
// it asks in every mode. Deny and ask rules match when any simple command
// of the line matches — including commands inside substitutions, eval and
// "bash -c" strings, function bodies and loops — and they see through
// leading VAR=x assignments and the wrappers env, timeout, nice, nohup,
// stdbuf, time, command, sudo, xargs and find -exec. An allow rule passes a
// command line only when every simple command in it is allowed, and never
// when the line contains command or process substitution, eval, a nested
// shell, a function definition, a bare assignment, or a redirection to a
// file outside the working directories.
//
// # Protected paths in shell commands
//
// A command line that writes to or deletes a protected path asks in every
// mode, bypassPermissions included (a non-interactive run denies it), and
// the message names the path. That covers redirections and the usual
// file-changing commands: rm, unlink, rmdir, mkdir, mv (sources and
// destination), cp, ln and install (destination, and the file a source
// becomes in a destination directory), tee, touch, truncate, chmod,
// chown, chgrp, sed -i, perl -i, dd of=, sponge, rsync (destination),
// curl -o, wget -O and find -delete/-fprint. Paths
// are resolved against the command's working directory with symlinks
// followed (a final symlink that rm or mv acts on is not), and a
// recursive delete, move or chmod -R of a directory that holds a
// .git or .agentcore (".", "..", the project root) counts too. The check
// is conservative where only the shell knows: an argument that is not
// literal ($X, "$X"/y, $(…)), a glob or brace pattern that could match
// .git or .agentcore (.g*, .[g]it, .*, {x,.git}), arguments that xargs or
// find -exec's {} supply (also inside sh -c code they run), code for
// eval or sh -c that is not literal and names .git or .agentcore, and
// relative paths after a cd, pushd, env -C or sudo -D that may enter a
// protected directory all ask. Reading protected paths (cat .git/HEAD,
// ls .git) is not affected, and git is left alone: git writing .git is
// its job.
package permission
