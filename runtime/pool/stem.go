package pool

import (
	"strings"
	"sync"
	"unicode"
)

// Stem reduces a lower-case word to the form ToolSearch indexes and
// matches: a small suffix stripper, not a full Porter stemmer. Plurals
// (-s, -es, -ies), verb endings (-ing, -ed), agent nouns (-er), -ly and
// -tion/-sion are cut (-er only from a stem of two syllables or more), a doubled final consonant left by -ing or -ed is
// undoubled, and a final e is dropped, so "create", "creates", "created",
// "creating", "creation" and "creator" meet at "creat". Words of three
// letters or fewer are kept as they are.
func Stem(w string) string {
	if len(w) <= 3 {
		return w
	}
	if base, ok := irregular()[w]; ok {
		w = base
	}
	// Plurals first, then the ending of what is left: "observations" and
	// "observation" meet at "observat".
	switch {
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		// class, status, analysis: not plurals.
	case strings.HasSuffix(w, "s"):
		w = w[:len(w)-1]
	}
	undouble := false
	switch {
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		w, undouble = w[:len(w)-3], true
	case strings.HasSuffix(w, "ied") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ed") && len(w) > 4:
		w, undouble = w[:len(w)-2], true
	case strings.HasSuffix(w, "er") && len(w) > 5 && measure(w[:len(w)-2]) > 1:
		// As Porter's step 4: only from a stem of two syllables or more
		// (folder, server and owner stay whole).
		w, undouble = w[:len(w)-2], true
	case strings.HasSuffix(w, "ly") && len(w) > 5:
		w = w[:len(w)-2]
	case (strings.HasSuffix(w, "tion") || strings.HasSuffix(w, "sion")) && len(w) > 6:
		w = w[:len(w)-3]
	}
	if undouble && len(w) > 2 {
		last := w[len(w)-1]
		if last == w[len(w)-2] && !strings.ContainsRune("aeioulsz", rune(last)) {
			w = w[:len(w)-1]
		}
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") && !strings.HasSuffix(w, "ee") {
		w = w[:len(w)-1]
	}
	return w
}

// measure is Porter's m of a stem: the number of vowel–consonant
// sequences in it ("fold" 1, "paramet" 3).
func measure(w string) int {
	m := 0
	prevVowel := false
	for i := 0; i < len(w); i++ {
		c := w[i]
		v := strings.IndexByte("aeiou", c) >= 0 || c == 'y' && i > 0 && !prevVowel
		if prevVowel && !v {
			m++
		}
		prevVowel = v
	}
	return m
}

// irregular maps irregular verb forms and plurals to their base form.
// Built at first use, not before main.
var irregular = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"wrote": "write", "written": "write", "ran": "run", "made": "make", "found": "find",
		"sent": "send", "gave": "give", "given": "give", "took": "take", "taken": "take",
		"chose": "choose", "chosen": "choose", "began": "begin", "begun": "begin", "built": "build",
		"kept": "keep", "left": "leave", "shown": "show", "children": "child", "people": "person",
	}
})

// stopWords carry no meaning in a plain-language query; they are dropped
// from queries and documents alike.
// Built at first use, not before main.
var stopWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"a": true, "an": true, "the": true, "to": true, "of": true, "for": true, "in": true, "on": true,
		"and": true, "or": true, "with": true, "by": true, "from": true, "me": true, "my": true, "i": true,
		"is": true, "it": true, "that": true, "this": true, "some": true, "any": true, "tool": true, "tools": true,
		"please": true, "want": true, "need": true, "can": true, "how": true, "do": true,
		"what": true, "which": true, "where": true, "who": true, "are": true, "be": true, "was": true,
		"at": true, "as": true, "into": true, "its": true, "you": true, "your": true, "we": true, "our": true,
		"let": true, "like": true, "up": true, "so": true, "if": true, "then": true, "them": true, "there": true,
		"via": true, "using": true, "am": true, "did": true, "does": true, "will": true, "would": true,
		"could": true, "should": true, "might": true, "must": true, "just": true, "also": true, "really": true,
		"quickly": true, "here": true, "these": true, "those": true, "they": true, "their": true, "he": true,
		"she": true, "his": true, "her": true, "us": true, "him": true, "been": true, "has": true, "have": true,
		"had": true, "about": true, "everything": true, "something": true, "anything": true, "ok": true, "okay": true,
		"gets": true, "got": true,
	}
})

// tokens splits text into lower-case words (CamelCase, snake_case and
// kebab-case split), drops stop words and one-letter words, and stems the
// rest.
func tokens(s string) []string {
	words := plainWords(s)
	for i, w := range words {
		words[i] = Stem(w)
	}
	return words
}

// plainWords is tokens before stemming.
func plainWords(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		for _, w := range splitCase(f) {
			if len(w) >= 2 && !stopWords()[w] {
				out = append(out, w)
			}
		}
	}
	return out
}
