package mcp_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/procgroup"
)

// badLog collects the Manager's log lines.
type badLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *badLog) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, line)
}

func (l *badLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// badServer is a config entry for the misbehaving server, recording into
// dir, with env's switches.
func badServer(dir string, env ...string) mcp.ServerConfig {
	cfg := mcp.ServerConfig{Command: bins.Bad, Env: map[string]string{"BAD_DIR": dir}}
	for i := 0; i+1 < len(env); i += 2 {
		cfg.Env[env[i]] = env[i+1]
	}
	return cfg
}

// recorded reads what the server wrote to dir/name, trimmed.
func recorded(dir, name string) string {
	b, _ := os.ReadFile(filepath.Join(dir, name))
	return strings.TrimSpace(string(b))
}

// pids are the process ids the server wrote to dir/name, one a line.
func pids(dir, name string) []int {
	var out []int
	for _, l := range strings.Fields(recorded(dir, name)) {
		n, err := strconv.Atoi(l)
		Expect(err).NotTo(HaveOccurred())
		out = append(out, n)
	}
	return out
}

// alive tells whether pid is a process that has not ended (on Linux, a
// zombie waiting for its reaper has ended).
func alive(pid int) bool {
	if !procgroup.Alive(pid) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		// No /proc (macOS, Windows), or the process ended meanwhile.
		return procgroup.Alive(pid)
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// expectGone asserts that every server process the spec started, and the
// child each started, has ended.
func expectGone(dir string) {
	all := append(pids(dir, "pid"), pids(dir, "child")...)
	ExpectWithOffset(1, all).NotTo(BeEmpty())
	for _, pid := range all {
		EventuallyWithOffset(1, func() bool { return alive(pid) }).WithTimeout(5*time.Second).
			Should(BeFalse(), "process %d is left running", pid)
	}
}

var _ = Describe("A misbehaving stdio MCP server", Label("faults"), func() {
	var (
		dir string
		log *badLog
	)
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		log = &badLog{}
	})

	It("is served although it writes lines that are not JSON-RPC before its first answer and between answers; the lines are logged", func() {
		m := start(map[string]mcp.ServerConfig{"bad": badServer(dir, "BAD_GARBAGE", "1")}, mcp.Options{Log: log.add})
		waitAll(m)
		Expect(state(m, "bad").State).To(Equal(mcp.StateConnected), "%v", state(m, "bad").Err)
		for _, text := range []string{"one", "two", "three"} {
			res := call(find(m, "mcp__bad__echo"), `{"text":"`+text+`"}`)
			Expect(res.IsError).To(BeFalse(), res.Text())
			Expect(res.Text()).To(Equal(text))
		}
		Expect(pids(dir, "pid")).To(HaveLen(1), "one process served every call")
		Expect(log.String()).To(ContainSubstring(`MCP server "bad": skipped a line of stdout that is not a JSON-RPC message: badserver: this is a log line on stdout`))
		Expect(log.String()).To(ContainSubstring(`skipped a line of stdout that is not a JSON-RPC message: {"some":"json that is not JSON-RPC"}`))
		Expect(m.Close()).To(Succeed())
		expectGone(dir)
	})

	It("ends a call the server never answers at the time limit with an error naming the server and the limit, cancels it on the server, and serves the next call", func() {
		m := start(map[string]mcp.ServerConfig{"bad": badServer(dir)}, mcp.Options{CallTimeout: 300 * time.Millisecond})
		waitAll(m)
		res := call(find(m, "mcp__bad__hang"), `{}`)
		Expect(res.IsError).To(BeTrue())
		Expect(res.Text()).To(HavePrefix(`MCP server "bad": the call of tool "hang" timed out after 300ms and was cancelled`))
		Expect(res.Text()).To(ContainSubstring("MCP_TOOL_TIMEOUT"))
		Eventually(func() string { return recorded(dir, "notes") }).Should(ContainSubstring(`"method":"notifications/cancelled"`))

		res = call(find(m, "mcp__bad__echo"), `{"text":"still serving"}`)
		Expect(res.IsError).To(BeFalse(), res.Text())
		Expect(res.Text()).To(Equal("still serving"))
		Expect(pids(dir, "pid")).To(HaveLen(1), "the same process serves on")
		Expect(m.Close()).To(Succeed())
		expectGone(dir)
	})

	It("fails only the call whose answer is cut short; the server serves the next call", func() {
		m := start(map[string]mcp.ServerConfig{"bad": badServer(dir)}, mcp.Options{Log: log.add})
		waitAll(m)
		res := call(find(m, "mcp__bad__cut"), `{}`)
		Expect(res.IsError).To(BeTrue())
		Expect(res.Text()).To(ContainSubstring(`MCP server "bad": the call of tool "cut" failed`))
		Expect(res.Text()).To(ContainSubstring("answer was not a valid JSON-RPC message"))
		Expect(log.String()).To(ContainSubstring(`MCP server "bad": its answer to request`))

		res = call(find(m, "mcp__bad__echo"), `{"text":"next"}`)
		Expect(res.IsError).To(BeFalse(), res.Text())
		Expect(res.Text()).To(Equal("next"))
		Expect(pids(dir, "pid")).To(HaveLen(1), "the connection stood")
		Expect(m.Close()).To(Succeed())
		expectGone(dir)
	})

	It("fails only the call whose answer is valid JSON but no tool result; the server serves the next call", func() {
		m := start(map[string]mcp.ServerConfig{"bad": badServer(dir)}, mcp.Options{})
		waitAll(m)
		res := call(find(m, "mcp__bad__badshape"), `{}`)
		Expect(res.IsError).To(BeTrue())
		Expect(res.Text()).To(ContainSubstring(`MCP server "bad": the call of tool "badshape" failed`))

		res = call(find(m, "mcp__bad__echo"), `{"text":"next"}`)
		Expect(res.IsError).To(BeFalse(), res.Text())
		Expect(pids(dir, "pid")).To(HaveLen(1), "the connection stood")
		Expect(m.Close()).To(Succeed())
		expectGone(dir)
	})

	It("ends the call of a server that crashes mid-call with an error naming it, and starts it again for the next call", func() {
		m := start(map[string]mcp.ServerConfig{"bad": badServer(dir)}, mcp.Options{})
		waitAll(m)
		res := call(find(m, "mcp__bad__crash"), `{}`)
		Expect(res.IsError).To(BeTrue())
		Expect(res.Text()).To(ContainSubstring(`MCP server "bad" stopped during the call of tool "crash"`))
		Expect(res.Text()).To(ContainSubstring("crashing on purpose"))

		res = call(find(m, "mcp__bad__echo"), `{"text":"again"}`)
		Expect(res.IsError).To(BeFalse(), res.Text())
		Expect(res.Text()).To(Equal("again"))
		Expect(pids(dir, "pid")).To(HaveLen(2), "a second process took over")
		Expect(m.Close()).To(Succeed())
		expectGone(dir)
	})

	It("waits for a slow start-up within the configured time, and says when the server connected", func() {
		connected := make(chan mcp.ServerStatus, 1)
		m := start(map[string]mcp.ServerConfig{"bad": badServer(dir, "BAD_INIT_MS", "400", "BAD_GARBAGE", "1")},
			mcp.Options{ConnectTimeout: 20 * time.Second, Connected: func(st mcp.ServerStatus) { connected <- st }})
		Expect(m.PendingServers()).To(Equal([]string{"bad"}))
		waitAll(m)
		Expect(state(m, "bad").State).To(Equal(mcp.StateConnected), "%v", state(m, "bad").Err)
		Expect(names(m.Tools())).To(ContainElement("mcp__bad__echo"))
		var st mcp.ServerStatus
		Eventually(connected).Should(Receive(&st))
		Expect(st.Name).To(Equal("bad"))
		Expect(st.State).To(Equal(mcp.StateConnected))
		Expect(st.Tools).To(Equal(6))
		Expect(m.Close()).To(Succeed())
		expectGone(dir)
	})

	It("gives up on a start-up slower than the configured time, saying so, and leaves no process", func() {
		m := start(map[string]mcp.ServerConfig{"bad": badServer(dir, "BAD_INIT_MS", "60000")}, mcp.Options{ConnectTimeout: 300 * time.Millisecond})
		waitAll(m)
		st := state(m, "bad")
		Expect(st.State).To(Equal(mcp.StateFailed))
		Expect(st.Err).To(MatchError(ContainSubstring(`MCP server "bad" did not finish starting within 300ms (raise MCP_TIMEOUT`)))
		expectGone(dir)
		Expect(m.Close()).To(Succeed())
	})

	It("on Close, ends a server that ignores its stdin closing with SIGTERM to its process group", func() {
		m := start(map[string]mcp.ServerConfig{"bad": badServer(dir, "BAD_IGNORE_STDIN", "1")}, mcp.Options{})
		waitAll(m)
		Expect(call(find(m, "mcp__bad__pid"), `{}`).IsError).To(BeFalse())
		Expect(m.Close()).To(Succeed())
		Expect(recorded(dir, "signal")).To(Equal("terminated"))
		expectGone(dir)
	})

	It("on Close, kills a server that ignores its stdin closing and SIGTERM", func() {
		m := start(map[string]mcp.ServerConfig{"bad": badServer(dir, "BAD_IGNORE_STDIN", "1", "BAD_IGNORE_TERM", "1")}, mcp.Options{})
		waitAll(m)
		Expect(m.Close()).To(Succeed())
		Expect(recorded(dir, "signal")).To(Equal("ignored terminated"))
		expectGone(dir)
	})

	It("on Close, leaves a server that exits when its stdin closes to exit by itself, and ends what it started", func() {
		m := start(map[string]mcp.ServerConfig{"bad": badServer(dir)}, mcp.Options{})
		waitAll(m)
		Expect(m.Close()).To(Succeed())
		Expect(recorded(dir, "signal")).To(BeEmpty(), "no signal was needed")
		expectGone(dir)
	})
})
