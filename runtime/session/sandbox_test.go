package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/sandbox"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// The Bash sandbox end to end: the settings of a temp project turn it on,
// the real Bash tool runs its commands inside a real bubblewrap, and the
// permission engine decides dangerouslyDisableSandbox.
var _ = Describe("The Bash sandbox in a session", func() {
	var dir, home string
	ctx := context.Background()

	BeforeEach(func() {
		tooltest.Need(tooltest.Bwrap)
		DeferCleanup(tooltest.LeakCheck(GinkgoT()))
		var err error
		dir, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		home, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		Expect(os.MkdirAll(filepath.Join(dir, ".git", "hooks"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("[core]\n"), 0o644)).To(Succeed())
	})
	settings := func(body string) {
		GinkgoHelper()
		Expect(os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(body), 0o644)).To(Succeed())
	}
	openWith := func(o session.Options) (*session.Session, error) {
		o.Dir, o.Home, o.Tools = dir, home, generated.AllBaseTools()
		o.Permissions.SettingsFiles = true
		o.Permissions.ConfigDir = filepath.Join(home, ".claude")
		if o.Permissions.Mode == "" {
			o.Permissions.Mode = permission.ModeBypass
		}
		if o.Permissions.Asker == nil {
			o.Permissions.Asker = ask.NonInteractive{}
		}
		s, err := session.Open(ctx, o)
		if err == nil {
			DeferCleanup(s.Close)
		}
		return s, err
	}
	open := func(o session.Options) *session.Session {
		GinkgoHelper()
		s, err := openWith(o)
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	bash := func(s *session.Session, in map[string]any) runtime.Result {
		GinkgoHelper()
		raw, err := json.Marshal(in)
		Expect(err).NotTo(HaveOccurred())
		var res *runtime.Result
		for ev := range s.Exec(ctx, []orchestrate.ToolUse{{ID: "b1", Name: "Bash", Input: raw}}) {
			if ev.Kind == orchestrate.EventResult {
				res = &ev.Result
			}
		}
		Expect(res).NotTo(BeNil())
		return *res
	}
	run := func(s *session.Session, command string) runtime.Result {
		GinkgoHelper()
		return bash(s, map[string]any{"command": command})
	}
	listener := func() string {
		GinkgoHelper()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(ln.Close)
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
		return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	}

	Context("with sandbox.enabled in the project's settings", func() {
		BeforeEach(func() { settings(`{"sandbox": {"enabled": true}}`) })

		It("registers the confinement as a service, the settings files protected", func() {
			s := open(session.Options{})
			sb, ok := runtime.Service[*sandbox.Sandbox](s.ToolContext())
			Expect(ok).To(BeTrue())
			Expect(s.Sandbox()).To(BeIdenticalTo(sb))
			Expect(sb.Config().Protected).To(ContainElements(".git/hooks", ".git/config", ".claude/settings.json"))
			Expect(sb.Config().AllowUnsandboxed).To(BeTrue())
		})

		It("denies a write outside the working directory with an error that says the sandbox did", func() {
			// Outside /tmp, which is the sandbox's own.
			outside, err := os.MkdirTemp("/var/tmp", "agentcore-sandbox-")
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(os.RemoveAll, outside)
			s := open(session.Options{})
			for _, target := range []string{tooltest.Marker("/etc", "sandbox"), filepath.Join(outside, "x")} {
				res := run(s, "touch "+target)
				Expect(res.IsError).To(BeTrue(), "%s", res.Text())
				Expect(res.Text()).To(ContainSubstring("Read-only file system"))
				Expect(res.Text()).To(ContainSubstring("the sandbox denied the write"))
				Expect(target).NotTo(BeAnExistingFile())
			}
		})

		It("runs the session's commands in one sandbox kept alive, which shares its /tmp and ends with the session", func() {
			s := open(session.Options{})
			pid := regexp.MustCompile(`server=(\d+)`)
			kept := tooltest.Marker("/tmp", "session-kept")
			first := run(s, "echo server=$PPID; echo kept > "+kept)
			Expect(first.IsError).To(BeFalse(), "%s", first.Text())
			second := run(s, "echo server=$PPID; cat "+kept)
			Expect(second.IsError).To(BeFalse(), "%s", second.Text())
			Expect(second.Text()).To(ContainSubstring("kept"), "the next command sees the first one's /tmp")
			m1, m2 := pid.FindStringSubmatch(first.Text()), pid.FindStringSubmatch(second.Text())
			Expect(m1).To(HaveLen(2), first.Text())
			Expect(m2).To(Equal(m1), "one server forked both")
			inside, err := strconv.Atoi(m1[1])
			Expect(err).NotTo(HaveOccurred())
			// $PPID is the server's pid in the sandbox's pid namespace;
			// the host knows it by another.
			server := s.Sandbox().HostPID(inside)
			Expect(server).To(BeNumerically(">", 0))
			stat, err := os.ReadFile("/proc/" + strconv.Itoa(server) + "/stat")
			Expect(err).NotTo(HaveOccurred(), "the server runs between commands")
			// Its parent is bwrap's init, pid 1 of the namespace, whose
			// parent is bwrap.
			initp := regexp.MustCompile(`\) \S+ (\d+)`).FindStringSubmatch(string(stat))
			Expect(initp).To(HaveLen(2))
			stat, err = os.ReadFile("/proc/" + initp[1] + "/stat")
			Expect(err).NotTo(HaveOccurred())
			bwrap := regexp.MustCompile(`\) \S+ (\d+)`).FindStringSubmatch(string(stat))
			Expect(bwrap).To(HaveLen(2))
			comm, err := os.ReadFile("/proc/" + bwrap[1] + "/comm")
			Expect(err).NotTo(HaveOccurred())
			Expect(string(comm)).To(Equal("bwrap\n"))

			Expect(s.Close()).To(Succeed())
			for _, p := range []string{strconv.Itoa(server), bwrap[1]} {
				Eventually(func() string {
					b, _ := os.ReadFile("/proc/" + p + "/stat")
					return string(b)
				}).Should(Or(BeEmpty(), MatchRegexp(`\) [ZX] `)), "no bwrap or server left once the session closed (pid %s)", p)
			}
		})

		It("lets a command write inside the working directory and its private /tmp", func() {
			s := open(session.Options{})
			scratch := tooltest.Marker("/tmp", "sandbox-scratch")
			res := run(s, "touch ./x && echo scratch > "+scratch+" && cat "+scratch)
			Expect(res.IsError).To(BeFalse(), "%s", res.Text())
			Expect(res.Text()).To(ContainSubstring("scratch"))
			Expect(filepath.Join(dir, "x")).To(BeAnExistingFile())
			Expect(scratch).NotTo(BeAnExistingFile(), "the sandbox's /tmp is its own")
		})

		// The writes are in a script so that the permission engine, which
		// asks for a protected path it can see, lets the command through
		// to the sandbox.
		DescribeTable("keeps the protected paths read-only inside the working directory",
			func(script, file string) {
				before, _ := os.ReadFile(filepath.Join(dir, file))
				Expect(os.WriteFile(filepath.Join(dir, "w.sh"), []byte(script), 0o644)).To(Succeed())
				s := open(session.Options{})
				res := run(s, "bash w.sh")
				Expect(res.IsError).To(BeTrue(), "%s", res.Text())
				Expect(res.Text()).To(ContainSubstring("the sandbox denied the write"))
				after, _ := os.ReadFile(filepath.Join(dir, file))
				Expect(after).To(Equal(before))
			},
			Entry("a git hook", "echo evil > .git/hooks/pre-commit", ".git/hooks/pre-commit"),
			Entry("the git config", "echo '[core] pager = evil' >> .git/config", ".git/config"),
			Entry("the settings file", "echo '{}' > .claude/settings.json", ".claude/settings.json"),
			Entry("a missing .mcp.json", `echo '{"mcpServers":{}}' > .mcp.json`, ".mcp.json"),
			Entry("a missing local settings file", "echo '{}' > .claude/settings.local.json", ".claude/settings.local.json"),
		)

		It("cuts the network: a loopback listener cannot be reached", func() {
			port := listener()
			s := open(session.Options{})
			for _, command := range []string{
				"exec 3<>/dev/tcp/127.0.0.1/" + port,
				"curl -sS --max-time 5 http://127.0.0.1:" + port + "/",
			} {
				res := run(s, command)
				Expect(res.IsError).To(BeTrue(), "%s: %s", command, res.Text())
				Expect(res.Text()).To(ContainSubstring("the sandbox denied network access"), command)
			}
		})

		It("confines a background command too", func() {
			s := open(session.Options{})
			marker := tooltest.Marker("/etc", "sandbox-bg")
			res := bash(s, map[string]any{"command": "touch ./bg; touch " + marker + "; echo exit=$?", "run_in_background": true})
			Expect(res.IsError).To(BeFalse(), "%s", res.Text())
			m := regexp.MustCompile(`Output is being written to: (\S+)\.`).FindStringSubmatch(res.Text())
			Expect(m).To(HaveLen(2), res.Text())
			Eventually(func() (string, error) {
				b, err := os.ReadFile(m[1])
				return string(b), err
			}).Should(And(ContainSubstring("Read-only file system"), ContainSubstring("exit=1")))
			Expect(filepath.Join(dir, "bg")).To(BeAnExistingFile())
			Expect(marker).NotTo(BeAnExistingFile())
		})

		It("denies dangerouslyDisableSandbox in bypassPermissions mode when nobody can be asked, an allow rule notwithstanding", func() {
			target := filepath.Join(home, "outside")
			allow, err := permission.ParseRule("Bash(touch:*)", runtime.Allow)
			Expect(err).NotTo(HaveOccurred())
			s := open(session.Options{Permissions: permission.Sources{Rules: []permission.Rule{allow}}})
			res := bash(s, map[string]any{"command": "touch " + target, "dangerouslyDisableSandbox": true})
			Expect(res.IsError).To(BeTrue(), "%s", res.Text())
			Expect(res.Text()).To(ContainSubstring("outside the sandbox"))
			Expect(res.Text()).To(ContainSubstring("non-interactive"))
			Expect(target).NotTo(BeAnExistingFile())
		})

		It("runs a dangerouslyDisableSandbox command outside once the user approves it, asked even in bypassPermissions mode", func() {
			target := filepath.Join(home, "outside")
			asker := &recordingAsker{answer: ask.AnswerAllowOnce}
			s := open(session.Options{Permissions: permission.Sources{Asker: asker}})
			res := bash(s, map[string]any{"command": "touch " + target, "dangerouslyDisableSandbox": true})
			Expect(res.IsError).To(BeFalse(), "%s", res.Text())
			Expect(target).To(BeAnExistingFile())
			reqs := asker.requests()
			Expect(reqs).NotTo(BeEmpty())
			Expect(reqs[len(reqs)-1].Message).To(ContainSubstring("outside the sandbox"))
			Expect(reqs[len(reqs)-1].Suggestion).To(BeEmpty(), "no rule can remember it")

			asker.answer = ask.AnswerDeny
			res = bash(s, map[string]any{"command": "touch " + target + "-2", "dangerouslyDisableSandbox": true})
			Expect(res.IsError).To(BeTrue())
			Expect(target + "-2").NotTo(BeAnExistingFile())
		})
	})

	Context("the agent's secrets", func() {
		BeforeEach(func() {
			GinkgoT().Setenv("ANTHROPIC_API_KEY", "sk-ant-secret-1")
			GinkgoT().Setenv("OPENAI_API_KEY", "sk-openai-secret-2")
			GinkgoT().Setenv("AWS_SECRET_ACCESS_KEY", "aws-secret-3")
			GinkgoT().Setenv("GITHUB_TOKEN", "gh-secret-4")
			GinkgoT().Setenv("AGENTCORE_HARMLESS", "harmless-5")
			GinkgoT().Setenv("HOME", home)
			Expect(os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)).To(Succeed())
			Expect(os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("PRIVATE-KEY-6"), 0o600)).To(Succeed())
			Expect(os.WriteFile(filepath.Join(home, ".ssh", "known_hosts"), []byte("KNOWN-HOSTS-7"), 0o644)).To(Succeed())
			Expect(os.WriteFile(filepath.Join(home, ".netrc"), []byte("NETRC-8"), 0o600)).To(Succeed())
			Expect(os.MkdirAll(filepath.Join(home, ".agentcore"), 0o700)).To(Succeed())
			Expect(os.WriteFile(filepath.Join(home, ".agentcore", "settings.json"), []byte(`{"agent":"SETTINGS-9"}`), 0o600)).To(Succeed())
		})

		It("keeps the credentials out of env inside the sandbox, the settings' names too", func() {
			settings(`{"sandbox": {"enabled": true, "credentials": {"env": ["GITHUB_TOKEN"], "keepEnv": ["OPENAI_API_KEY"]}}}`)
			s := open(session.Options{})
			res := run(s, "env")
			Expect(res.IsError).To(BeFalse(), "%s", res.Text())
			Expect(res.Text()).To(ContainSubstring("harmless-5"), "the rest of the environment is kept")
			for _, secret := range []string{"ANTHROPIC_API_KEY", "sk-ant-secret-1", "sk-openai-secret-2", "aws-secret-3", "gh-secret-4"} {
				Expect(res.Text()).NotTo(ContainSubstring(secret))
			}
		})

		It("keeps them out of env outside the sandbox too, but for a name the settings keep", func() {
			settings(`{"sandbox": {"credentials": {"env": ["GITHUB_TOKEN"], "keepEnv": ["OPENAI_API_KEY"]}}}`)
			s := open(session.Options{})
			Expect(s.Sandbox()).To(BeNil())
			res := run(s, "env")
			Expect(res.IsError).To(BeFalse(), "%s", res.Text())
			Expect(res.Text()).To(And(ContainSubstring("harmless-5"), ContainSubstring("sk-openai-secret-2")))
			for _, secret := range []string{"sk-ant-secret-1", "aws-secret-3", "gh-secret-4"} {
				Expect(res.Text()).NotTo(ContainSubstring(secret))
			}
		})

		It("refuses to read credential files and the agent's settings inside the sandbox, but for what allowRead shows", func() {
			settings(`{"sandbox": {"enabled": true, "filesystem": {"allowRead": ["~/.ssh/known_hosts"]}}}`)
			s := open(session.Options{})
			res := run(s, "cat ~/.ssh/id_rsa")
			Expect(res.IsError).To(BeTrue(), "%s", res.Text())
			Expect(res.Text()).NotTo(ContainSubstring("PRIVATE-KEY-6"))
			Expect(res.Text()).To(ContainSubstring("the sandbox hides " + filepath.Join(home, ".ssh")))
			for _, f := range []string{"~/.netrc", "~/.agentcore/settings.json"} {
				res = run(s, "cat "+f)
				Expect(res.IsError).To(BeTrue(), "%s: %s", f, res.Text())
				Expect(res.Text()).NotTo(Or(ContainSubstring("NETRC-8"), ContainSubstring("SETTINGS-9")))
			}
			res = run(s, "cat ~/.ssh/known_hosts")
			Expect(res.IsError).To(BeFalse(), "%s", res.Text())
			Expect(res.Text()).To(ContainSubstring("KNOWN-HOSTS-7"))
		})
	})

	It("refuses dangerouslyDisableSandbox outright when allowUnsandboxedCommands is false", func() {
		settings(`{"sandbox": {"enabled": true, "allowUnsandboxedCommands": false}}`)
		asker := &recordingAsker{answer: ask.AnswerAllowOnce}
		s := open(session.Options{Permissions: permission.Sources{Asker: asker}})
		res := bash(s, map[string]any{"command": "touch " + filepath.Join(home, "x"), "dangerouslyDisableSandbox": true})
		Expect(res.IsError).To(BeTrue())
		Expect(res.Text()).To(ContainSubstring("sandbox.allowUnsandboxedCommands is false"))
		Expect(asker.requests()).To(BeEmpty())
		Expect(filepath.Join(home, "x")).NotTo(BeAnExistingFile())
	})

	It("turns on with Options.Sandbox (--sandbox) when the settings say nothing", func() {
		s := open(session.Options{Sandbox: true})
		Expect(s.Sandbox()).NotTo(BeNil())
		marker := tooltest.Marker("/etc", "sandbox")
		Expect(run(s, "touch "+marker).Text()).To(ContainSubstring("the sandbox denied the write"))
		Expect(marker).NotTo(BeAnExistingFile())
	})

	It("leaves commands and dangerouslyDisableSandbox alone when the sandbox is off", func() {
		port := listener()
		s := open(session.Options{})
		Expect(s.Sandbox()).To(BeNil())
		res := run(s, "exec 3<>/dev/tcp/127.0.0.1/"+port)
		Expect(res.IsError).To(BeFalse(), "%s", res.Text())
		res = bash(s, map[string]any{"command": "touch " + filepath.Join(home, "x"), "dangerouslyDisableSandbox": true})
		Expect(res.IsError).To(BeFalse(), "%s", res.Text())
		Expect(filepath.Join(home, "x")).To(BeAnExistingFile())
	})

	It("adds allowWrite and denyWrite paths, relative ones against the project root", func() {
		extra := filepath.Join(home, "extra")
		Expect(os.MkdirAll(extra, 0o755)).To(Succeed())
		Expect(os.MkdirAll(filepath.Join(dir, "vendor"), 0o755)).To(Succeed())
		settings(`{"sandbox": {"enabled": true, "filesystem": {"allowWrite": ["` + extra + `"], "denyWrite": ["vendor"]}}}`)
		s := open(session.Options{})
		res := run(s, "touch "+filepath.Join(extra, "ok"))
		Expect(res.IsError).To(BeFalse(), "%s", res.Text())
		Expect(filepath.Join(extra, "ok")).To(BeAnExistingFile())
		Expect(os.WriteFile(filepath.Join(dir, "w.sh"), []byte("touch vendor/no"), 0o644)).To(Succeed())
		res = run(s, "bash w.sh")
		Expect(res.Text()).To(ContainSubstring("the sandbox denied the write"))
		Expect(filepath.Join(dir, "vendor", "no")).NotTo(BeAnExistingFile())
	})

	It("filters the network through its proxies when some host is allowed", func() {
		site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello from an allowed host") }))
		DeferCleanup(site.Close)
		port := strconv.Itoa(site.Listener.Addr().(*net.TCPAddr).Port)
		settings(`{"sandbox": {"enabled": true, "network": {"allowedDomains": ["127.0.0.1"]}}}`)
		s := open(session.Options{})
		res := run(s, "curl -sS --max-time 20 http://127.0.0.1:"+port+"/")
		Expect(res.IsError).To(BeFalse(), "%s", res.Text())
		Expect(res.Text()).To(ContainSubstring("hello from an allowed host"))
		// A host no rule decides, and nobody to ask: refused, named.
		res = run(s, "curl -sS --max-time 20 http://localhost:"+port+"/")
		Expect(res.Text()).NotTo(ContainSubstring("hello from an allowed host"))
		Expect(strings.Count(res.Text(), "the sandbox refused network access to localhost")).To(Equal(1), "said once: %s", res.Text())
		// A program that hides the proxy's answer gets the sandbox's note.
		res = run(s, "curl -sS -o /dev/null --max-time 20 http://localhost:"+port+"/")
		Expect(strings.Count(res.Text(), "[sandbox] the sandbox refused network access to localhost")).To(Equal(1), "said once: %s", res.Text())
		// A connection that ignores the proxy reaches nothing.
		res = run(s, "exec 3<>/dev/tcp/127.0.0.1/"+port+" && echo CONNECTED")
		Expect(res.Text()).NotTo(ContainSubstring("CONNECTED"))
	})

	It("refuses the keys it cannot honour at start, naming them", func() {
		settings(`{"sandbox": {"enabled": true, "excludedCommands": ["docker"], "network": {"httpProxyPort": 8080}}}`)
		_, err := openWith(session.Options{})
		Expect(err).To(MatchError(And(ContainSubstring("sandbox.excludedCommands (docker)"), ContainSubstring("httpProxyPort"))))
	})

	Context("when bwrap is not on PATH", func() {
		BeforeEach(func() {
			bin := GinkgoT().TempDir()
			// bash stays reachable: the fallback runs commands with it.
			Expect(os.Symlink("/bin/bash", filepath.Join(bin, "bash"))).To(Succeed())
			GinkgoT().Setenv("PATH", bin)
		})

		It("fails at start with sandbox.failIfUnavailable, running nothing", func() {
			settings(`{"sandbox": {"enabled": true, "failIfUnavailable": true}}`)
			_, err := openWith(session.Options{})
			Expect(err).To(MatchError(sandbox.BwrapMissingHelp))
		})

		It("fails at start when Options.Sandbox (--sandbox) asked for it", func() {
			_, err := openWith(session.Options{Sandbox: true})
			Expect(err).To(MatchError(sandbox.BwrapMissingHelp))
		})

		It("runs commands without it otherwise, and the first result says the sandbox is off and why", func() {
			settings(`{"sandbox": {"enabled": true}}`)
			s := open(session.Options{})
			Expect(s.Sandbox()).To(BeNil())
			Expect(s.SandboxOff()).To(MatchError(sandbox.BwrapMissingHelp))
			first := run(s, "echo one; exit 3")
			Expect(first.IsError).To(BeTrue())
			Expect(first.Text()).To(And(ContainSubstring("one"), ContainSubstring("the sandbox is off, commands run without it"),
				ContainSubstring("bubblewrap"), ContainSubstring("sandbox.failIfUnavailable")))
			second := run(s, "echo two")
			Expect(second.IsError).To(BeFalse(), "%s", second.Text())
			Expect(second.Text()).To(ContainSubstring("two"))
			Expect(second.Text()).NotTo(ContainSubstring("sandbox is off"), "said once, on the first result")
		})
	})

	It("fails at start with the options' own check's error", func() {
		settings(`{"sandbox": {"enabled": true, "failIfUnavailable": true}}`)
		_, err := openWith(session.Options{CheckSandbox: func(*sandbox.Config) error { return errors.New("no sandbox today") }})
		Expect(err).To(MatchError("no sandbox today"))
	})
})
