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
var blindSets = []blindSet{}
