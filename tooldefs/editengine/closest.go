package editengine

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Region is a run of whole lines of a file.
type Region struct {
	// StartLine and EndLine are 1-based and inclusive.
	StartLine, EndLine int
	// Lines are the region's lines without line terminators.
	Lines []string
	// Similarity is in [0, 1]: how much the region resembles the text it
	// was compared with.
	Similarity float64
	// Hint names the first line that differs and how, when known.
	Hint string
}

// Numbered renders the region as Read does: "N\t" before each line.
func (r *Region) Numbered() string {
	var b strings.Builder
	for i, l := range r.Lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Itoa(r.StartLine + i))
		b.WriteByte('\t')
		b.WriteString(l)
	}
	return b.String()
}

// minSimilarity is the score below which no region is quoted.
const minSimilarity = 0.4

// pairBudget bounds the line comparisons of a full sliding-window search;
// beyond it only the most promising windows are scored.
const pairBudget = 3_000_000

// maxCandidates is how many windows are scored when over budget.
const maxCandidates = 256

// Closest finds the run of lines of content most similar to old and
// returns it, or nil when nothing is at least 40% similar. Lines are
// compared trimmed and with quotes normalised, by character-bigram overlap;
// old's first and last lines may be fragments of the file's lines.
func Closest(content, old string) *Region {
	fileLines := splitLines(content)
	oldLines := splitLines(old)
	for len(oldLines) > 0 && strings.TrimSpace(oldLines[0]) == "" {
		oldLines = oldLines[1:]
	}
	for len(oldLines) > 0 && strings.TrimSpace(oldLines[len(oldLines)-1]) == "" {
		oldLines = oldLines[:len(oldLines)-1]
	}
	if len(oldLines) == 0 || len(fileLines) == 0 {
		return nil
	}
	k := min(len(oldLines), len(fileLines))
	oldLines = oldLines[:k]
	s := newScorer(fileLines, oldLines)
	n := len(fileLines) - k + 1

	var starts []int
	if n*k <= pairBudget {
		starts = make([]int, n)
		for i := range starts {
			starts[i] = i
		}
	} else {
		type cand struct {
			i     int
			score float64
		}
		cands := make([]cand, n)
		for i := range cands {
			cands[i] = cand{i, s.sim(i, 0) + s.sim(i+k-1, k-1)}
		}
		sort.SliceStable(cands, func(a, b int) bool { return cands[a].score > cands[b].score })
		for _, c := range cands[:min(maxCandidates, len(cands))] {
			starts = append(starts, c.i)
		}
		slices.Sort(starts)
	}
	best, bestScore := -1, -1.0
	for _, i := range starts {
		// Stop scoring a window once even perfect remaining lines could
		// not beat the best so far.
		need := max(bestScore, 0) * float64(k)
		total := 0.0
		for j := 0; j < k; j++ {
			total += s.sim(i+j, j)
			if total+float64(k-j-1) <= need {
				break
			}
		}
		if score := total / float64(k); score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 || bestScore < minSimilarity {
		return nil
	}
	r := &Region{
		StartLine:  best + 1,
		EndLine:    best + k,
		Lines:      slices.Clone(fileLines[best : best+k]),
		Similarity: bestScore,
	}
	r.Hint = firstDifference(r, oldLines)
	return r
}

// firstDifference describes the first line of the region that differs
// from old's, allowing old's edge lines to be fragments.
func firstDifference(r *Region, oldLines []string) string {
	k := len(oldLines)
	for j, o := range oldLines {
		f := r.Lines[j]
		switch {
		case f == o:
			continue
		case k == 1 && strings.Contains(f, o):
			continue
		case j == 0 && k > 1 && strings.HasSuffix(f, o):
			continue
		case j == k-1 && k > 1 && strings.HasPrefix(f, o):
			continue
		}
		line := r.StartLine + j
		if strings.TrimSpace(f) == strings.TrimSpace(o) {
			return fmt.Sprintf("Line %d differs only in whitespace or indentation: the file has %q, old_string has %q.", line, clip(f, 300), clip(o, 300))
		}
		if NormalizeQuotes(f) == NormalizeQuotes(o) {
			return fmt.Sprintf("Line %d differs only in quote characters: the file has %q, old_string has %q.", line, clip(f, 300), clip(o, 300))
		}
		return fmt.Sprintf("First difference at line %d: the file has %q, old_string has %q.", line, clip(f, 300), clip(o, 300))
	}
	return ""
}

// splitLines splits on LF and drops a CR before it.
func splitLines(s string) []string {
	lines := strings.Split(s, "\n")
	if len(lines) > 1 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// scorer compares file lines with old lines, caching bigram sets.
type scorer struct {
	file, old     []string // trimmed, quote-normalised
	fileBG, oldBG [][]uint64
	k             int
}

func newScorer(fileLines, oldLines []string) *scorer {
	s := &scorer{k: len(oldLines)}
	s.file, s.fileBG = prepare(fileLines)
	s.old, s.oldBG = prepare(oldLines)
	return s
}

func prepare(lines []string) ([]string, [][]uint64) {
	norm := make([]string, len(lines))
	bgs := make([][]uint64, len(lines))
	for i, l := range lines {
		norm[i] = NormalizeQuotes(strings.TrimSpace(l))
		bgs[i] = bigrams(norm[i])
	}
	return norm, bgs
}

// bigrams returns the sorted character bigrams of s padded with spaces, so
// one-character strings have some.
func bigrams(s string) []uint64 {
	if s == "" {
		return nil
	}
	rs := []rune(" " + s + " ")
	out := make([]uint64, len(rs)-1)
	for i := range out {
		out[i] = uint64(uint32(rs[i]))<<32 | uint64(uint32(rs[i+1]))
	}
	slices.Sort(out)
	return out
}

// common counts the multiset intersection of two sorted slices.
func common(a, b []uint64) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			n++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return n
}

// sim scores file line i against old line j in [0, 1]. Interior lines use
// the Dice coefficient; old's first and last lines use containment, since
// old_string may start or end in the middle of a line.
func (s *scorer) sim(i, j int) float64 {
	f, o := s.file[i], s.old[j]
	if f == o {
		return 1
	}
	if f == "" || o == "" {
		return 0
	}
	c := float64(common(s.fileBG[i], s.oldBG[j]))
	dice := 2 * c / float64(len(s.fileBG[i])+len(s.oldBG[j]))
	if j == 0 || j == s.k-1 {
		contain := c / float64(len(s.oldBG[j]))
		if strings.Contains(f, o) {
			contain = 1
		}
		return max(dice, 0.95*contain)
	}
	return dice
}
