package egress_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/sandbox"
	"github.com/agentcore/agentcore/runtime/sandbox/egress"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// loopbackResolver maps every name under .test to 127.0.0.1, so that
// two loopback servers can stand in for an allowed and a denied host.
type loopbackResolver struct{}

func (loopbackResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if strings.HasSuffix(host, ".test") {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	return nil, fmt.Errorf("lookup %s: no such host", host)
}

var _ = Describe("A sandboxed command's network", Ordered, func() {
	var (
		dir           string
		allowed, deny *httptest.Server
		sb            *sandbox.Sandbox
		network       *egress.Network
		asked         []string
	)
	BeforeAll(func() {
		if err := sandbox.Check(""); err != nil {
			tooltest.Missing(tooltest.Bwrap, err.Error())
		}
		for _, p := range []string{"curl", "git"} {
			if _, err := exec.LookPath(p); err != nil {
				tooltest.Missing(p, p+" is not on PATH: install it (Debian: apt-get install "+p+")")
			}
		}
		dir = GinkgoT().TempDir()
		// The allowed host serves a page, and a git repository through
		// git's own smart-HTTP CGI program.
		repo := filepath.Join(dir, "srv", "repo.git")
		Expect(exec.Command("git", "init", "-q", "--bare", repo).Run()).To(Succeed())
		work := filepath.Join(dir, "srv", "work")
		git := func(args ...string) {
			cmd := exec.Command("git", args...)
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
			out, err := cmd.CombinedOutput()
			ExpectWithOffset(1, err).NotTo(HaveOccurred(), string(out))
		}
		Expect(os.MkdirAll(work, 0o755)).To(Succeed())
		git("init", "-q", "-b", "main")
		git("commit", "-q", "--allow-empty", "-m", "first")
		git("push", "-q", repo, "main")
		gitPath, _ := exec.LookPath("git")
		backend := &cgi.Handler{Path: gitPath, Args: []string{"http-backend"},
			Env: []string{"GIT_PROJECT_ROOT=" + filepath.Join(dir, "srv"), "GIT_HTTP_EXPORT_ALL=1"}}
		mux := http.NewServeMux()
		mux.Handle("/repo.git/", backend)
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello from the allowed host") })
		allowed = httptest.NewServer(mux)
		deny = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "LEAKED") }))
		DeferCleanup(allowed.Close)
		DeferCleanup(deny.Close)

		network = &egress.Network{Policy: &egress.Policy{
			Allowed:  []string{"allowed.test", "asked-yes.test", "*.wild.test"},
			Denied:   []string{"denied.test"},
			Resolver: loopbackResolver{},
			Ask: func(_ context.Context, host string) (bool, error) {
				asked = append(asked, host)
				return host == "unknown-yes.test", nil
			},
		}}
		sb = sandbox.New(&sandbox.Config{AllowedDomains: []string{"allowed.test"}}, sandbox.Options{Network: network})
		DeferCleanup(func() {
			sb.Close()
			Expect(network.Close()).To(Succeed())
		})
	})

	run := func(command string) (int, string) {
		GinkgoHelper()
		sp, err := sb.Spec([]string{dir})
		Expect(err).NotTo(HaveOccurred())
		out, err := os.Create(filepath.Join(dir, "out.log"))
		Expect(err).NotTo(HaveOccurred())
		defer out.Close()
		env := append(os.Environ(), "HOME="+dir)
		p, err := sp.Start(command, dir, env, out, false)
		Expect(err).NotTo(HaveOccurred())
		Eventually(p.Done()).WithTimeout(2 * time.Minute).Should(BeClosed())
		code, _, err := p.Exit()
		Expect(err).NotTo(HaveOccurred())
		b, err := os.ReadFile(out.Name())
		Expect(err).NotTo(HaveOccurred())
		return code, string(b)
	}
	port := func(s *httptest.Server) string {
		return s.Listener.Addr().(*net.TCPAddr).AddrPort().String()[len("127.0.0.1:"):]
	}

	It("reaches an allowed host through the HTTP proxy and gets a 403 naming a denied one", func() {
		code, out := run("curl -sS --max-time 20 http://allowed.test:" + port(allowed) + "/")
		Expect(code).To(Equal(0), out)
		Expect(out).To(Equal("hello from the allowed host"))

		code, out = run("curl -sS --max-time 20 -w '%{http_code}' http://denied.test:" + port(deny) + "/")
		Expect(out).NotTo(ContainSubstring("LEAKED"))
		Expect(out).To(ContainSubstring("denied.test"))
		Expect(out).To(ContainSubstring("deniedDomains"))
		Expect(out).To(HaveSuffix("403"))
		Expect(network.Denials()).To(ConsistOf(ContainSubstring("denied.test")))
		_ = code
	})

	It("tunnels CONNECT for an allowed host and refuses it for a denied one", func() {
		code, out := run("curl -sS --max-time 20 -p http://allowed.test:" + port(allowed) + "/")
		Expect(code).To(Equal(0), out)
		Expect(out).To(Equal("hello from the allowed host"))
		code, out = run("curl -sS --max-time 20 -p http://denied.test:" + port(deny) + "/")
		Expect(code).NotTo(Equal(0))
		Expect(out).NotTo(ContainSubstring("LEAKED"))
		Expect(out).To(ContainSubstring("403"))
	})

	It("resolves and filters through SOCKS5 (socks5h)", func() {
		code, out := run("curl -sS --max-time 20 --proxy \"$ALL_PROXY\" http://allowed.test:" + port(allowed) + "/")
		Expect(code).To(Equal(0), out)
		Expect(out).To(Equal("hello from the allowed host"))
		code, out = run("curl -sS --max-time 20 --proxy \"$ALL_PROXY\" http://denied.test:" + port(deny) + "/")
		Expect(code).NotTo(Equal(0))
		Expect(out).NotTo(ContainSubstring("LEAKED"))
	})

	It("lets git ls-remote reach the allowed host", func() {
		code, out := run("git ls-remote http://allowed.test:" + port(allowed) + "/repo.git")
		Expect(code).To(Equal(0), out)
		Expect(out).To(ContainSubstring("refs/heads/main"))
		_ = network.Denials()
		code, out = run("git ls-remote http://denied.test:" + port(deny) + "/repo.git")
		Expect(code).NotTo(Equal(0))
		Expect(out).To(ContainSubstring("403"))
		Expect(network.Denials()).To(ConsistOf(ContainSubstring("refused network access to denied.test: sandbox.network.deniedDomains")),
			"the Bash result's note names the host")
	})

	It("refuses a name a wildcard allows when it resolves to loopback (DNS rebinding), through curl in the sandbox", func() {
		// The resolver maps every .test name to 127.0.0.1: what a
		// rebinding resolver answers the second time. A wildcard never
		// opens a private address; only an exact name or the address can.
		_ = network.Denials()
		_, out := run("curl -sS --max-time 20 http://rebound.wild.test:" + port(deny) + "/")
		Expect(out).NotTo(ContainSubstring("LEAKED"))
		Expect(out).To(ContainSubstring("private, loopback or link-local"))
		Expect(network.Denials()).To(ConsistOf(ContainSubstring("rebound.wild.test")))
		_, out = run("curl -sS --max-time 20 -p http://rebound.wild.test:" + port(deny) + "/")
		Expect(out).NotTo(ContainSubstring("LEAKED"))
		_, out = run("curl -sS --max-time 20 --proxy \"$ALL_PROXY\" http://rebound.wild.test:" + port(deny) + "/")
		Expect(out).NotTo(ContainSubstring("LEAKED"))
	})

	It("gives a program that ignores the proxy variables no way out", func() {
		code, out := run("curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:" + port(deny) + "/")
		Expect(code).NotTo(Equal(0))
		Expect(out).NotTo(ContainSubstring("LEAKED"))
		code, out = run("exec 3<>/dev/tcp/127.0.0.1/" + port(deny) + " && echo CONNECTED")
		Expect(code).NotTo(Equal(0))
		Expect(out).NotTo(ContainSubstring("CONNECTED"))
	})

	It("refuses IP literals and --resolve tricks that point an allowed name elsewhere", func() {
		code, out := run("curl -sS --max-time 20 http://127.0.0.1:" + port(deny) + "/")
		Expect(code).To(Equal(0), "curl gets the proxy's 403 page: "+out)
		Expect(out).NotTo(ContainSubstring("LEAKED"))
		Expect(out).To(ContainSubstring("private, loopback"))
		// --resolve changes what curl itself would dial; through the
		// proxy the proxy resolves the name, and denied stays denied.
		_, out = run("curl -sS --max-time 20 --resolve denied.test:" + port(deny) + ":127.0.0.1 http://denied.test:" + port(deny) + "/")
		Expect(out).NotTo(ContainSubstring("LEAKED"))
		_, out = run("curl -sS --max-time 20 -H 'Host: allowed.test' http://denied.test:" + port(deny) + "/")
		Expect(out).NotTo(ContainSubstring("LEAKED"))
	})

	It("asks about an unknown host once, remembers the answer, and never opens loopback on the user's word", func() {
		asked = nil
		for range 2 {
			// The user says yes, but the name resolves to loopback: only
			// the settings can open a private address.
			_, out := run("curl -sS --max-time 20 http://unknown-yes.test:" + port(allowed) + "/")
			Expect(out).NotTo(ContainSubstring("hello"))
			Expect(out).To(ContainSubstring("private, loopback or link-local"))
			_, out = run("curl -sS --max-time 20 http://unknown-no.test:" + port(deny) + "/")
			Expect(out).NotTo(ContainSubstring("LEAKED"))
			Expect(out).To(ContainSubstring("the permission prompt refused it"))
		}
		Expect(asked).To(Equal([]string{"unknown-yes.test", "unknown-no.test"}))
	})
})
