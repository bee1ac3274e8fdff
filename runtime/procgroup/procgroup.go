// Package procgroup runs a command as the leader of a process group of its
// own and ends the whole group: the Bash tool's commands, hooks and stdio
// MCP servers, so that what they start in the background ends with them.
//
// On Unix a group is a POSIX process group (setpgid) and Terminate and
// Kill send SIGTERM and SIGKILL to it. Windows has no process groups that
// can be signalled: Own starts the command with CREATE_NEW_PROCESS_GROUP
// (the console's Ctrl+C does not reach it) and Terminate and Kill end the
// process and its descendants with taskkill /T /F, as Claude Code does
// (tree-kill); a descendant whose parent already exited is not found.
package procgroup
