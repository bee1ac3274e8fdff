package provider

import "strings"

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input, Output, CacheWrite, CacheRead float64
}

// prices are Anthropic's list prices, matched by model-name prefix (the
// longest prefix wins); cache writes are the 5-minute ones. The one place
// agentcore keeps them: stream-json's total_cost_usd and modelUsage come
// from here.
var prices = map[string]Price{
	"claude-opus-4-5":   {5, 25, 6.25, 0.50},
	"claude-opus-4-6":   {5, 25, 6.25, 0.50},
	"claude-opus-4-7":   {5, 25, 6.25, 0.50},
	"claude-opus-4-8":   {5, 25, 6.25, 0.50},
	"claude-opus-4-1":   {15, 75, 18.75, 1.50},
	"claude-opus-4-0":   {15, 75, 18.75, 1.50},
	"claude-opus-4-2":   {15, 75, 18.75, 1.50}, // claude-opus-4-20250514
	"claude-sonnet-4":   {3, 15, 3.75, 0.30},
	"claude-3-7-sonnet": {3, 15, 3.75, 0.30},
	"claude-3-5-sonnet": {3, 15, 3.75, 0.30},
	"claude-haiku-4":    {1, 5, 1.25, 0.10},
	"claude-3-5-haiku":  {0.80, 4, 1, 0.08},
	"claude-3-haiku":    {0.25, 1.25, 0.30, 0.03},
}

// PriceOf returns model's price; ok is false for a model the table does
// not know (its cost is reported as 0). A provider prefix
// ("anthropic:", "bedrock:…anthropic.") and a context-window suffix
// ("[1m]") are ignored.
func PriceOf(model string) (p Price, ok bool) {
	if i := strings.LastIndex(model, "anthropic."); i >= 0 {
		model = model[i+len("anthropic."):]
	} else if _, rest, found := strings.Cut(model, ":"); found {
		model = rest
	}
	model, _, _ = strings.Cut(model, "[")
	best := ""
	for prefix, price := range prices {
		if strings.HasPrefix(model, prefix) && len(prefix) > len(best) {
			best, p = prefix, price
		}
	}
	return p, best != ""
}

// Cost is what u costs at model's price, in US dollars; 0 for a model
// PriceOf does not know.
func Cost(model string, u Usage) float64 {
	p, ok := PriceOf(model)
	if !ok {
		return 0
	}
	return (float64(u.InputTokens)*p.Input + float64(u.OutputTokens)*p.Output +
		float64(u.CacheCreationInputTokens)*p.CacheWrite + float64(u.CacheReadInputTokens)*p.CacheRead) / 1e6
}
