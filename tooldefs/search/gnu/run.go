// Package gnu is agentcore's grep, with GNU grep 3.8's options, output and
// exit statuses, which the ant build's Bash commands run (see package
// multicall). It leaves regular expressions to its caller's Compiler
// (package regex's), and imports, as package find does, only standard
// packages that a Go program initialises among its first, so that a grep
// whose pattern is a plain string can start before the rest of a large
// program (GrepLiteral, package multicall/early).
package gnu
