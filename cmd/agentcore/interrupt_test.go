//go:build !internal && !ant

package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gbytes"
	"github.com/onsi/gomega/gexec"
)

// alive says whether pid is a running process: not gone, not a zombie
// waiting for a parent to reap it.
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndex(s, ")")+1:])
	return len(fields) > 0 && fields[0] != "Z"
}

var _ = Describe("Ctrl+C (SIGINT) ends agentcore through the session's Close", Ordered, func() {
	var badserver string
	BeforeAll(func() {
		if goruntime.GOOS != "linux" {
			Skip("the MCP server's liveness is read from /proc")
		}
		var err error
		badserver, err = gexec.Build("github.com/agentcore/agentcore/runtime/mcp/testdata/badserver")
		Expect(err).NotTo(HaveOccurred())
	})

	var (
		dir, serverDir string
		cmd            *exec.Cmd
		stdout         *gbytes.Buffer
	)
	// start runs agentcore run with a stdio MCP server that outlives
	// its stdin (BAD_IGNORE_STDIN): only Close's stop ends it.
	BeforeEach(func() {
		dir, _ = filepath.EvalSymlinks(GinkgoT().TempDir())
		serverDir = GinkgoT().TempDir()
	})
	start := func(stdin io.Reader, args ...string) {
		cfg, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
			"bad": map[string]any{"command": badserver, "env": map[string]string{"BAD_DIR": serverDir, "BAD_IGNORE_STDIN": "1"}},
		}})
		Expect(err).NotTo(HaveOccurred())
		cmd = exec.Command(binaries["external"], append([]string{"run", "--permission-mode", "bypassPermissions", "--mcp-config", string(cfg)}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TMPDIR="+GinkgoT().TempDir(), "HOME="+dir, "AGENTCORE_CONFIG_DIR="+dir, "CLAUDE_CONFIG_DIR=",
			"ANTHROPIC_API_KEY=", "ANTHROPIC_AUTH_TOKEN=", "ANTHROPIC_MODEL=", "ANTHROPIC_BASE_URL=", "AGENTCORE_REPLAY_SPEED=0", "NO_COLOR=1")
		cmd.Stdin = stdin
		stdout = gbytes.NewBuffer()
		cmd.Stdout, cmd.Stderr = io.MultiWriter(stdout, GinkgoWriter), GinkgoWriter
		Expect(cmd.Start()).To(Succeed())
		DeferCleanup(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			if b, err := os.ReadFile(filepath.Join(serverDir, "pid")); err == nil {
				if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
					if p, err := os.FindProcess(pid); err == nil {
						_ = p.Kill()
					}
				}
			}
		})
	}
	serverPid := func() int {
		var pid int
		Eventually(func() error {
			b, err := os.ReadFile(filepath.Join(serverDir, "pid"))
			if err != nil {
				return err
			}
			pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
			return err
		}, 20*time.Second, 20*time.Millisecond).Should(Succeed(), "the MCP server started")
		return pid
	}
	// ended waits for agentcore's exit and checks what Close leaves: no
	// MCP server, and a transcript whose lines are whole JSON.
	ended := func(pid int) {
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var err error
		Eventually(done, 30*time.Second).Should(Receive(&err))
		var ee *exec.ExitError
		Expect(err).To(BeAssignableToTypeOf(ee), "agentcore exits with a code")
		Expect(err.(*exec.ExitError).ExitCode()).To(Equal(130))
		Expect(alive(pid)).To(BeFalse(), "Close stopped the MCP server (pid %d)", pid)
		files := sessionFiles(projectDir(dir, dir))
		Expect(files).To(HaveLen(1))
		data, err := os.ReadFile(files[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(data).To(HaveSuffix("\n"), "the last line is complete")
		lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
		Expect(json.Valid(lines[len(lines)-1])).To(BeTrue(), "the last line is whole JSON: %s", lines[len(lines)-1])
	}
	scenario := func(command string) string {
		scn := filepath.Join(dir, "scenario.jsonl")
		input, _ := json.Marshal(map[string]string{"command": command, "description": "Wait"})
		Expect(os.WriteFile(scn, []byte(`{"prompt":"wait"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Bash","input":`+string(input)+`}]}
{"blocks":[{"type":"text","text":"Done."}]}`), 0o644)).To(Succeed())
		return scn
	}

	It("during a turn: the first press interrupts it, and agentcore exits 130 after Close", func() {
		scn := scenario("touch started && sleep 30")
		start(strings.NewReader(""), "--model", "replay:"+scn, "-p", "wait")
		pid := serverPid()
		Eventually(filepath.Join(dir, "started"), 20*time.Second, 20*time.Millisecond).Should(BeAnExistingFile())
		Expect(cmd.Process.Signal(os.Interrupt)).To(Succeed())
		ended(pid)
	})

	It("during a build that finishes on interrupt: the second press aborts it", func() {
		Expect(os.WriteFile(filepath.Join(dir, "slow.mk"), []byte("all:\n\ttouch started && sleep 30\n"), 0o644)).To(Succeed())
		scn := scenario("make -f slow.mk")
		start(strings.NewReader(""), "--model", "replay:"+scn, "-p", "wait")
		pid := serverPid()
		Eventually(filepath.Join(dir, "started"), 20*time.Second, 20*time.Millisecond).Should(BeAnExistingFile())
		Expect(cmd.Process.Signal(os.Interrupt)).To(Succeed())
		Eventually(stdout, 10*time.Second).Should(gbytes.Say("Interrupting"))
		Consistently(func() *os.ProcessState { return cmd.ProcessState }, 500*time.Millisecond).Should(BeNil(), "the build goes on after one press")
		Expect(cmd.Process.Signal(os.Interrupt)).To(Succeed())
		ended(pid)
	})

	It("between turns (the Agent SDK's conversation waiting for a prompt): a press exits 130 after Close", func() {
		// An *os.File, so that Wait does not wait for a copy from it: the
		// host keeps stdin open while agentcore exits.
		stdin, host, err := os.Pipe()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(host.Close)
		DeferCleanup(stdin.Close)
		start(stdin, "--model", "replay", "--input-format", "stream-json", "--output-format", "stream-json")
		// The session, and its MCP servers, start after the host's first
		// message.
		_, err = fmt.Fprintln(host, `{"type":"user","message":{"role":"user","content":"look around"}}`)
		Expect(err).NotTo(HaveOccurred())
		pid := serverPid()
		Eventually(stdout, 30*time.Second).Should(gbytes.Say(`"type":"result"`))
		Expect(cmd.Process.Signal(os.Interrupt)).To(Succeed())
		ended(pid)
	})
})
