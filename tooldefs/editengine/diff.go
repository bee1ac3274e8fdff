package editengine

import (
	"fmt"
	"strings"
)

// OpKind is the kind of one line of a diff.
type OpKind byte

// Line operations of a diff.
const (
	Equal  OpKind = ' '
	Delete OpKind = '-'
	Insert OpKind = '+'
)

// Op is one line of a diff.
type Op struct {
	// Kind says whether the line is kept, removed or added.
	Kind OpKind
	// Line is the line's text, without its terminator.
	Line string
}

// maxEditDistance bounds the Myers search; past it the differing middle is
// shown as removed then added, which is still a correct diff.
const maxEditDistance = 1000

// LineDiff returns a minimal line diff of a and b (Myers' algorithm after
// the common head and tail are trimmed). Lines are compared without their
// terminators; a CR before LF is ignored.
func LineDiff(a, b string) []Op {
	al, bl := diffLines(a), diffLines(b)
	pre := 0
	for pre < len(al) && pre < len(bl) && al[pre] == bl[pre] {
		pre++
	}
	suf := 0
	for suf < len(al)-pre && suf < len(bl)-pre && al[len(al)-1-suf] == bl[len(bl)-1-suf] {
		suf++
	}
	ops := make([]Op, 0, len(al)+len(bl)-pre-suf)
	for _, l := range al[:pre] {
		ops = append(ops, Op{Equal, l})
	}
	ops = append(ops, myers(al[pre:len(al)-suf], bl[pre:len(bl)-suf])...)
	for _, l := range al[len(al)-suf:] {
		ops = append(ops, Op{Equal, l})
	}
	return ops
}

func diffLines(s string) []string {
	if s == "" {
		return nil
	}
	return splitLines(s)
}

// myers computes the shortest edit script of a into b.
func myers(a, b []string) []Op {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replaceAll(a, b)
	}
	maxD := min(n+m, maxEditDistance)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	found := -1
	for d := 0; d <= maxD && found < 0; d++ {
		snap := make([]int, 2*d+1)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
			}
		}
		for k := -d; k <= d; k++ {
			snap[k+d] = v[off+k]
		}
		trace = append(trace, snap)
	}
	if found < 0 {
		return replaceAll(a, b)
	}
	// Walk back through the snapshots.
	var rev []Op
	x, y := n, m
	for d := found; d > 0; d-- {
		prev := trace[d-1]
		at := func(k int) int { return prev[k+d-1] }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, Op{Equal, a[x]})
		}
		if x == px {
			y--
			rev = append(rev, Op{Insert, b[y]})
		} else {
			x--
			rev = append(rev, Op{Delete, a[x]})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, Op{Equal, a[x]})
	}
	ops := make([]Op, len(rev))
	for i, o := range rev {
		ops[len(rev)-1-i] = o
	}
	return ops
}

func replaceAll(a, b []string) []Op {
	ops := make([]Op, 0, len(a)+len(b))
	for _, l := range a {
		ops = append(ops, Op{Delete, l})
	}
	for _, l := range b {
		ops = append(ops, Op{Insert, l})
	}
	return ops
}

// Stats counts the added and removed lines of a diff.
func Stats(ops []Op) (added, removed int) {
	for _, o := range ops {
		switch o.Kind {
		case Insert:
			added++
		case Delete:
			removed++
		}
	}
	return added, removed
}

// Unified renders ops as a unified diff with the given lines of context,
// headed by ---/+++ lines naming from and to. It is empty when nothing
// changed.
func Unified(ops []Op, from, to string, context int) string {
	var b strings.Builder
	// Positions (0-based) in a and b before each op.
	type pos struct{ a, b int }
	at := make([]pos, len(ops)+1)
	for i, o := range ops {
		at[i+1] = at[i]
		if o.Kind != Insert {
			at[i+1].a++
		}
		if o.Kind != Delete {
			at[i+1].b++
		}
	}
	i := 0
	for i < len(ops) {
		for i < len(ops) && ops[i].Kind == Equal {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(0, i-context)
		end := i
		// Extend the hunk while changes are within 2*context of each other.
		for end < len(ops) {
			if ops[end].Kind != Equal {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].Kind == Equal {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end = min(len(ops), end+context)
				break
			}
			end = run
		}
		if b.Len() == 0 {
			fmt.Fprintf(&b, "--- %s\n+++ %s\n", from, to)
		}
		aLen, bLen := at[end].a-at[start].a, at[end].b-at[start].b
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(at[start].a, aLen), hunkRange(at[start].b, bLen))
		for _, o := range ops[start:end] {
			b.WriteByte(byte(o.Kind))
			b.WriteString(o.Line)
			b.WriteByte('\n')
		}
		i = end
	}
	return b.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
