package permission

import (
	"path/filepath"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// This file finds what bash does to a line's words that a prefix rule
// cannot see: expansions that run code or reach a variable an attacker
// may have set (arithmetic evaluates a variable's value as an
// expression, and a subscript in it runs $(…)), builtins that assign to
// a variable named at run time, and assignments to the variables that
// decide which program runs or what it loads. Each taints the line, so
// only the user (or a blanket allow) lets it run.

// sensitiveVars are variables whose value changes what a program runs,
// loads or reads as configuration (beyond its arguments): assigning one
// can turn an allowed command into another program.
// Built at first use, not before main.
var sensitiveVars = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"PATH": true, "IFS": true, "BASH_ENV": true, "ENV": true, "PROMPT_COMMAND": true, "PS0": true,
		"PS1": true, "PS2": true, "PS4": true, "CDPATH": true, "GLOBIGNORE": true, "SHELLOPTS": true,
		"BASHOPTS": true, "BASH_LOADABLES_PATH": true, "BASH_XTRACEFD": true, "HOME": true, "SHELL": true,
		"EXECIGNORE": true, "FPATH": true, "HISTFILE": true, "INPUTRC": true, "ZDOTDIR": true, "TMPDIR": true,
		"GOFLAGS": true, "GOENV": true, "GOTOOLCHAIN": true, "GOPROXY": true, "GOROOT": true, "GOPATH": true,
		"GOBIN": true, "CGO_CFLAGS": true, "CGO_LDFLAGS": true, "CC": true, "CXX": true, "AR": true,
		"CFLAGS": true, "LDFLAGS": true, "MAKEFLAGS": true, "MAKEFILES": true, "MFLAGS": true,
		"PAGER": true, "MANPAGER": true, "EDITOR": true, "VISUAL": true, "BROWSER": true, "LESSOPEN": true,
		"LESSCLOSE": true, "LESS": true, "LESSKEY": true, "LESSKEYIN": true, "SYSTEMD_PAGER": true,
		"PYTHONPATH": true, "PYTHONSTARTUP": true, "PYTHONHOME": true, "PYTHONUSERBASE": true,
		"PYTHONINSPECT": true, "PYTHONWARNINGS": true, "NODE_OPTIONS": true, "NODE_PATH": true,
		"PERL5OPT": true, "PERL5LIB": true, "PERLLIB": true, "PERL5DB": true, "RUBYOPT": true, "RUBYLIB": true,
		"JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true, "CLASSPATH": true,
		"RUSTC_WRAPPER": true, "RUSTC": true, "RUSTFLAGS": true, "CARGO_HOME": true, "CARGO_BUILD_RUSTC_WRAPPER": true,
		"GCONV_PATH": true, "LOCPATH": true, "NLSPATH": true, "HOSTALIASES": true, "OPENSSL_CONF": true,
		"OPENSSL_ENGINES": true, "SSL_CERT_FILE": true, "SSL_CERT_DIR": true, "CURL_HOME": true, "WGETRC": true,
		"NETRC": true, "XDG_CONFIG_HOME": true, "XDG_CONFIG_DIRS": true, "XDG_DATA_HOME": true,
		"TAR_OPTIONS": true, "GZIP": true, "XZ_OPT": true, "XZ_DEFAULTS": true, "ZSTD_CLEVEL": false,
		"BZIP2": true, "ZIPOPT": true, "UNZIP": true, "RSYNC_RSH": true, "RSYNC_CONNECT_PROG": true,
		"SSH_ASKPASS": true, "SUDO_ASKPASS": true, "SSH_AUTH_SOCK": true, "GNUPGHOME": true, "GPG_TTY": false,
		"http_proxy": true, "https_proxy": true, "HTTP_PROXY": true, "HTTPS_PROXY": true, "ALL_PROXY": true,
		"all_proxy": true, "NO_PROXY": true, "no_proxy": true, "npm_config_script_shell": true,
		"NPM_CONFIG_SCRIPT_SHELL": true, "NPM_CONFIG_USERCONFIG": true, "npm_config_userconfig": true,
		"NPM_CONFIG_GLOBALCONFIG": true, "YARN_RC_FILENAME": true, "BUNDLE_GEMFILE": true, "KUBECONFIG": true,
		"DOCKER_HOST": true, "DOCKER_CONFIG": true, "TERMINFO": true, "TERMINFO_DIRS": true, "MAIL": false,
		// Harmless members of the prefixed families below.
		"PYTHONUNBUFFERED": false, "PYTHONDONTWRITEBYTECODE": false, "PYTHONIOENCODING": false,
		"CARGO_TERM_COLOR": false, "GIT_TERMINAL_PROMPT": false, "GIT_AUTHOR_NAME": false,
		"GIT_AUTHOR_EMAIL": false, "GIT_COMMITTER_NAME": false, "GIT_COMMITTER_EMAIL": false,
		"GIT_AUTHOR_DATE": false, "GIT_COMMITTER_DATE": false,
	}
})

// sensitivePrefixes are families of such variables: the dynamic loader's
// (LD_PRELOAD, LD_LIBRARY_PATH, DYLD_*), git's (GIT_SSH_COMMAND,
// GIT_CONFIG_*, GIT_EXTERNAL_DIFF, GIT_DIR…), and tools that read their
// options from the environment.
var sensitivePrefixes = []string{"LD_", "DYLD_", "GIT_", "BASH_FUNC_", "NPM_CONFIG_", "npm_config_", "PIP_", "PYTHON", "CARGO_", "MAVEN_", "GRADLE_"}

// SensitiveVariable reports whether assigning the variable name can
// change which program a command runs or what it loads: PATH, IFS,
// BASH_ENV, GOFLAGS, LD_*, GIT_* and the like. Such an assignment makes a
// shell line ask.
func SensitiveVariable(name string) bool {
	if v, ok := sensitiveVars()[name]; ok {
		return v
	}
	for _, p := range sensitivePrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// expansionTaint taints the node of the parse tree when it is an
// expansion or assignment that can run code or change what runs; the
// syntax.Walk of analyzeInto calls it for every node.
func expansionTaint(a *shellAnalysis, n syntax.Node) {
	switch n := n.(type) {
	case *syntax.ParamExp:
		paramTaint(a, n)
	case *syntax.ArithmExp:
		if arithRefs(n.X) {
			a.taint("arithmetic on a variable ($((…)) evaluates its value, which can run commands)")
		}
	case *syntax.Assign:
		if n.Name != nil && SensitiveVariable(n.Name.Value) && !harmlessValue(n.Name.Value, n.Value) {
			a.taint("an assignment to %s, which changes what programs run", n.Name.Value)
		}
		if n.Index != nil && arithRefs(n.Index) {
			a.taint("an array subscript that is not a number (bash evaluates it, which can run commands)")
		}
		if n.Array != nil {
			for _, el := range n.Array.Elems {
				if el.Index != nil && arithRefs(el.Index) {
					a.taint("an array subscript that is not a number (bash evaluates it, which can run commands)")
				}
			}
		}
	case *syntax.DeclClause:
		for _, as := range n.Args {
			if !as.Naked || as.Value == nil {
				continue
			}
			lit := as.Value.Lit()
			switch {
			case lit == "" && len(as.Value.Parts) > 0:
				a.taint("a %s argument that is not literal", variantOf(n))
			case strings.HasPrefix(lit, "-") || strings.HasPrefix(lit, "+"):
				if strings.ContainsAny(lit[1:], "ni") {
					a.taint("%s %s (a name reference or an integer variable evaluates values as names or arithmetic)", variantOf(n), lit)
				}
			case SensitiveVariable(lit):
				a.taint("%s %s, which changes what programs run", variantOf(n), lit)
			}
		}
	case *syntax.ForClause:
		if wi, ok := n.Loop.(*syntax.WordIter); ok && wi.Name != nil && SensitiveVariable(wi.Name.Value) {
			a.taint("a for loop assigning %s", wi.Name.Value)
		}
	}
}

// harmlessValue reports the values of sensitive variables that are safe
// whatever runs: a pager set to cat or to nothing.
func harmlessValue(name string, v *syntax.Word) bool {
	if !strings.HasSuffix(name, "PAGER") {
		return false
	}
	if v == nil {
		return true
	}
	l := v.Lit()
	return (l == "cat" || l == "") && (l != "" || len(v.Parts) == 0)
}

func variantOf(d *syntax.DeclClause) string {
	if d.Variant != nil {
		return d.Variant.Value
	}
	return "declare"
}

// paramTaint taints the parameter expansions that run code or reach a
// variable named at run time.
func paramTaint(a *shellAnalysis, p *syntax.ParamExp) {
	switch {
	case p.Excl && p.Names == 0 && !(p.Index != nil && isAllIndex(p.Index)):
		a.taint("an indirect expansion ${!…} (it expands a variable named at run time, which can run commands)")
	case p.Exp != nil && (p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull):
		name := ""
		if p.Param != nil {
			name = p.Param.Value
		}
		a.taint("an assignment in an expansion (${%s:=…})", name)
	case p.Exp != nil && p.Exp.Op == syntax.OtherParamOps && p.Exp.Word != nil && p.Exp.Word.Lit() != "Q" && p.Exp.Word.Lit() != "a" && p.Exp.Word.Lit() != "A":
		// @P expands the value as a prompt, running its $(…).
		a.taint("the expansion ${…@%s} (it expands the value again, which can run commands)", p.Exp.Word.Lit())
	}
	if p.Index != nil && !isAllIndex(p.Index) && arithRefs(p.Index) {
		a.taint("an array subscript that is not a number (bash evaluates it, which can run commands)")
	}
	if p.Slice != nil && (arithRefs(p.Slice.Offset) || arithRefs(p.Slice.Length)) {
		a.taint("a substring offset that is not a number (bash evaluates it, which can run commands)")
	}
}

// isAllIndex reports whether a subscript is @ or *.
func isAllIndex(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok {
		return false
	}
	l := w.Lit()
	return l == "@" || l == "*"
}

// arithRefs reports whether an arithmetic expression refers to anything
// but number literals: a variable's value is itself evaluated as an
// expression, and a subscript in it runs command substitutions.
func arithRefs(x syntax.ArithmExpr) bool {
	if x == nil {
		return false
	}
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		return arithRefs(x.X) || arithRefs(x.Y)
	case *syntax.UnaryArithm:
		return arithRefs(x.X)
	case *syntax.ParenArithm:
		return arithRefs(x.X)
	case *syntax.Word:
		l := x.Lit()
		if l == "" {
			return true // a $x, a quoted part or a substitution
		}
		return !isArithNumber(l)
	}
	return true
}

// isArithNumber reports whether s is a number literal of bash arithmetic:
// decimal, 0x hex, 0 octal or base#digits.
func isArithNumber(s string) bool {
	if s == "" {
		return false
	}
	if b, digits, ok := strings.Cut(s, "#"); ok {
		if !allDigits(b) || digits == "" {
			return false
		}
		for _, r := range digits {
			if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '@' || r == '_') {
				return false
			}
		}
		return true
	}
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		for _, r := range s[2:] {
			if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F') {
				return false
			}
		}
		return true
	}
	return allDigits(s)
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// builtinTaint taints a simple command (after its wrappers are
// unwrapped) that is a builtin assigning a variable named by its
// arguments, or changing which program a name runs.
func builtinTaint(a *shellAnalysis, c shellCmd) {
	if len(c.words) == 0 || !c.literal[0] {
		return
	}
	// Prefix assignments (PATH=x cmd) are syntax.Assign nodes, which
	// expansionTaint sees.
	name := filepath.Base(c.words[0])
	// names are the arguments that name variables.
	var names []int
	switch name {
	case "printf":
		for i := 1; i < len(c.words); i++ {
			w := c.words[i]
			if !c.literal[i] || !strings.HasPrefix(w, "-") || w == "--" {
				break
			}
			if strings.HasPrefix(w, "-v") {
				a.taint("printf -v (it assigns a variable named by its argument)")
				return
			}
		}
	case "read", "mapfile", "readarray", "getopts", "wait":
		pa := parseArgs(c, "|-a|-d|-i|-n|-N|-p|-t|-u|-C|-c|-O|-s|", "")
		for _, o := range []string{"a", "p"} {
			if i, ok := pa.optIdx[o]; ok {
				names = append(names, i)
			}
		}
		names = append(names, pa.pos...)
		if name == "getopts" && len(pa.pos) > 1 {
			names = pa.pos[1:2]
		}
		if name == "mapfile" || name == "readarray" {
			names = append(names, pa.pos...)
		}
	case "declare", "typeset", "local", "export", "readonly":
		// The parser reads these as declarations; reached here through a
		// wrapper (builtin declare, command export).
		for i := 1; i < len(c.words); i++ {
			w := c.words[i]
			if c.literal[i] && (strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+")) {
				if strings.ContainsAny(w[1:], "ni") {
					a.taint("%s %s (a name reference or an integer variable)", name, w)
				}
				continue
			}
			names = append(names, i)
		}
	case "test", "[":
		for i := 1; i+1 < len(c.words); i++ {
			if c.words[i] == "-v" && (!c.literal[i+1] || strings.Contains(c.words[i+1], "[")) {
				a.taint("%s -v with a subscript (bash evaluates it, which can run commands)", name)
			}
		}
	case "hash":
		for i := 1; i < len(c.words); i++ {
			if strings.HasPrefix(c.words[i], "-") && strings.Contains(c.words[i], "p") {
				a.taint("hash -p (it sets the program a command name runs)")
			}
		}
	case "enable":
		a.taint("enable (it loads or switches off builtins, changing what a command name runs)")
	case "env":
		for i := 1; i < len(c.words); i++ {
			w := c.words[i]
			if n, _, ok := strings.Cut(w, "="); ok && !strings.HasPrefix(w, "-") {
				if !c.literal[i] || SensitiveVariable(n) {
					a.taint("env sets %s, which changes what programs run", n)
				}
				continue
			}
			if !strings.HasPrefix(w, "-") {
				break
			}
		}
	}
	for _, i := range names {
		if i >= len(c.words) {
			continue
		}
		v, _, _ := strings.Cut(c.words[i], "=")
		switch {
		case !c.literal[i]:
			a.taint("%s assigns a variable named at run time (%s)", name, c.words[i])
		case strings.Contains(v, "["):
			a.taint("%s assigns the array element %s (bash evaluates its subscript, which can run commands)", name, v)
		case SensitiveVariable(v):
			a.taint("%s assigns %s, which changes what programs run", name, v)
		}
	}
}

// continuationTaints taints what bash 5.2 and the parser read
// differently around a backslash-newline: a comment that ends in a
// backslash (bash ends the comment at the newline; the parser continues
// it onto the next line, which hides that line's command), and a here-doc
// whose unquoted body, once bash joins its continued lines, holds its
// terminator earlier than the parser saw it (bash runs the lines after
// it as commands). Such lines ask in every mode: what they run is not
// what the analysis saw.
func continuationTaints(a *shellAnalysis, src string, f *syntax.File) {
	if !strings.Contains(src, "\\\n") {
		return
	}
	if strings.Contains(src, "#") {
		kf, err := syntax.NewParser(syntax.KeepComments(true), syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
		if err == nil {
			syntax.Walk(kf, func(n syntax.Node) bool {
				if c, ok := n.(*syntax.Comment); ok && strings.Contains(c.Text, "\\\n") {
					a.taint("a comment ending in a backslash (bash ends it at the newline; the next line is a command)")
					a.protect("the line after a comment that ends in a backslash (a command the analysis cannot see)")
				}
				return true
			})
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		r, ok := n.(*syntax.Redirect)
		if !ok || (r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc) || r.Hdoc == nil || r.Word == nil {
			return true
		}
		delim := r.Word.Lit()
		if delim == "" {
			return true // quoted: bash joins no lines of the body
		}
		start, end := r.Hdoc.Pos().Offset(), r.Hdoc.End().Offset()
		if int(end) > len(src) || start >= end {
			return true
		}
		body := src[start:end]
		if !strings.Contains(body, "\\\n") {
			return true
		}
		for _, line := range strings.Split(strings.ReplaceAll(body, "\\\n", ""), "\n") {
			if r.Op == syntax.DashHdoc {
				line = strings.TrimLeft(line, "\t")
			}
			if line == delim {
				a.taint("a here-doc that bash ends at a continued line (%s)", delim)
				a.protect("the lines after a here-doc that bash ends early (commands the analysis cannot see)")
				return false
			}
		}
		return true
	})
}
