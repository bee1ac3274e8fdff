package pool_test

// blindSet is a query set written by someone who had not read the ranker,
// scored once, after the ranker was final and committed; at1 and at5 are
// what that run scored, kept as floors.
type blindSet struct {
	file     string
	servers  []string // its pool's MCP servers (testdata/mcp/<server>.json)
	builtins bool     // whether its pool holds the built-ins too
	scored   string   // the date of the one scoring
	total    int
	at1, at5 int
}

// blindSets are the blind sets and their one scoring.
var blindSets = []blindSet{
	// Written for the lexicon rounds (issue 13) and never read by this
	// ranker's author; scored once with it, after it was committed
	// (6501da3). The lexicon ranker they were written against scored
	// 16/24 and 24/24 (heldout3), 18/24 and 22/24 (heldout4): its
	// rules were shaped after these servers' tools and phrasing.
	{file: "heldout3.tsv", servers: evalServers, builtins: true, scored: "2026-12-07", total: 24, at1: 5, at5: 11},
	{file: "heldout4.tsv", servers: evalServers, builtins: true, scored: "2026-12-07", total: 24, at1: 7, at5: 15},
	// Written for issue 31 by a helper who had not read the ranker, from
	// the tool dumps alone (queries/blind-README.md), over npm servers the
	// ranker had never seen; MCP tools only, as in Claude Code's pool of
	// deferred MCP tools. Scored once, after 6501da3 was committed.
	{file: "blindA.tsv", servers: []string{"github", "puppeteer", "slack"}, scored: "2026-12-07", total: 30, at1: 19, at5: 26},
	{file: "blindB.tsv", servers: []string{"playwright", "kubernetes", "notion"}, scored: "2026-12-07", total: 30, at1: 19, at5: 25},
}
