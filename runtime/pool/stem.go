package pool

import (
	"strings"
	"sync"
	"unicode"
)

// Stem reduces a lower-case word to the form ToolSearch indexes and
// matches: a small suffix stripper, not a full Porter stemmer. Plurals
// (-s, -es, -ies), verb endings (-ing, -ed), agent nouns (-er), -ly and
// -tion/-sion are cut, a doubled final consonant left by -ing or -ed is
// undoubled, and a final e is dropped, so "create", "creates", "created",
// "creating", "creation" and "creator" meet at "creat". Words of three
// letters or fewer are kept as they are.
func Stem(w string) string {
	if len(w) <= 3 {
		return w
	}
	if base, ok := irregular[w]; ok {
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
	case strings.HasSuffix(w, "er") && len(w) > 5:
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

// irregular maps irregular verb forms and plurals to their base form.
var irregular = map[string]string{
	"wrote": "write", "written": "write", "ran": "run", "made": "make", "found": "find",
	"sent": "send", "gave": "give", "given": "give", "took": "take", "taken": "take",
	"chose": "choose", "chosen": "choose", "began": "begin", "begun": "begin", "built": "build",
	"kept": "keep", "left": "leave", "shown": "show", "children": "child", "people": "person",
	"modification": "modify", "relationship": "relation", "relationships": "relation", "biggest": "big", "largest": "large",
}

// stopWords carry no meaning in a plain-language query; they are dropped
// from queries and documents alike.
var stopWords = map[string]bool{
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
	"make": true, "gets": true, "got": true,
}

// synonymGroups are words a query may mean one another by. Each query word
// is also searched as the other words of its groups, at a lower weight
// (rankParams.synonym), and the best match counts. Words are stemmed when
// the table is built.
var synonymGroups = [][]string{
	{"folder", "directory", "dir"},
	{"remove", "delete", "erase", "rm", "forget", "drop", "wipe"},
	{"rename", "move", "mv", "relocate"},
	{"find", "search", "lookup", "locate"},
	{"fetch", "get", "download", "retrieve"},
	{"run", "execute", "exec", "launch", "invoke", "start"},
	{"kill", "stop", "terminate", "cancel", "abort"},
	{"create", "make", "new"},
	{"add", "insert", "append", "attach"},
	{"edit", "modify", "change", "update", "alter", "replace"},
	{"show", "display", "view", "print"},
	{"read", "open", "cat", "load", "view"},
	{"write", "save", "store"},
	{"list", "ls", "enumerate"},
	{"shell", "terminal", "bash", "command", "console"},
	{"web", "internet", "online", "website"},
	{"url", "link", "href"},
	{"image", "picture", "photo", "img"},
	{"task", "job", "process"},
	{"output", "result"},
	{"regex", "regexp", "pattern"},
	{"agent", "subagent"},
	{"observation", "fact", "note"},
	{"status", "progress", "state"},
	{"multiple", "many", "several", "batch"},
	{"relation", "relationship", "link", "connection"},
	{"info", "information", "metadata", "details", "stat"},
	{"notebook", "ipynb", "jupyter"},
	{"choose", "choice", "option", "prefer"},
	{"approve", "approval", "confirm", "accept"},
	{"submit", "present", "send"},
	{"contain", "content", "include"},
	{"size", "byte", "length", "big", "biggest", "large", "largest"},
	{"person", "people"},
	{"sum", "total"},
	{"assign", "owner"},
	{"elicitation", "elicit", "form"},
	{"memory", "remember", "knowledge", "memorize"},
	{"time", "date", "timestamp", "when"},
}

// queryPhrases are two-word verbs a query is read as one word by.
var queryPhrases = map[string]string{
	"look up":  "lookup",
	"look for": "search",
	"set up":   "setup",
}

// queryExpansions turn one query word into several (shell command names).
var queryExpansions = map[string][]string{
	"mkdir":  {"create", "directory"},
	"grep":   {"search", "regex"},
	"glob":   {"find", "pattern"},
	"google": {"web", "search"},
}

// synonyms maps a stem to the other stems of its groups, built on first
// use: stemming every group at init cost every start of the binary (the
// ant build's grep and find among them) a third of a millisecond.
var synonyms = sync.OnceValue(func() map[string][]string { return buildSynonyms(synonymGroups) })

func buildSynonyms(groups [][]string) map[string][]string {
	out := map[string][]string{}
	for _, g := range groups {
		for _, w := range g {
			s := Stem(w)
			for _, o := range g {
				if so := Stem(o); so != s && !contains(out[s], so) {
					out[s] = append(out[s], so)
				}
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Synonyms returns the stems a query word is also searched as: the other
// words of its synonym groups, stemmed.
func Synonyms(word string) []string {
	return synonyms()[Stem(strings.ToLower(word))]
}

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
			if len(w) >= 2 && !stopWords[w] {
				out = append(out, w)
			}
		}
	}
	return out
}
