// Package procgroup runs a command as the leader of a process group of its
// own and ends the whole group: the Bash tool's commands, hooks and stdio
// MCP servers, so that what they start in the background ends with them.
//
// On Unix a group is a POSIX process group (setpgid) and Terminate and
// Kill send SIGTERM and SIGKILL to it. Windows has no process groups that
// can be signalled: Start runs the command in a Job object of its own
// (started suspended, resumed once inside, so every descendant joins it)
// and Terminate and Kill end the job; the job also ends when this process
// does. A command started outside Start (Own, then its own Start) is
// ended with taskkill /T /F, as Claude Code does (tree-kill), which misses
// a descendant whose parent already exited.
package procgroup
