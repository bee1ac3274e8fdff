// Package classify analyses shell commands: whether a command only reads
// (so the Bash tool may run it beside other read-only calls and treat it
// as read-only), whether it is a search or a read (so it can be rendered
// compactly), and whether it is destructive.
//
// Commands are parsed and their words read by runtime/shellsyntax, the
// same reading the permission engine matches its rules against, so the
// verdict that auto-allows a command and the rules judge one command.
//
// Everything here fails closed: a command that does not parse, or that uses a
// construct the analysis does not understand, is neither read-only nor a
// search/read.
package classify
