// Package permission decides whether a tool call may run: Claude Code's
// permission pipeline, in Go.
//
// # Rules
//
// Rules come from settings files (read by runtime/settings) and
// command-line flags and use Claude Code's syntax. A rule names a tool, optionally with content in
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
//	McpSampling              sampling requests of every MCP server (no tool:
//	McpSampling(github)      the server "github" has the session's model answer
//	                         a prompt; see runtime/mcp.SamplingRule)
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
//  3. safety checks: writes to protected paths (ProtectedPaths: .git/,
//     .ssh/, the settings files and the skills, agents, commands and hooks
//     folders of .agentcore/ and .claude/, .mcp.json, .vscode/ and .idea/
//     task, launch and settings files, shell start-up files such as
//     .bashrc and .profile; case-insensitive) and to files
//     with more than one hard link
//     ask in every mode; paths outside the working directories ask unless an
//     allow rule names them (symlinks are resolved first, with
//     runtime/fspath as the file tools do: a dangling link is judged by its
//     target, and a path whose links loop counts as outside)
//  4. the tool's own CheckPermissions: deny, ask (allowed in bypass) or allow
//  5. the mode: plan denies calls that are not read-only; bypassPermissions
//     allows; read-only calls inside the working directories are allowed
//     (not network fetches, not MCP tools, and shell lines only when nothing
//     in them taints them and their path arguments stay inside, symlinks
//     followed); acceptEdits allows writes inside the working directories,
//     and a shell line whose only effects are such writes (mkdir, touch,
//     cp, mv, rm, tee, sed -i, echo/printf/cat into a redirection)
//  6. allow rules: allow
//  7. otherwise: ask
//
// CanUseTool resolves "ask" with an ask.Asker (runtime/ask: a TTY
// prompt, or a deny in non-interactive runs); dontAsk mode turns every "ask" into a deny.
//
// # Use
//
//	engine, err := permission.Load(cwd, home, permission.Sources{
//		SettingsFiles: true, Rules: rules, Mode: mode, AddDirs: dirs,
//	})
//	engine.SetAsker(ask.NewPrompt(os.Stdin, os.Stderr)) // or ask.NonInteractive{}
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
// command line only when every simple command in it is allowed and every
// file it writes passes (see below), and never when the line contains
// command or process substitution, eval, a nested shell, a function
// definition, a bare assignment, or a redirection from a file outside the
// working directories. An allow rule for a wrapper lets the wrapper run,
// not start another program: Bash(timeout:*), Bash(sudo:*) or
// Bash(xargs:*) do not cover "timeout 5 rm x"; a rule that names the
// wrapped program (Bash(timeout 5 make:*)) does, and the transparent
// wrappers timeout, nice, nohup, stdbuf, time, command and a plain env
// pass the rule of what they run (Bash(rm:*) covers "timeout 5 rm x").
//
// Words are read as bash 5.2 makes them (shell_expand.go): brace
// expansion is done before rules match ({rm,-rf,x} is rm -rf x), and
// nothing a prefix rule allows may run code out of sight — an indirect
// expansion ${!x}, ${x@P}, ${x:=…}, arithmetic or a subscript on a
// variable ($((x)), ${a[i]}, ${s:x}; a variable's value is evaluated and a
// subscript in it runs $(…)), printf -v, read, mapfile or declare into a
// subscript or a variable that changes what runs, declare -n/-i, test -v
// with a subscript, hash -p, enable, and assignments to PATH, IFS,
// BASH_ENV, ENV, PROMPT_COMMAND, HOME, GOFLAGS, LD_*, GIT_*, TAR_OPTIONS
// and the other variables SensitiveVariable lists. A comment that ends in
// a backslash and a here-doc whose terminator bash finds on a continued
// line (where the parser reads the next line differently from bash) ask in
// every mode.
//
// # Reads in shell commands
//
// Deny rules of the read-path family (Read(./secrets/**)) hold for a
// shell line's reads as for Read (shell_reads.go): input redirections,
// every literal operand and option value (git's REV:path too, from the
// working directory and the project root), globs expanded against the
// file system, and everything under a directory given to a program that
// reads trees (grep -r, rg, tar, cp -r, git, find -exec). An operand
// known only at run time ($X/key, "$(…)") of any program but those that
// read no files (echo, printf, test, cd…) may be any path, and so asks
// whenever such a deny rule exists; git archive, grep, show, diff,
// format-patch and log -p with no pathspec print files across the whole
// tree and count as reading it. Such a read asks (the analysis may take
// a word that is not read for a path).
// Grep and Glob leave what those rules cover out of their walk and say
// so in the result (runtime.ReadGuard).
//
// # Writes in shell commands
//
// A file a command line writes is judged exactly as a Write of that path
// would be, whatever allows the command — a prefix rule such as
// Bash(echo:*) lets echo run, not write notes.txt:
//
//   - a deny rule of the edit-path family (Edit(...), Write(...)) that
//     matches the path denies the whole line, in every mode;
//   - such an ask rule, or a protected path, asks in every mode (no rule
//     covers it; a non-interactive run denies);
//   - bypassPermissions allows the rest, and so does a blanket allow rule
//     for the tool (Bash), as in Claude Code;
//   - acceptEdits allows a write inside the working directories, and an
//     Edit(...) or Write(...) allow rule one it covers, also outside;
//   - anything else asks, and the message names the path: "Output
//     redirection to 'notes.txt' (/abs/notes.txt) needs approval". The
//     prompt offers no "always" rule, since no Bash rule would cover it.
//
// A target known only at run time — $VAR, $(…), a glob, ~user, {} of find
// -exec or xargs, a relative path after a cd the analysis cannot follow
// (cd - before any cd of the line, a cd in a loop, to a path that is not
// literal) — never passes a
// rule or a mode. A relative path is placed against the call's working
// directory and, after cd, pushd or popd, against every directory the
// shell may be in when the command runs: the analysis follows the line
// through lists, && and ||, pipelines, subshells and groups (a cd that
// may fail leaves both directories possible: "cd a; touch x" is judged
// in a and in .; "cd a && touch x" only in a; "(cd a && make) && touch
// y" puts y in .; cd - returns to the directory the line left). Where it
// cannot follow (a cd inside a loop, if, function or substitution, or
// behind a wrapper, pushd's rotations, options other than -P and -L), it
// places the path against every directory any cd may lead to; every
// place must pass. A command that writes files of names known only at run
// time into a directory (wget, curl -O, tar -x, git format-patch -o, cp
// of a glob into a directory, rm -r of a directory) passes only in
// acceptEdits mode inside the working directories, and asks whenever an
// edit-path deny or ask rule could concern the directory.
//
// The writes found (shell_targets.go, shellwrite.go):
//
//	>  >>  >|  1>  2>  2>>  &>  &>>  >&FILE  <>   output redirections
//	tee, sponge, touch, truncate, mkdir, rmdir, mkfifo, mknod
//	rm, unlink, shred, mv (sources too), cp, ln, install, rsync (destination)
//	chmod, chown, chgrp, chattr, setfacl       (-R: the directory and its files)
//	sed -i FILE, sed 'w FILE', s///w FILE      (e, s///e and -f scripts: unknown)
//	perl -i FILE, dd of=FILE, sort -o FILE, uniq IN OUT, tree -o FILE, time -o FILE
//	awk/gawk -i inplace FILE                   (a program with >, | or system, -f: unknown)
//	git --output[=]FILE (any subcommand, abbreviations too), git -C DIR …,
//	git format-patch -o DIR, git archive -o FILE, git bundle create FILE
//	find -fprint/-fprint0/-fprintf/-fls FILE, find -delete (start paths),
//	find -exec/-execdir/-ok CMD (CMD judged as a command of the line)
//	curl -o/-c/-D/--trace/--stderr/--libcurl/--etag-save FILE, curl -O/-J (a name in
//	--output-dir), curl -K (unknown), wget -O/-o/-a FILE, wget (a name in -P)
//	tar -c/-r/-u -f FILE, tar -x (names in -C), tar -I/--to-command (unknown)
//	tar --index-file/--listed-incremental FILE, xxd IN OUT, shuf -o FILE, zip ARCHIVE,
//	ssh -E FILE, vim -w FILE, less -o FILE, and every other option or operand the
//	programs table (runtime/shellprog) marks as writing a path
//	xargs CMD, or a writer behind any wrapper, fed arguments at run time (unknown)
//	/dev/null, /dev/stdout, /dev/stderr, /dev/stdin, /dev/tty, /dev/fd/N and
//	fd duplications (2>&1, >&2, 3>&-) write no file and stay free
//
// A command not listed (make, python -c, npm…) may write anything; a
// prefix rule for it allows whatever it does, as in Claude Code.
//
// # Options that run programs
//
// The programs table (runtime/shellprog, which the read-only verdict
// reads too) says per program which options and operands read a path,
// write one, run a program or reach the network. An allow rule for a
// program lets it run; it does not let it start another: an option the
// table says runs a program or reaches the network (git -c alias.x=!…,
// git -c core.pager=…, --upload-pack, --exec, git grep -O, rg --pre, ssh
// -o ProxyCommand, tar --to-command, sort --compress-program, zip -TT,
// vim -c and +cmd, make --eval, npm --script-shell, wget -e) keeps every
// prefix rule from covering the line, and so does an option the table
// does not know of a program whose options it lists whole (git's global
// options, sed, sort, uniq, shuf, xxd): the call asks, and the message
// names the option. A deny or ask rule on "git <subcommand>" also meets
// git with global options before the subcommand (git -C dir push). A line
// whose classifier verdict is read-only but that writes is not read-only:
// plan mode refuses it and default mode does not run it unasked.
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
// curl -o, wget -O, find -delete/-fprint and the other writes listed
// above (sort -o, git --output…). Paths
// are resolved against the command's working directory with symlinks
// followed (a final symlink that rm or mv acts on is not), and a
// recursive delete, move or chmod -R of a directory that holds a
// .git or .agentcore (".", "..", the project root) counts too. What a
// command copies is looked at (protected.go): the trees cp -r, mv and
// rsync copy ("cp -r payload/. ." planting .git/hooks/pre-commit), the
// files a glob hands them, and the members tar -x and unzip extract (an
// archive the analysis cannot list asks). The check
// is conservative where only the shell knows: an argument that is not
// literal ($X, "$X"/y, $(…)), a glob or brace pattern that could match
// .git or .agentcore (.g*, .[g]it, .*, {x,.git}), arguments that xargs or
// find -exec's {} supply (also inside sh -c code they run), code for
// eval or sh -c that is not literal and names .git or .agentcore, and
// relative paths after a cd, pushd, env -C or sudo -D that may enter a
// protected directory all ask. Reading protected paths (cat .git/HEAD,
// ls .git) is not affected, and git's own writes to .git (commit, gc…)
// are left alone, that being its job; only its output-file options are
// judged.
package permission
