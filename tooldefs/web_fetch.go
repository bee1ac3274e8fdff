package tooldefs

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/web"
)

// WebFetch fetches a URL and returns its content as Markdown, then applies
// the prompt to it when a model is available to do so.
//
// - The URL must be a fully-formed http:// or https:// URL.
// - HTML is converted to Markdown; other text is returned as is. Pages over
// 10 MB are refused and content is cut at 100 000 characters.
// - A redirect to a different host is reported, not followed: fetch the new
// URL with another WebFetch call if you trust it.
// - Results are cached for 15 minutes, so repeated fetches are cheap.
//
// +tool:name=WebFetch
// +tool:permissionFamily=url
// +tool:readOnly
// +tool:concurrencySafe
// +tool:interrupt=cancel
// +tool:searchHint="fetch a web page or URL as markdown"
type WebFetch struct{}

// WebFetchInput is the input of WebFetch.
type WebFetchInput struct {
	// The URL to fetch.
	URL string `json:"url" jsonschema:"minLength=1"`
	// What to extract from the page, e.g. "the installation steps".
	Prompt string `json:"prompt" jsonschema:"minLength=1"`
}

// WebFetchOutput is a fetched page.
type WebFetchOutput struct {
	Page web.Page
	// Result is the answer to the prompt, or the content itself when no
	// model is available.
	Result string
	// Summarized is true when a model applied the prompt.
	Summarized bool
}

// fetcher is shared by every WebFetch call so its cache is.
var fetcher web.Fetcher

// ValidateInput checks the URL before any permission prompt.
func (WebFetch) ValidateInput(_ context.Context, in *WebFetchInput, _ *runtime.ToolContext) error {
	_, err := web.ValidateURL(in.URL)
	return err
}

// PermissionTarget is the URL, for WebFetch(domain:…) rules.
func (WebFetch) PermissionTarget(in *WebFetchInput) runtime.Target {
	return runtime.Target{Kind: runtime.TargetURL, Value: in.URL}
}

// RenderPreview shows the URL in full and what the model wants of the
// page, for its permission prompt.
func (WebFetch) RenderPreview(in *WebFetchInput, _ *runtime.ToolContext) string {
	return in.URL + "\n\n" + in.Prompt
}

// Call fetches the page and applies the prompt.
func (WebFetch) Call(ctx context.Context, in *WebFetchInput, c *runtime.Call) (WebFetchOutput, error) {
	page, err := fetcher.Fetch(ctx, in.URL)
	if err != nil {
		return WebFetchOutput{}, err
	}
	out := WebFetchOutput{Page: page}
	switch {
	case page.RedirectURL != "":
		out.Result = fmt.Sprintf("REDIRECT DETECTED: %s redirects to a different host: %s\n"+
			"The redirect was not followed. To fetch it, call WebFetch again with url %q.",
			page.URL, page.RedirectURL, page.RedirectURL)
		return out, nil
	case page.Status >= 400:
		return WebFetchOutput{}, fmt.Errorf("fetch %s: the server answered HTTP %d", page.URL, page.Status)
	}
	if s, ok := runtime.Service[runtime.Summarizer](c.Context); ok {
		answer, err := s.Summarize(ctx, in.Prompt, page.Content)
		if err == nil {
			out.Result, out.Summarized = answer, true
			return out, nil
		}
	}
	out.Result = page.Content
	if page.Truncated {
		out.Result += fmt.Sprintf("\n\n[content truncated at %d characters]", web.MaxContentChars)
	}
	return out, nil
}

// ResultBlocks gives the model the answer (or the content).
func (WebFetch) ResultBlocks(out WebFetchOutput) []runtime.Block {
	return []runtime.Block{runtime.TextBlock(out.Result)}
}

// RenderUse shows the URL.
func (WebFetch) RenderUse(in *WebFetchInput) string { return in.URL }

// RenderResult summarises the fetch: size, status and time.
func (WebFetch) RenderResult(_ *WebFetchInput, out WebFetchOutput) string {
	if out.Page.RedirectURL != "" {
		return "Redirected to " + out.Page.RedirectURL + " (not followed)"
	}
	s := fmt.Sprintf("Received %s (%d %s)", byteSize(out.Page.Bytes), out.Page.Status, out.Page.ContentType)
	if out.Page.Cached {
		s += " from cache"
	}
	return s
}

// RenderGrouped lists the hosts fetched in parallel.
func (WebFetch) RenderGrouped(ins []*WebFetchInput) string {
	hosts := make([]string, len(ins))
	for i, in := range ins {
		hosts[i] = in.URL
		if u, err := url.Parse(in.URL); err == nil && u.Host != "" {
			hosts[i] = u.Host
		}
	}
	return fmt.Sprintf("Fetching %d pages: %s", len(ins), strings.Join(hosts, ", "))
}

func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}
