package mcp

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcore/agentcore/runtime"
)

// DefaultMaxOutputChars caps the text of one MCP result: 25 000 tokens at
// about four characters a token, Claude Code's MAX_MCP_OUTPUT_TOKENS.
const DefaultMaxOutputChars = 100_000

// callResult maps a tools/call result onto runtime blocks: text and
// images as such, other content described in text, structured content as
// JSON when there is nothing else, isError kept.
func callResult(res *sdk.CallToolResult, maxChars int) runtime.Result {
	out := runtime.Result{Data: res, IsError: res.IsError}
	for _, c := range res.Content {
		out.Content = append(out.Content, contentBlock(c))
	}
	if len(out.Content) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			out.Content = append(out.Content, runtime.TextBlock(string(b)))
		}
	}
	if len(out.Content) == 0 {
		out.Content = []runtime.Block{runtime.TextBlock("(the tool returned no content)")}
	}
	out.Content = capText(out.Content, maxChars)
	return out
}

func contentBlock(c sdk.Content) runtime.Block {
	switch c := c.(type) {
	case *sdk.TextContent:
		return runtime.TextBlock(c.Text)
	case *sdk.ImageContent:
		return imageBlock(c.MIMEType, c.Data)
	case *sdk.AudioContent:
		return runtime.TextBlock(fmt.Sprintf("[audio %s, %d bytes, not shown]", c.MIMEType, len(c.Data)))
	case *sdk.ResourceLink:
		return runtime.TextBlock(fmt.Sprintf("[resource link: %s] %s", c.Name, c.URI))
	case *sdk.EmbeddedResource:
		if c.Resource == nil {
			return runtime.TextBlock("[empty embedded resource]")
		}
		return resourceBlock(c.Resource)
	default:
		b, _ := json.Marshal(c)
		return runtime.TextBlock(string(b))
	}
}

// resourceBlock maps resource contents: text as text, images as images,
// other binary data described.
func resourceBlock(r *sdk.ResourceContents) runtime.Block {
	switch {
	case r.Blob != nil && strings.HasPrefix(r.MIMEType, "image/"):
		return imageBlock(r.MIMEType, r.Blob)
	case r.Blob != nil:
		return runtime.TextBlock(fmt.Sprintf("[binary resource %s (%s), %d bytes, not shown]", r.URI, orUnknown(r.MIMEType), len(r.Blob)))
	default:
		return runtime.TextBlock(r.Text)
	}
}

func imageBlock(mime string, data []byte) runtime.Block {
	return runtime.Block{Type: "image", MediaType: mime, Data: base64.StdEncoding.EncodeToString(data)}
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}

// capText cuts text blocks once their total passes maxChars characters
// (runes); maxChars <= 0 means no cap. Images are kept.
func capText(blocks []runtime.Block, maxChars int) []runtime.Block {
	if maxChars <= 0 {
		return blocks
	}
	total := 0
	for i, b := range blocks {
		if b.Type == "image" {
			continue
		}
		n := utf8.RuneCountInString(b.Text)
		if total+n <= maxChars {
			total += n
			continue
		}
		keep, cut := maxChars-total, 0
		for keep > 0 && cut < len(b.Text) {
			_, size := utf8.DecodeRuneInString(b.Text[cut:])
			cut += size
			keep--
		}
		out := append([]runtime.Block(nil), blocks[:i]...)
		out = append(out, runtime.TextBlock(b.Text[:cut]+fmt.Sprintf(
			"\n\n[output truncated: the MCP tool returned more than %d characters; ask for less, for example with a filter or pagination]", maxChars)))
		for _, rest := range blocks[i+1:] {
			if rest.Type == "image" {
				out = append(out, rest)
			}
		}
		return out
	}
	return blocks
}
