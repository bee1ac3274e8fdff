package pool

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"slices"
	"strings"
	"sync"
)

// The synonym source is WordNet 3.1 (Princeton University; its licence is
// wordnet.LICENSE): wordnet.txt.gz is written from the WordNet database
// by wordnetgen (see its doc for the command and the rule that picks the
// words), never edited by hand. A line is "lemma<TAB>synonyms<TAB>broader
// words<TAB>related words": the other lemmas of the lemma's most frequent
// senses, the lemmas of those senses' direct hypernyms (delete → remove),
// and those their attribute and derivation pointers lead to (big → size).
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

// thesaurus is the synonym table keyed by stem: single words in words,
// phrases (stems joined by spaces) in phrases; longest is the longest
// phrase in words.
type thesaurus struct {
	words   map[string][]related
	phrases map[string][]related
	longest int
}

// wordnet is the table, read on the first keyword search (not at every
// start of the binary: unpacking it takes milliseconds).
var wordnet = sync.OnceValue(func() *thesaurus { return parseThesaurus(wordnetGz) })

func parseThesaurus(gz []byte) *thesaurus {
	th := &thesaurus{words: map[string][]related{}, phrases: map[string][]related{}, longest: 1}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return th // an embedded file that cannot be read: no synonyms, as a build without one
	}
	add := func(m map[string][]related, key string, r related) {
		if r.stem == "" || r.stem == key {
			return
		}
		l := m[key]
		if i := slices.IndexFunc(l, func(x related) bool { return x.stem == r.stem }); i >= 0 {
			if r.tier < l[i].tier {
				l[i].tier = r.tier
			}
			return
		}
		m[key] = append(l, r)
	}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		key, rest, _ := strings.Cut(sc.Text(), "\t")
		syn, rest, _ := strings.Cut(rest, "\t")
		hyp, rel, _ := strings.Cut(rest, "\t")
		words := strings.Fields(key)
		for i, w := range words {
			words[i] = Stem(w)
		}
		k := strings.Join(words, " ")
		m := th.words
		if len(words) > 1 {
			m = th.phrases
			th.longest = max(th.longest, len(words))
		}
		for _, w := range strings.Fields(syn) {
			add(m, k, related{Stem(w), tierSynonym})
		}
		for _, w := range strings.Fields(hyp + " " + rel) {
			add(m, k, related{Stem(w), tierBroader})
		}
	}
	return th
}

// Synonyms returns the stems a query word is also searched as: WordNet's
// synonyms and broader words of its frequent senses.
func Synonyms(word string) []string {
	var out []string
	for _, r := range wordnet().words[Stem(strings.ToLower(word))] {
		out = append(out, r.stem)
	}
	return out
}
