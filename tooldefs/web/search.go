package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// SearchResult is one hit of a web search.
type SearchResult struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet,omitempty"`
}

// Searcher queries an HTTP JSON search API:
//
//	GET <Endpoint>?q=<query>&count=<n>   →   {"results":[{"title":…,"url":…,"snippet":…}]}
//
// Domain filters are applied to the results as well, so a backend that
// ignores them cannot leak blocked domains.
type Searcher struct {
	// Endpoint is the API's URL.
	Endpoint string
	// Client is the HTTP client; nil means a client with a 30 s timeout.
	Client *http.Client
}

// ErrNoBackend says that no search API is configured.
var ErrNoBackend = fmt.Errorf("no web search backend is configured: set \"webSearch.endpoint\" " +
	"in ~/.agentcore/settings.json or .agentcore/settings.json (or the AGENTCORE_WEB_SEARCH_URL " +
	"environment variable) to the URL of an HTTP JSON search API that answers " +
	"GET ?q=QUERY&count=N with {\"results\":[{\"title\",\"url\",\"snippet\"}]}")

// Search runs query and filters the results by domain.
func (s Searcher) Search(ctx context.Context, query string, allowed, blocked []string, count int) ([]SearchResult, error) {
	if s.Endpoint == "" {
		return nil, ErrNoBackend
	}
	u, err := ValidateURL(s.Endpoint)
	if err != nil {
		return nil, fmt.Errorf("web search endpoint: %w", err)
	}
	q := u.Query()
	q.Set("q", query)
	q.Set("count", fmt.Sprint(count))
	if len(allowed) > 0 {
		q.Set("allowed_domains", strings.Join(allowed, ","))
	}
	if len(blocked) > 0 {
		q.Set("blocked_domains", strings.Join(blocked, ","))
	}
	u.RawQuery = q.Encode()
	client := s.Client
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("web search: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, fmt.Errorf("web search: reading the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("web search backend answered %s: %s", resp.Status, strings.TrimSpace(string(body[:min(len(body), 200)])))
	}
	var answer struct {
		Results []SearchResult `json:"results"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		return nil, fmt.Errorf("web search backend's answer is not {\"results\":[…]} JSON: %w", err)
	}
	var out []SearchResult
	for _, r := range answer.Results {
		if keep(r.URL, allowed, blocked) {
			out = append(out, r)
		}
		if len(out) == count {
			break
		}
	}
	return out, nil
}

func keep(raw string, allowed, blocked []string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	match := func(d string) bool {
		d = strings.ToLower(strings.TrimPrefix(d, "."))
		return host == d || strings.HasSuffix(host, "."+d)
	}
	if slices.ContainsFunc(blocked, match) {
		return false
	}
	return len(allowed) == 0 || slices.ContainsFunc(allowed, match)
}
