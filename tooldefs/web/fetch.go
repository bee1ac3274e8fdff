// Package web is the engine of the WebFetch and WebSearch tools: an HTTP
// fetcher with a size cap, a redirect policy, HTML-to-Markdown conversion and
// a 15-minute cache, and a client for a pluggable HTTP JSON search API.
package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"

	"github.com/agentcore/agentcore/runtime/permission"
)

// Limits of a fetch.
const (
	// MaxBodyBytes is the most bytes read from a response body.
	MaxBodyBytes = 10 << 20
	// MaxContentChars is the most characters of converted content returned.
	MaxContentChars = 100_000
	// CacheTTL is how long a fetched page is served from the cache.
	CacheTTL = 15 * time.Minute
	// Timeout bounds a whole fetch.
	Timeout = 60 * time.Second
)

// Page is a fetched and converted page.
type Page struct {
	// URL is the URL fetched.
	URL string
	// Status is the HTTP status code.
	Status int
	// ContentType is the response's media type.
	ContentType string
	// Content is the body as Markdown (HTML) or text, capped.
	Content string
	// Bytes is the body size read.
	Bytes int
	// Truncated is true when Content was cut at MaxContentChars.
	Truncated bool
	// RedirectURL is set, and Content empty, when the server redirected to
	// another host; the redirect is reported, not followed.
	RedirectURL string
	// Cached is true when the page came from the cache.
	Cached bool
	// Elapsed is the time the fetch took.
	Elapsed time.Duration
}

// Fetcher fetches pages, caching them for CacheTTL. The zero value is ready.
type Fetcher struct {
	// Client is the HTTP client; nil means a client with Timeout.
	Client *http.Client
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	mu    sync.Mutex
	cache map[string]cacheEntry
}

type cacheEntry struct {
	page Page
	at   time.Time
}

// ValidateURL checks that raw is an absolute http(s) URL.
func ValidateURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("url %q is not a valid URL: %w", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("url %q must start with http:// or https://", raw)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("url %q has no host", raw)
	}
	if u.User != nil {
		return nil, fmt.Errorf("url %q must not carry a username or password", raw)
	}
	return u, nil
}

// Fetch gets raw, following redirects within the same host only.
func (f *Fetcher) Fetch(ctx context.Context, raw string) (Page, error) {
	u, err := ValidateURL(raw)
	if err != nil {
		return Page{}, err
	}
	now := f.now()
	f.mu.Lock()
	if e, ok := f.cache[u.String()]; ok && now.Sub(e.at) < CacheTTL {
		f.mu.Unlock()
		p := e.page
		p.Cached = true
		p.Elapsed = 0
		return p, nil
	}
	f.mu.Unlock()

	start := time.Now()
	page, err := f.get(ctx, u)
	if err != nil {
		return Page{}, err
	}
	page.Elapsed = time.Since(start)
	if page.RedirectURL == "" && page.Status < 400 {
		f.mu.Lock()
		if f.cache == nil {
			f.cache = map[string]cacheEntry{}
		}
		f.cache[u.String()] = cacheEntry{page: page, at: now}
		f.mu.Unlock()
	}
	return page, nil
}

func (f *Fetcher) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

var errOtherHost = errors.New("redirect to another host")

// PermittedRedirect reports whether a redirect from from to to is
// followed: the same scheme and port, the same host once normalised as
// WebFetch's domain rules see it (permission.NormalizeHost: case,
// trailing dots, IPv4 forms), and no user name or password in the new
// URL, as Claude Code's WebFetch decides (without its www. leniency: a
// www. host is another host for domain rules). Any other redirect is
// reported to the model, whose next WebFetch of the new URL meets the
// new host's rules.
func PermittedRedirect(from, to *url.URL) bool {
	if to.User != nil || !strings.EqualFold(from.Scheme, to.Scheme) {
		return false
	}
	port := func(u *url.URL) string {
		if p := u.Port(); p != "" {
			return p
		}
		return map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return port(from) == port(to) && permission.NormalizeHost(from.Hostname()) == permission.NormalizeHost(to.Hostname())
}

func (f *Fetcher) get(ctx context.Context, u *url.URL) (Page, error) {
	base := f.Client
	if base == nil {
		base = &http.Client{Timeout: Timeout}
	}
	var redirect string
	client := *base
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		if !PermittedRedirect(via[0].URL, req.URL) {
			redirect = req.URL.String()
			return errOtherHost
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Page{}, fmt.Errorf("fetch %s: %w", u, err)
	}
	req.Header.Set("User-Agent", "agentcore-webfetch/1")
	req.Header.Set("Accept", "text/markdown, text/html, */*")
	resp, err := client.Do(req)
	if redirect != "" {
		if resp != nil {
			resp.Body.Close()
		}
		return Page{URL: u.String(), Status: http.StatusFound, RedirectURL: redirect}, nil
	}
	if err != nil {
		return Page{}, fmt.Errorf("fetch %s: %w", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBodyBytes+1))
	if err != nil {
		return Page{}, fmt.Errorf("fetch %s: reading the body: %w", u, err)
	}
	if len(body) > MaxBodyBytes {
		return Page{}, fmt.Errorf("fetch %s: the page is larger than %d MB; fetch a smaller page", u, MaxBodyBytes>>20)
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	page := Page{URL: u.String(), Status: resp.StatusCode, ContentType: mediaType, Bytes: len(body)}
	content := string(body)
	switch {
	case mediaType == "text/html" || mediaType == "application/xhtml+xml":
		md, err := htmltomarkdown.ConvertString(content)
		if err != nil {
			return Page{}, fmt.Errorf("fetch %s: converting HTML to Markdown: %w", u, err)
		}
		content = md
	case isText(mediaType):
	default:
		return Page{}, fmt.Errorf("fetch %s: content type %q is not text; WebFetch returns only text and HTML pages", u, mediaType)
	}
	if r := []rune(content); len(r) > MaxContentChars {
		content = string(r[:MaxContentChars])
		page.Truncated = true
	}
	page.Content = content
	return page, nil
}

func isText(mediaType string) bool {
	return mediaType == "" || strings.HasPrefix(mediaType, "text/") ||
		mediaType == "application/json" || mediaType == "application/xml" ||
		strings.HasSuffix(mediaType, "+json") || strings.HasSuffix(mediaType, "+xml")
}
