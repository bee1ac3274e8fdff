package awscreds

import (
	"bufio"
	"bytes"
	"strings"
)

// sections is a parsed AWS shared config or credentials file: the
// section names as written (without brackets) to their keys, lower-cased,
// and values.
type sections map[string]map[string]string

// parseINI reads the AWS CLI's INI dialect: "[name]" sections, "key =
// value" lines, full-line comments starting with # or ;, and indented
// lines that continue a nested key (s3 = ↵ max_concurrent_requests = …),
// which no credential setting uses and are skipped. A later section or
// key of the same name adds to or replaces the earlier one, as the AWS
// CLI does.
func parseINI(data []byte) sections {
	out := sections{}
	var cur map[string]string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		raw := sc.Text()
		line := strings.TrimSpace(raw)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				cur = nil
				continue
			}
			name := strings.Join(strings.Fields(line[1:end]), " ")
			if out[name] == nil {
				out[name] = map[string]string{}
			}
			cur = out[name]
			continue
		}
		if cur == nil || raw[0] == ' ' || raw[0] == '\t' {
			continue // outside a section, or a nested key's line
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		if i := strings.Index(value, " #"); i >= 0 {
			value = strings.TrimSpace(value[:i]) // an inline comment
		} else if i := strings.Index(value, " ;"); i >= 0 {
			value = strings.TrimSpace(value[:i])
		}
		cur[strings.ToLower(strings.TrimSpace(key))] = value
	}
	return out
}
