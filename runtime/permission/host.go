package permission

import (
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// NormalizeHost returns the form of a URL's host that WebFetch's domain
// rules are matched against, so one address written many ways meets the
// same rule: lower case, no trailing dots, no brackets, an IPv4-mapped
// IPv6 address (::ffff:127.0.0.1) as its IPv4 address, and the IPv4
// forms inet_aton accepts (2130706433, 0177.0.0.1, 0x7f.1, 127.1) as
// dotted decimal. A name that is none of these is returned lower-cased.
func NormalizeHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if uh, err := url.PathUnescape(h); err == nil {
		h = uh
	}
	h = strings.TrimPrefix(strings.TrimSuffix(h, "]"), "[")
	h = strings.TrimRight(h, ".")
	if i := strings.IndexByte(h, '%'); i >= 0 && strings.Contains(h, ":") {
		h = h[:i] // an IPv6 zone
	}
	if a, err := netip.ParseAddr(h); err == nil {
		return a.Unmap().String()
	}
	if a, ok := parseInetAton(h); ok {
		return a.String()
	}
	return h
}

// parseInetAton reads the IPv4 forms inet_aton (and so curl, ping and
// many resolvers) accept: one to four parts, each decimal, octal (a
// leading 0) or hexadecimal (0x), the last filling the remaining bytes.
func parseInetAton(s string) (netip.Addr, bool) {
	if s == "" {
		return netip.Addr{}, false
	}
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		if p == "" {
			return netip.Addr{}, false
		}
		base := 10
		switch {
		case strings.HasPrefix(p, "0x"):
			base, p = 16, p[2:]
			if p == "" {
				p = "0"
			}
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		v, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	var n uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 255 {
			return netip.Addr{}, false
		}
		n |= v << (24 - 8*uint(i))
	}
	last := vals[len(vals)-1]
	if last >= 1<<(8*uint(5-len(vals))) {
		return netip.Addr{}, false
	}
	n |= last
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
}

// urlHost returns the normalised host of a URL, "" when it has none.
// Only the part after the last @ of the authority is the host.
func urlHost(raw string) string {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return NormalizeHost(u.Hostname())
}
