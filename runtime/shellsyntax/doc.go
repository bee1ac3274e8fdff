// Package shellsyntax reads bash command lines without running them: the
// one parser and word evaluator behind every analysis of a Bash command in
// agentcore. The permission engine (runtime/permission) matches its rules
// against what this package reads, and the read-only classifier
// (tooldefs/shell/classify) judges the same reading, so a command cannot
// look one way to the check that auto-allows it and another way to the
// rules.
//
// # Parsing
//
// Parse parses a command line as bash with mvdan.cc/sh/v3/syntax. A line
// longer than MaxCommandLen is not parsed at all: Parse returns a
// *TooLongError, and callers fail closed (the classifier calls such a line
// not read-only; the permission engine asks in every mode).
//
// # Simple commands
//
// SimpleCommands lists every simple command of a parsed line in source
// order, nested ones included: in pipelines and lists, subshells and
// groups, if/for/while/case bodies, function bodies, command and process
// substitutions (also in here-documents, assignments and parameter
// expansions). A simple command is a call (a *syntax.CallExpr: the
// NAME=value prefixes and the words) or a declaration (declare, export,
// local, readonly, typeset, nameref: the builtin's name, then its
// arguments as words, NAME=value included), with the redirections of its
// statement. A bare assignment (x=1) is a call with Assigns and no Args.
// CommandOf reads the simple command of one statement, for analyses that
// walk the tree themselves.
//
// # Words
//
// EvalWord evaluates one word as far as the parser can, without running
// anything:
//
//   - quote removal: 'single' and "double" quotes go, a backslash outside
//     quotes escapes the next character, inside double quotes only $ ` " \
//     and newline; a backslash-newline disappears;
//   - $'…' strings are decoded as bash decodes them in a UTF-8 locale:
//     \a \b \e \E \f \n \r \t \v \\ \' \" \?, octal \nnn, \xHH and
//     \x{H…}, \uHHHH, \UHHHHHHHH, control characters \cX; an unknown
//     escape keeps its backslash, and the string ends at the first NUL it
//     produces ($'rm\0x' is "rm");
//   - anything else (parameter expansion, command, arithmetic and process
//     substitution, $"…", extended globs) is only known at run time: the
//     word is not Literal, Value keeps those parts in their source form
//     and Source holds the whole word as written.
//
// A Literal word may still change at run time by pathname expansion
// (*, ?, […]), brace expansion ({a,b}, {1..3}) or tilde expansion (~ at
// the start, or after = or : ); a Static word is Literal and has none of
// those, so Value is exactly the argument the program receives. The
// expansion check is conservative: when unsure it says the word expands.
//
// # Redirections
//
// SimpleCommand.Redirs are the statement's redirections as parsed;
// DupFD tells a file-descriptor duplication, move or close (2>&1, >&3-,
// <&-) from a redirection that opens a file.
package shellsyntax
