package pool

// Stats are token estimates of what the pool sends, for
// `agentcore schema --stats`. All counts use EstimateTokens.
type Stats struct {
	// Mode is the deferral mode, e.g. "always" or "auto:10".
	Mode string `json:"mode"`
	// Tools, SentTools and DeferredTools count definitions.
	Tools         int `json:"tools"`
	SentTools     int `json:"sent_tools"`
	DeferredTools int `json:"deferred_tools"`
	// AllTokens is every definition but ToolSearch's: what would be sent
	// with deferral off.
	AllTokens int `json:"all_tokens"`
	// SentTokens is what is sent up front with nothing loaded: the sent
	// definitions (ToolSearch's included) plus the deferred-tools prompt.
	SentTokens int `json:"sent_tokens"`
	// DefinitionTokens is the sent definitions alone.
	DefinitionTokens int `json:"definition_tokens"`
	// PromptTokens is the deferred-tools prompt (the sorted names).
	PromptTokens int `json:"prompt_tokens"`
	// ToolSearchTokens is ToolSearch's own definition (0 when not sent).
	ToolSearchTokens int `json:"tool_search_tokens"`
	// DeferredTokens is the full definitions withheld.
	DeferredTokens int `json:"deferred_tokens"`
	// SavedTokens is AllTokens − SentTokens: the net saving per request,
	// ToolSearch's cost included (negative when deferral does not pay).
	SavedTokens int `json:"saved_tokens"`
	// DeferredShrink is 1 − PromptTokens/DeferredTokens: how much the
	// deferred definitions shrink by being reduced to their names (0 when
	// nothing is deferred).
	DeferredShrink float64 `json:"deferred_shrink"`
}

// Stats estimates the tokens the pool sends and saves, with nothing
// loaded yet.
func (p *Pool) Stats() Stats {
	sent := p.Sent(Loaded{})
	s := Stats{
		Mode:          p.mode.String(),
		Tools:         len(p.tools),
		SentTools:     len(sent),
		DeferredTools: len(p.deferred),
	}
	for _, t := range p.tools {
		if t.Name() != p.search {
			s.AllTokens += EstimateTokens(t)
		}
		if p.deferred[t.Name()] {
			s.DeferredTokens += EstimateTokens(t)
		}
	}
	for _, t := range sent {
		n := EstimateTokens(t)
		s.DefinitionTokens += n
		if t.Name() == p.search {
			s.ToolSearchTokens = n
		}
	}
	s.PromptTokens = EstimateText(p.DeferredPrompt())
	s.SentTokens = s.DefinitionTokens + s.PromptTokens
	s.SavedTokens = s.AllTokens - s.SentTokens
	if s.DeferredTokens > 0 {
		s.DeferredShrink = 1 - float64(s.PromptTokens)/float64(s.DeferredTokens)
	}
	return s
}
