package egress_test

import (
	"context"
	"errors"
	"net/netip"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/sandbox/egress"
)

// fakeResolver answers from a table; calls counts lookups per host, and
// then, when set, gives a host's later lookups other addresses (a
// rebinding resolver).
type fakeResolver struct {
	table map[string][]string
	then  map[string][]string
	calls map[string]int
}

func (r *fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if r.calls == nil {
		r.calls = map[string]int{}
	}
	r.calls[host]++
	src := r.table
	if r.calls[host] > 1 && r.then[host] != nil {
		src = r.then
	}
	addrs, ok := src[host]
	if !ok {
		return nil, errors.New("no such host")
	}
	var out []netip.Addr
	for _, a := range addrs {
		out = append(out, netip.MustParseAddr(a))
	}
	return out, nil
}

var _ = Describe("Policy", func() {
	var res *fakeResolver
	BeforeEach(func() {
		res = &fakeResolver{table: map[string][]string{
			"example.com":       {"93.184.216.34"},
			"api.example.com":   {"93.184.216.35"},
			"intranet.example":  {"10.0.0.5"},
			"allowed.test":      {"127.0.0.1"},
			"evil.example.com":  {"127.0.0.1"},
			"mixed.example.com": {"93.184.216.36", "192.168.1.1"},
		}}
	})
	denied := func(_ []netip.Addr, err error) *egress.Denied {
		var d *egress.Denied
		ExpectWithOffset(1, errors.As(err, &d)).To(BeTrue(), "want a *Denied, got %v", err)
		return d
	}

	It("allows listed hosts and wildcard subdomains, and dials only checked addresses", func() {
		p := &egress.Policy{Allowed: []string{"example.com", "*.example.com"}, Resolver: res}
		addrs, err := p.Decide(context.Background(), "EXAMPLE.com.")
		Expect(err).NotTo(HaveOccurred())
		Expect(addrs).To(Equal([]netip.Addr{netip.MustParseAddr("93.184.216.34")}))
		_, err = p.Decide(context.Background(), "api.example.com")
		Expect(err).NotTo(HaveOccurred())
		addrs, err = p.Decide(context.Background(), "mixed.example.com")
		Expect(err).NotTo(HaveOccurred())
		Expect(addrs).To(Equal([]netip.Addr{netip.MustParseAddr("93.184.216.36")}), "the private address is dropped")
	})

	It("does not let a wildcard match the bare domain or a look-alike", func() {
		p := &egress.Policy{Allowed: []string{"*.example.com"}, Resolver: res}
		d := denied(p.Decide(context.Background(), "example.com"))
		Expect(d.Reason).To(ContainSubstring("sandbox.network.allowedDomains"))
		denied(p.Decide(context.Background(), "badexample.com"))
	})

	It("lets deniedDomains win over allowedDomains", func() {
		p := &egress.Policy{Allowed: []string{"*.example.com"}, Denied: []string{"api.example.com"}, Resolver: res}
		d := denied(p.Decide(context.Background(), "api.example.com"))
		Expect(d.Host).To(Equal("api.example.com"))
		Expect(d.Reason).To(ContainSubstring("deniedDomains"))
		Expect(d.Error()).To(ContainSubstring("api.example.com"))
	})

	It("refuses a wildcard-allowed name that resolves to loopback (DNS rebinding), on every lookup", func() {
		res.then = map[string][]string{"api.example.com": {"127.0.0.1"}}
		p := &egress.Policy{Allowed: []string{"*.example.com"}, Resolver: res}
		_, err := p.Decide(context.Background(), "api.example.com")
		Expect(err).NotTo(HaveOccurred())
		d := denied(p.Decide(context.Background(), "api.example.com"))
		Expect(d.Reason).To(ContainSubstring("private, loopback or link-local"))
		denied(p.Decide(context.Background(), "evil.example.com"))
	})

	It("refuses private and loopback IP literals in every spelling unless listed", func() {
		p := &egress.Policy{Allowed: []string{"*"}, Resolver: res}
		for _, h := range []string{"127.0.0.1", "[::1]", "::ffff:127.0.0.1", "[::ffff:7f00:1]", "10.1.2.3", "169.254.169.254", "[fe80::1]", "0.0.0.0", "100.64.0.1"} {
			d := denied(p.Decide(context.Background(), h))
			Expect(d.Reason).To(ContainSubstring("private"), h)
		}
		_, err := p.Decide(context.Background(), "93.184.216.34")
		Expect(err).NotTo(HaveOccurred(), "a public literal under *")
		listed := &egress.Policy{Allowed: []string{"127.0.0.1", "allowed.test"}, Resolver: res}
		_, err = listed.Decide(context.Background(), "::ffff:127.0.0.1")
		Expect(err).NotTo(HaveOccurred(), "the mapped form of a listed address")
		_, err = listed.Decide(context.Background(), "allowed.test")
		Expect(err).NotTo(HaveOccurred(), "a host listed by name may be on loopback")
	})

	It("asks about a host no rule decides, once, and keeps the answer", func() {
		var asked atomic.Int32
		p := &egress.Policy{Allowed: []string{"example.com"}, Resolver: res, Ask: func(_ context.Context, host string) (bool, error) {
			asked.Add(1)
			return host == "api.example.com", nil
		}}
		for range 3 {
			_, err := p.Decide(context.Background(), "api.example.com")
			Expect(err).NotTo(HaveOccurred())
			d := denied(p.Decide(context.Background(), "intranet.example"))
			Expect(d.Reason).To(ContainSubstring("the permission prompt refused it"))
		}
		Expect(asked.Load()).To(BeEquivalentTo(2))
	})

	It("refuses an undecided host when nobody can be asked, naming the setting", func() {
		p := &egress.Policy{Resolver: res}
		d := denied(p.Decide(context.Background(), "example.com"))
		Expect(d.Error()).To(ContainSubstring("example.com"))
		Expect(d.Error()).To(ContainSubstring("add it to sandbox.network.allowedDomains"))
		Expect(p.Denials()).To(ConsistOf(ContainSubstring("example.com")))
		Expect(p.Denials()).To(BeEmpty(), "Denials forgets what it returned")
	})
})
