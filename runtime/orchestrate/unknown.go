package orchestrate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/agentcore/agentcore/runtime"
)

// unknownToolError is the answer to a call of a tool that is not
// available: Claude Code's wording, then the nearest names, so the model
// can correct a slip ("bash", "ReadFile") in its next call.
func unknownToolError(tools []runtime.Tool, name string) error {
	near := nearestNames(tools, name, 3)
	if len(near) == 0 {
		return fmt.Errorf("Error: No such tool available: %s", name)
	}
	return fmt.Errorf("Error: No such tool available: %s. Did you mean %s?", name, orList(near))
}

// nearestNames returns up to n tool names close to name: the same name in
// another case, a name one contains the other of, or one within a few
// edits (a third of the name's length, at least two), nearest first.
func nearestNames(tools []runtime.Tool, name string, n int) []string {
	type candidate struct {
		name string
		dist int
	}
	lower := strings.ToLower(name)
	var found []candidate
	for _, t := range tools {
		tn, crash := runtime.Guard("Name", t.Name)
		if crash != nil || tn == "" || tn == name {
			continue
		}
		l := strings.ToLower(tn)
		d := editDistance(lower, l)
		switch {
		case l == lower:
			d = 0
		case len(lower) >= 4 && len(l) >= 4 && (strings.Contains(l, lower) || strings.Contains(lower, l)):
			d = min(d, 1)
		case d > max(2, len(lower)/3):
			continue
		}
		found = append(found, candidate{tn, d})
	}
	slices.SortStableFunc(found, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(a.dist, b.dist), strings.Compare(a.name, b.name))
	})
	var names []string
	for _, c := range found[:min(n, len(found))] {
		names = append(names, c.name)
	}
	return names
}

// orList joins names as "A", "A or B", "A, B or C".
func orList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// editDistance is the Levenshtein distance of a and b, in bytes (tool
// names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
