package walk

import (
	"bufio"
	"bytes"
	"strings"
)

// Match is the verdict of an ignore rule set on one path.
type Match int

const (
	// None: no rule matched.
	None Match = iota
	// Ignore: a rule excludes the path.
	Ignore
	// Whitelist: a negated (`!`) rule re-includes the path.
	Whitelist
)

// rule is one line of an ignore file.
type rule struct {
	pat       *Pattern
	whitelist bool
	dirOnly   bool
}

// IgnoreFile is a parsed .gitignore-style file. Matching follows ripgrep's
// ignore crate: the last matching line wins, `!` re-includes, a trailing
// `/` matches directories only, a pattern with an inner or leading `/` is
// anchored to the file's directory, any other pattern matches at any depth.
type IgnoreFile struct {
	rules []rule
}

// ParseIgnore parses the content of a .gitignore-style file. Lines that
// are not valid globs are skipped, as git and ripgrep do.
func ParseIgnore(data []byte) *IgnoreFile {
	f := &IgnoreFile{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		r, ok := parseIgnoreLine(sc.Text(), false)
		if ok {
			f.rules = append(f.rules, r)
		}
	}
	return f
}

// parseIgnoreLine turns one gitignore line into a rule. invert flips the
// meaning of `!`, for ripgrep's --glob overrides (where a bare glob
// includes and `!glob` excludes).
func parseIgnoreLine(line string, invert bool) (rule, bool) {
	line = strings.TrimSuffix(line, "\r")
	if strings.HasPrefix(line, "#") {
		return rule{}, false
	}
	if !strings.HasSuffix(line, `\ `) {
		line = strings.TrimRight(line, " \t")
	}
	if line == "" {
		return rule{}, false
	}
	var r rule
	if strings.HasPrefix(line, "!") {
		r.whitelist = true
		line = line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if invert {
		r.whitelist = !r.whitelist
	}
	anchored := false
	if strings.HasPrefix(line, "/") {
		anchored = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = strings.TrimSuffix(line, "/")
	}
	if line == "" {
		return rule{}, false
	}
	if !anchored && !strings.Contains(line, "/") && !strings.HasPrefix(line, "**/") {
		line = "**/" + line
	}
	if strings.HasSuffix(line, "/**") {
		line += "/*"
	}
	p, err := CompilePattern(line)
	if err != nil {
		return rule{}, false
	}
	r.pat = p
	return r, true
}

// Match reports the verdict for a slash-separated path relative to the
// ignore file's directory.
func (f *IgnoreFile) Match(rel string, isDir bool) Match {
	if f == nil {
		return None
	}
	for i := len(f.rules) - 1; i >= 0; i-- {
		r := &f.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		if r.pat.Match(rel) {
			if r.whitelist {
				return Whitelist
			}
			return Ignore
		}
	}
	return None
}

// overrides are ripgrep's --glob rules: a bare glob includes, `!glob`
// excludes, the last match wins, and when any include glob exists a file
// matching none of them is excluded. They take precedence over every other
// filter, ignore files and hidden-file rules included.
type overrides struct {
	f          IgnoreFile
	whitelists int
}

func compileOverrides(globs []string) (*overrides, error) {
	if len(globs) == 0 {
		return nil, nil
	}
	o := &overrides{}
	for _, g := range globs {
		r, ok := parseIgnoreLine(g, true)
		if !ok {
			body := strings.TrimPrefix(g, "!")
			if _, err := CompilePattern(body); err != nil {
				return nil, err
			}
			continue
		}
		if r.whitelist {
			o.whitelists++
		}
		o.f.rules = append(o.f.rules, r)
	}
	return o, nil
}

func (o *overrides) match(rel string, isDir bool) Match {
	if o == nil {
		return None
	}
	m := o.f.Match(rel, isDir)
	if m == None && o.whitelists > 0 && !isDir {
		return Ignore
	}
	return m
}
