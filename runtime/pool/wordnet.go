package pool

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"slices"
	"strings"
	"sync"
)

// The synonym source is WordNet 3.1 (Princeton University; its licence is
// wordnet.LICENSE): wordnet.txt.gz is written from the WordNet database
// by wordnetgen (see its doc for the command and the rule that picks the
// words), never edited by hand. A line is "stem<TAB>synonyms<TAB>broader
// words", all as stems: the other lemmas of the word's most frequent
// senses, then the lemmas of those senses' direct hypernyms (delete →
// remove) and those their attribute and derivation pointers lead to (big
// → size).
//
//go:embed wordnet.txt.gz
var wordnetGz []byte

// relTier says how a word is related to a query word.
type relTier uint8

const (
	tierSynonym relTier = iota // same synset
	tierBroader                // a hypernym, or a related word (attribute, derivation)
)

// related is one stem a query word is also searched as.
type related struct {
	stem string
	tier relTier
}

// thesaurus is the synonym table: the unpacked file and the offset of
// each of its lines, which are sorted by key, for binary search.
type thesaurus struct {
	text  string
	lines []int32
	// longest is the longest phrase key, in words.
	longest int
}

// wordnet is the table, unpacked on the first keyword search (not at
// every start of the binary).
var wordnet = sync.OnceValue(func() *thesaurus { return parseThesaurus(wordnetGz) })

func parseThesaurus(gz []byte) *thesaurus {
	th := &thesaurus{longest: 3}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return th // an embedded file that cannot be read: no synonyms, as a build without one
	}
	var b strings.Builder
	if _, err := io.Copy(&b, zr); err != nil {
		return th
	}
	th.text = b.String()
	th.lines = make([]int32, 0, strings.Count(th.text, "\n"))
	for i := 0; i < len(th.text); {
		th.lines = append(th.lines, int32(i))
		j := strings.IndexByte(th.text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return th
}

// line returns line i's key and the rest.
func (th *thesaurus) line(i int) (key, rest string) {
	l := th.text[th.lines[i]:]
	if j := strings.IndexByte(l, '\n'); j >= 0 {
		l = l[:j]
	}
	key, rest, _ = strings.Cut(l, "\t")
	return key, rest
}

// lookup returns the words related to a stem, or to a phrase of stems
// joined by spaces.
func (th *thesaurus) lookup(key string) []related {
	i, found := slices.BinarySearchFunc(th.lines, key, func(off int32, k string) int {
		l := th.text[off:]
		if j := strings.IndexByte(l, '\t'); j >= 0 {
			l = l[:j]
		}
		return strings.Compare(l, k)
	})
	if !found {
		return nil
	}
	_, rest := th.line(i)
	syn, broader, _ := strings.Cut(rest, "\t")
	var out []related
	for _, w := range strings.Fields(syn) {
		out = append(out, related{w, tierSynonym})
	}
	for _, w := range strings.Fields(broader) {
		out = append(out, related{w, tierBroader})
	}
	return out
}

// Synonyms returns the stems a query word is also searched as: WordNet's
// synonyms and broader words of its frequent senses.
func Synonyms(word string) []string {
	var out []string
	for _, r := range wordnet().lookup(Stem(strings.ToLower(word))) {
		out = append(out, r.stem)
	}
	return out
}
