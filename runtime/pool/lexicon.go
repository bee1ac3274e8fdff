package pool

import (
	"slices"
	"strings"
	"sync"
	"unicode"
)

// The everyday lexicon: how a user phrases a task ("put report.pdf into
// the archive folder", "forget what you know about Bob") against the
// canonical operations and objects tools are named and described by
// (move, delete, memory). It is a table of operations, each with its
// everyday phrasings, not of queries: a phrasing (one to four words,
// matched on stems, stop words included, the longest first) is searched
// as the operation's words, at the synonym weight, besides itself. It is
// one-way: "put" means move, "move" does not mean put.
//
// Each entry is "phrasings: meaning". A phrasing written "=word" matches
// that form of the word only, not its stem ("stored" is what is in a
// store, "store" an operation). Phrasings are separated by commas;
// the meaning is one or more word groups separated by spaces, each
// group's alternatives by "|": "forget: delete|remove" searches forget
// as delete or remove, "remember: memory create|add|save" as two words,
// memory and one of create, add, save.
var everyday = []string{
	// Operations on things.
	"put, place, stash, relocate, transfer, shift, drag: move",
	"anymore, any more, forget, erase, wipe, purge, discard, clear, clear out, get rid of, throw away, trash, destroy, scrap, unlink, no longer, not anymore, take out: delete|remove",
	"make, new, add, register, set up, start a new: create|add|new",
	"record, jot, jot down, note down, write down, make a note, log a note, log that: add|create|save",
	"remember, memorize, keep in mind, memorise: memory|knowledge create|add|save",
	// A request to remember is a save, not a question about memory.
	"could you remember, can you remember, would you remember, will you remember, please remember, i want you to remember, i need you to remember: memory|knowledge create|add|save",
	"remember about, know about, you know, what you know, you remember: memory|knowledge",
	"what do you remember, what do you know, do you know, do you remember: search memory|knowledge",
	"note that, record that, keep in mind that, add that, now also: add|create observation|fact",
	"forget that, not true that, no longer true that: delete|remove observation|fact",
	"show, view, see, look at, display, peek at, go through, inspect, check out, print, cat, open, load: read|view|show",
	"what is in, what is inside, inside, contents of, content of, what s in: content list|read",
	"find, locate, look for, hunt for, hunt down, seek, track down, where is, where are, where in, search for, look up: search|find|lookup",
	"where: search|find",
	"where do we, where does, where do, where we: search content|code",
	"the string, the word, the text, string, codebase, source code, in the code, source file, source files, source line, source lines: content|text|code",
	"mention, mentions, contain, contains, call site, call sites, every place, callers of, we call, occurrence, occurrences, usage, usages, referenced, references to, defined: search content|text|regex",
	"save, store, persist, write out, dump into, dump to, save as, overwrite, replace the whole, replace the entire, replace all of: write|save|overwrite",
	"swap, substitute, refactor, change, fix, modify, tweak, update, patch, correct, amend, adjust, alter, rewrite: edit|modify|replace|update",
	"run, execute, launch, invoke, kick off, fire off, compile, build, lint, install, deploy, benchmark: run|execute command|shell",
	"unit test, the test, test suite, go test, npm test, run test, test pass, test fail: run|execute command|shell",
	"stop, cancel, kill, halt, abort, terminate, shut down, shut, interrupt: stop|kill|terminate",
	"work in, work on, switch to, switch into, go into, jump into, enter: enter|switch",
	"go back, return to, leave, get out of, switch back, exit: exit|leave",
	"say back, repeat, parrot, mirror, echo: echo|repeat",
	"plus, add up, sum, total, calculate, arithmetic, minus, times: sum|add number",
	"compress, gzip, zip, pack, shrink, gz: compress|gzip",
	"simulate, fake, mock, demo, pretend, dummy: simulate|demonstrate",
	"toggle, switch on, switch off, turn on, turn off, enable, disable: toggle|enable",
	"grab, pull, scrape, download, fetch, retrieve: fetch|get|download",
	"git, npm, yarn, pnpm, cargo, pip, kubectl, pytest, jest, go build, go run, go vet, go test, make test: run command|shell",
	"assign, reassign, give to, hand to: owner|assign update",
	"point to, point me to, refer to, pointer to, reference to: reference",
	"expose, exposed, share, shared, offer, offered: provide",
	"how many times, appear, appears, occur, occurs, count of, number of times: search content|count",
	"friend, friends, colleague, colleagues, coworker, coworkers: relation",
	"pull up, bring up, call up: open|read|show",
	"log file, log files: file|log",
	"starts with, ends with, begins with, whose name, name starts, name ends, name contains: name pattern",
	"permission to, have permission, am i allowed, are you allowed, allowed to, may i, reach, can reach, get to: allowed|access",
	"dry run, dry-run, preview, without applying, trial run: dry run|preview",
	"try out, experiment, experimental, risky, safely, somewhere safe, without breaking, cannot break, can t break, not break, break my: isolated|worktree",
	"map out, lay out, sketch, outline, before you edit, before editing, before you touch, before touching, before you change: plan approach|design",
	"subfolder, subfolders, subdirectory, subdirectories: directory|folder",
	"how old, how recent, last touched, who may, who can: information|metadata|time|permission",
	"takes a minute, takes minutes, ticks, ticks along, in stages, minute, minutes, seconds, duration: long|running|duration operation|progress",
	"dump all, dump every, dump everything, dump the whole, dump the entire: read|show all|entire",
	"=records: entity|node",
	"what version, which version, latest version, current version, newest version, is current, release date: web search",
	"find out, look into: search",
	"function, functions, method, methods, class, classes, symbol, symbols, variable, variables, struct, identifier: code|content|text",
	"spin up, spawn, fork off: launch|start",
	"mark as done, mark done, mark complete, mark, set status, set, to done, as done, to complete, in progress: status|update",
	"still open, are open, is open, unfinished, outstanding, pending, not done, incomplete: status list",
	"summarise, summarize, summary, sum up, gist: content read",
	"ticket, item, card, backlog, to do item: task",
	"last lines, first lines, head, tail, beginning of, end of the file, the end of, end of: head|tail line",
	"disk usage, du, space, take up, disk space: size",
	"subscribe, subscription, notify me, notifications, watch for changes: subscription|subscriber update",
	"research, investigate, deep dive: research|investigate|analyze",
	// Everyday developer verbs and nouns not covered above, by the
	// operation they ask for.
	"remove the line, remove line, remove lines, remove the lines, delete the line, delete line, delete lines, delete the lines, remove the import, delete the import, comment out, uncomment, append, prepend, append to, prepend to, insert into, add a line, add lines, add an import, add a comment: edit|modify|replace",
	"rename the function, rename function, rename the variable, rename variable, rename the method, rename method, rename the class, rename symbol, rename the field: edit|replace",
	"commit, push, rebase, merge, cherry pick, git log, git diff, git status, git blame, blame, checkout, restart, reboot, ping, curl, wget, docker, make target: run command|shell",
	"command line, on the command line, in the terminal, from the terminal, terminal command, shell command, one liner: command|shell",
	"browse, visit, navigate to, go to, crawl, open the url, open the link, open this link, open this page: fetch web|url|page",
	"scan, sweep, comb through, trawl, scour: search|find",
	"monitor, keep an eye on, check on, how is it going, how s it going, how is it doing, is it still running: output|status|progress",
	"multiple choice, pick one, pick between, choose between, options to choose: question|choice|option",
	"brother, sister, sibling, mother, father, parent, son, daughter, wife, husband, spouse, cousin, uncle, aunt: relation",
	// The user and the session.
	"check with me, check with the user, my opinion, your opinion, input from me, input from the user: ask user question",
	"done planning, finished planning, ready to implement, start implementing, propose, is ready, for approval, please review, review it, review my plan, review the plan: plan present|approval|exit",
	"ask me, ask the user, confirm with: ask user",
	"let the user pick, let me pick, let me choose, user pick, user choose, choose, prefer, preference, decide, clarify: ask question|choice|option",
	"think through, think about, plan, design, figure out, without changing, before changing, before coding, approach, strategy: plan approach|design",
	"let me review, sign off, before you start, okay to proceed, ok to proceed: plan approval|present",
	"hand off, hand over, delegate, helper, worker, assistant, another agent, someone else, in parallel, while work, farm out, outsource, subagent: agent launch|delegate",
	"isolated, sandbox, separate copy, copy of the repo, own checkout, scratch copy, safe copy, separate checkout: worktree|isolated",
	"to do, checklist, next step, the step, step, keep track, track, remaining work, what s left: todo|checklist track|step",
	"playbook, recipe, runbook, saved instructions, procedure, routine, workflow, macro: skill|instruction",
	"in the background, background, left running, still running, running in the background, run in the background: background",
	"=printed, done yet, finished, is it done, how far, progress, status, so far, until now, up to now: output|status|progress",
	"anywhere, wherever, anywhere below, anywhere under, anywhere in: search|find recursive",
	"file called, file named, files called, files named: file name",
	"folder called, folder named, directory called, directory named, folders called, folders named, directories called, directories named: directory|folder name",
	// Places, kinds of things and their attributes.
	"who won, who is the, last year, this year, yesterday, today, this week, price of, weather, forecast, score of, stock price: web search",
	"online, on the web, according to the web, internet, google, latest, newest, the news, news about: web search",
	"web page, webpage, page, blog, article, post, site, website, docs page: web|url|page",
	// A link or URL the query points at is a page to fetch, not a search.
	"this link, that link, the link, at this link, this url, that url, the url, at this url, this page, that page, this address, =url: fetch url|page",
	"works with, =knows, is friends with, married to, related to, connected to, reports to, belongs to, works at, works for, member of, link between, connection between, relationship, between: relation",
	"person, people, someone, thing, company, organization, entry, entries, node, nodes: entity|node",
	"fact, facts, detail, details, attribute, property: observation|fact|information",
	"how many bytes, how many kb, how many mb, how big, how large, size, bigger, larger, biggest, largest, heavy, heavier, heaviest, weigh: size",
	"when was, last changed, last modified, modified, modification time, created when, age, permission, permissions, who can read, owner: information|metadata|time|permission",
	"recursive, recursively, whole structure, structure, hierarchy, nested, layout, tree: tree|recursive|structure",
	"markdown, yaml, toml, typescript, javascript, golang, go file, go files, python file, python files, ts files, js files, rust files, java files, c files, test files: file pattern|extension|glob",
	"audio, sound, song, music, voice, recording, podcast, video: media|audio",
	"picture, photo, pic, screenshot, icon, logo, image: image|picture",
	"small, tiny, little, sample: tiny|small",
	"environment, env vars, env variables, environment variables: environment|env variable",
	"log messages, log message, =logs, =logging, log level, log levels, logger: logging|log",
	// A log named by what writes it is a file to read.
	"the log, server log, error log, app log, build log, access log, debug log, crash log: file read|text",
	"slow, long, takes a while, lengthy: long|running operation",
	"workspace folders, workspace, shared folders, project folders: root|directory",
	"fill in, fill out, form: elicitation|form input",
	// Input asked of the user is the user's answer, not a tool's input.
	"for input, for their input, for some input, for user input, user input, input from the user, input from me: user elicitation|question|answer",
	"llm, the model, model, language model, completion, generate text: sampling|llm",
	"allowed, permitted, may access, have access, access to, can access: allowed|access",
	"all, every, each, all the: all|every|list",
	"everything, entire, whole, complete: all|entire|complete",
	"by name, by names, by their name, by their names, by id, named, specific: name|specific",
	"=stored, =saved, =kept, =remembered, =recorded: content|all",
	"disk, on disk, from disk, local, locally, hard drive: file|filesystem|local",
	"who owns, =owns, =own, owned by, whose: owner",
	"my own, its own, your own, their own, our own, on my own, on its own:",
	"multiple, several, many, a few, at once, together, batch, both: multiple",
}

// operations are the canonical operations (stemmed when used): the first
// the query names is what it asks for, the later ones mostly describe
// its object ("add a task to fix the login bug").
var operations = sync.OnceValue(func() map[string]bool {
	return stemSet("move delete remove create add read view show search find write save edit modify replace update run execute stop kill exit enter fetch launch toggle ask plan allowed access")
})

func stemSet(words string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(words) {
		out[Stem(w)] = true
	}
	return out
}

// phrasing is one group of a phrasing's meaning: its alternatives, stemmed.
type meaning [][]string

// lexiconTable maps a phrasing (its stems joined by spaces) to its
// meaning; longest is the longest phrasing, in words.
type lexiconTable struct {
	phrasings map[string]meaning
	longest   int
}

// lexicon is the everyday lexicon, built on first use like synonyms (not
// at every start of the binary).
var lexicon = sync.OnceValue(func() lexiconTable {
	m, n := buildLexicon(everyday)
	return lexiconTable{phrasings: m, longest: n}
})

func buildLexicon(entries []string) (map[string]meaning, int) {
	out := map[string]meaning{}
	longest := 1
	for _, e := range entries {
		phr, mean, ok := strings.Cut(e, ":")
		if !ok {
			panic("pool: lexicon entry without a meaning: " + e)
		}
		var m meaning
		for _, g := range strings.Fields(mean) {
			var alts []string
			for _, a := range strings.Split(g, "|") {
				alts = append(alts, Stem(a))
			}
			m = append(m, alts)
		}
		for _, p := range strings.Split(phr, ",") {
			ws := lexWords(p)
			if len(ws) == 0 {
				continue
			}
			if raw, ok := strings.CutPrefix(strings.TrimSpace(p), "="); ok {
				ws = []string{"=" + strings.ToLower(raw)}
			}
			key := strings.Join(ws, " ")
			merged := m
			if prev, ok := out[key]; ok {
				// Two phrasings meet at one stem ("person", "people"):
				// both meanings, each group once.
				merged = append(meaning{}, prev...)
				for _, g := range m {
					if !slices.ContainsFunc(merged, func(h []string) bool { return slices.Equal(g, h) }) {
						merged = append(merged, g)
					}
				}
			}
			out[key] = merged
			longest = max(longest, len(ws))
		}
	}
	return out, longest
}

// lexWords splits text into lower-case stems, stop words kept, for
// matching phrasings.
func lexWords(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		out = append(out, Stem(f))
	}
	return out
}

// acronyms are upper-case words that name things tools are about; any
// other word in capitals ("TODO", "FIXME") is text the user is looking
// for, not a word of a tool.
var acronyms = map[string]bool{
	"URL": true, "URLS": true, "API": true, "MCP": true, "LLM": true, "HTTP": true, "HTTPS": true, "JSON": true,
	"PDF": true, "CSV": true, "HTML": true, "CSS": true, "SQL": true, "CLI": true, "UI": true, "ID": true, "IDS": true,
	"PR": true, "CI": true, "OS": true, "ENV": true, "AI": true, "XML": true, "YAML": true, "MIME": true, "SVG": true,
	"PNG": true, "JPG": true, "MP3": true, "GIF": true, "SSH": true, "GIT": true, "README": true,
}

// extensionKinds maps a file name's extension to the kind of file it
// names, as word groups (see everyday).
var extensionKinds = map[string]string{
	"mp3": "media|audio", "wav": "media|audio", "flac": "media|audio", "ogg": "media|audio", "m4a": "media|audio",
	"aac": "media|audio", "mp4": "media|video", "mov": "media|video", "webm": "media|video",
	"png": "image|media", "jpg": "image|media", "jpeg": "image|media", "gif": "image|media", "webp": "image|media",
	"svg": "image", "bmp": "image|media", "ico": "image",
	"ipynb": "notebook|jupyter",
	"gz":    "gzip|compress", "tgz": "gzip|compress", "zip": "compress",
}

// operand is how a query word that names a concrete thing reads: a file
// name (report.pdf), a path (build/out, src/**/*.ts), a number, a string
// in capitals. Such a word is what the tool acts on, not a word of the
// tool, so it is searched as the kind of thing it is: report.pdf as
// file, song.mp3 as file and audio, build/out as path and directory,
// "TODO" as text. ok is false for any other word.
func operand(raw string) (groups []string, ok bool) {
	w := strings.Trim(raw, `"'()[]{},;:!?`)
	w = strings.TrimSuffix(w, ".")
	if w == "" {
		return nil, false
	}
	if strings.ContainsAny(raw[:1], "\"`“‘") {
		return []string{"text|content"}, true // a quoted string: what to look for
	}
	switch {
	case strings.ContainsAny(w, "*?") && strings.ContainsAny(w, "./"):
		return []string{"file", "pattern|glob|match"}, true
	case strings.Contains(w, "/") && !strings.HasPrefix(w, "http"):
		if ext := extension(w[strings.LastIndex(w, "/")+1:]); ext != "" {
			return append([]string{"file", "path"}, kindOf(ext)...), true
		}
		return []string{"directory|folder", "path"}, true
	case strings.HasPrefix(w, "http://") || strings.HasPrefix(w, "https://") || strings.HasPrefix(w, "www."):
		return []string{"url", "web|page"}, true
	}
	if ext, ok := strings.CutPrefix(w, "."); ok && extension("x."+ext) != "" {
		return append([]string{"file", "pattern|glob|match|extension"}, kindOf(strings.ToLower(ext))...), true
	}
	if ext := extension(w); ext != "" {
		if strings.HasPrefix(w, "_") || strings.HasPrefix(w, "-") {
			// A name's ending (_test.go, -lock.json): a pattern.
			return append([]string{"file", "pattern|glob|match|extension"}, kindOf(ext)...), true
		}
		return append([]string{"file"}, kindOf(ext)...), true
	}
	if k, ok := extensionKinds[strings.ToLower(w)]; ok {
		return append(strings.Fields(k), strings.ToLower(w)), true
	}
	allDigits := true
	for _, r := range w {
		allDigits = allDigits && (unicode.IsDigit(r) || r == '.' || r == ',')
	}
	if allDigits {
		return []string{"number"}, true
	}
	if len(w) >= 3 && strings.ToUpper(w) == w && strings.ToLower(w) != w && !acronyms[w] {
		return []string{"text|content"}, true
	}
	// A file named by convention, with no extension (Dockerfile,
	// Makefile, LICENSE is text in capitals above).
	if lw := strings.ToLower(w); len(lw) > 4 && strings.HasSuffix(lw, "file") && lw != "profile" && unicode.IsUpper(rune(w[0])) {
		return []string{"file"}, true
	}
	// An identifier: lowerCamel (parseConfig), or a package's name and
	// one of its names (os.Exit).
	if pkg, name, ok := strings.Cut(w, "."); ok && pkg != "" && name != "" && unicode.IsUpper(rune(name[0])) {
		return []string{"text|content|code"}, true
	}
	rs := []rune(w)
	if unicode.IsLower(rs[0]) {
		for _, r := range rs[1:] {
			if unicode.IsUpper(r) {
				return []string{"text|content|code"}, true
			}
		}
	}
	return nil, false
}

// extension returns the extension of a file name ("report.pdf" → pdf),
// or "" when w does not look like one (a version, "e.g", "v1.2").
func extension(w string) string {
	i := strings.LastIndex(w, ".")
	if i <= 0 || i == len(w)-1 {
		return ""
	}
	ext := w[i+1:]
	if len(ext) > 5 {
		return ""
	}
	for _, r := range ext {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return ""
		}
	}
	if strings.ToLower(ext) != ext && strings.ToUpper(ext) != ext {
		return "" // os.Exit, fmt.Println: code, not a file
	}
	if !unicode.IsLetter(rune(ext[0])) {
		return ""
	}
	base := w[:i]
	if base == "e" || base == "i" || strings.EqualFold(ext, "g") || strings.EqualFold(ext, "e") {
		return "" // e.g, i.e
	}
	return strings.ToLower(ext)
}

func kindOf(ext string) []string {
	if k, ok := extensionKinds[ext]; ok {
		return strings.Fields(k)
	}
	return nil
}
