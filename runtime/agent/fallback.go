package agent

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentcore/agentcore/runtime/provider"
)

// fallbackFor reports whether err is a failure a fallback would answer
// and one is left.
func (a *Agent) fallbackFor(err error) bool {
	return a.cfg.Fallback != nil && fallbackTrigger(err) != ""
}

// fallBack switches to Config.Fallback when out's failure is one it is
// for (an overload or a server error of the main model) and there is a
// fallback left; it reports whether the turn should be sent again. A
// failed turn whose started calls changed nothing left nothing in the
// history (turn drops it and discards its executor), so sending it again
// is sending the same request; one where a change ran keeps its calls
// and results, and the fallback model goes on from there.
func (a *Agent) fallBack(out *Outcome) bool {
	if a.cfg.Fallback == nil || out.Err == nil {
		return false
	}
	trigger := fallbackTrigger(out.Err)
	if trigger == "" {
		return false
	}
	from, to := a.cfg.Provider, a.cfg.Fallback
	a.cfg.Provider, a.cfg.Fallback = to, nil
	a.retried() // the fallback gets retries of its own
	info := &FallbackInfo{From: from.Name(), To: to.Name(), Trigger: trigger, Err: out.Err}
	a.emit(Event{Kind: EventFallback, Turn: out.Turns, Text: FallbackNotice(info), Fallback: info})
	return true
}

// fallbackTrigger names the failures a fallback answers, as Claude Code
// does: "overloaded" (503, 529, an overloaded_error event) and
// "server_error" (other 5xx, an api_error event); "" for the others.
func fallbackTrigger(err error) string {
	var apiErr *provider.APIError
	if !errors.As(err, &apiErr) {
		return ""
	}
	switch apiErr.Kind {
	case provider.ErrOverloaded:
		return "overloaded"
	case provider.ErrServer:
		return "server_error"
	}
	return ""
}

// FallbackNotice is the notice of a switch, in Claude Code's words.
func FallbackNotice(info *FallbackInfo) string {
	return fmt.Sprintf("Switched to %s due to high demand for %s", modelOf(info.To), modelOf(info.From))
}

// modelOf is a provider name without its API ("anthropic:claude-x" →
// "claude-x").
func modelOf(name string) string {
	if _, m, ok := strings.Cut(name, ":"); ok && m != "" {
		return m
	}
	return name
}
