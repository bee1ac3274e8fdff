package agent

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentcore/agentcore/runtime/provider"
)

// CompactTrigger says what started a compaction, as Claude Code names it
// in hooks and in stream-json's compact_boundary.
type CompactTrigger string

const (
	// CompactAuto: the conversation neared the context window.
	CompactAuto CompactTrigger = "auto"
	// CompactManual: the user asked (/compact).
	CompactManual CompactTrigger = "manual"
)

// Claude Code's auto-compact arithmetic: the window less the room kept for
// the response (at most 20k tokens) is the effective window; compaction
// starts 13k tokens before its end.
const (
	// CompactOutputReserve is the part of the window kept for a response.
	CompactOutputReserve = 20_000
	// CompactBuffer is how far before the effective window's end
	// auto-compaction starts.
	CompactBuffer = 13_000
	// DefaultKeepTokens bounds the recent messages a compaction keeps
	// word for word (estimated at four characters a token).
	DefaultKeepTokens = 20_000
	// DefaultSummaryTokens caps the summary's response.
	DefaultSummaryTokens = 16_000
	// MaxSummaryRetries is how many times a summary request the API
	// refuses as too long is sent again with its oldest part left out
	// (Claude Code's MAX_PTL_RETRIES).
	MaxSummaryRetries = 3
	// MaxAutoCompactFailures is how many automatic compactions in a row
	// may fail before the loop stops trying for the rest of the session
	// (Claude Code's MAX_CONSECUTIVE_AUTOCOMPACT_FAILURES); /compact
	// still works.
	MaxAutoCompactFailures = 3
)

// AutoCompactThreshold is the conversation size, in tokens, at which a
// conversation in a window of that many tokens is compacted, as Claude
// Code computes it: the effective window (window less
// CompactOutputReserve) less CompactBuffer, about 83% of a 200k window.
// pct in (0, 100] (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE) is a percentage of
// the effective window instead, never later than the default (Claude
// Code caps it the same way); other values are ignored.
func AutoCompactThreshold(window int, pct float64) int {
	if window <= 0 {
		window = provider.DefaultContextWindow
	}
	effective := window - min(CompactOutputReserve, window/4)
	def := max(effective-CompactBuffer, effective/2)
	if pct > 0 && pct <= 100 {
		return min(int(float64(effective)*pct/100), def)
	}
	return def
}

// ContextPolicy is how the loop keeps the conversation within the
// model's context window.
type ContextPolicy struct {
	// Window is the model's context window in tokens, for the record
	// (session sets it from provider.ContextWindow); Threshold decides.
	Window int
	// Threshold is the conversation size, in tokens, at which the loop
	// compacts before its next request (AutoCompactThreshold); 0 turns
	// automatic compaction off (Compact still works).
	Threshold int
	// KeepTokens bounds the recent messages kept word for word after the
	// summary; 0 means DefaultKeepTokens, negative keeps none.
	KeepTokens int
	// SummaryTokens caps the summary's response; 0 means
	// DefaultSummaryTokens.
	SummaryTokens int
}

// CompactHooks are told of a compaction (Claude Code's PreCompact and
// PostCompact hooks).
type CompactHooks interface {
	// PreCompact runs before the summary is asked for, with the user's
	// instructions (empty for auto): it returns the instructions to use
	// (the hooks may add to them), or an error that stops the compaction
	// (a hook's exit code 2).
	PreCompact(ctx context.Context, trigger CompactTrigger, instructions string) (string, error)
	// PostCompact runs once the summary replaced the history.
	PostCompact(ctx context.Context, trigger CompactTrigger, summary string)
}

// CompactAttacher is a CompactHooks that gives the summary message more
// to carry: what Claude Code re-attaches after a compaction (the files
// read last, the todo list). summarized are the messages the summary
// replaces, kept the ones that follow it as they were.
type CompactAttacher interface {
	Attachments(ctx context.Context, summarized, kept []provider.Message) []provider.Block
}

// CompactRecorder is a Recorder that is told when a compaction replaced
// the conversation: messages is the whole new conversation (a transcript
// marks a boundary and starts over with them).
type CompactRecorder interface {
	Recorder
	Compacted(info CompactInfo, messages []provider.Message)
}

// CompactInfo is what a compaction did (EventCompact; stream-json's
// compact_boundary).
type CompactInfo struct {
	// Trigger is auto or manual.
	Trigger CompactTrigger `json:"trigger"`
	// PreTokens is the conversation's size before, PostTokens an estimate
	// of it after (four characters a token).
	PreTokens  int64 `json:"pre_tokens"`
	PostTokens int64 `json:"post_tokens"`
	// Summarized is how many messages the summary replaced, Kept how many
	// recent ones follow it as they were.
	Summarized int `json:"messages_summarized"`
	Kept       int `json:"messages_kept"`
	// Attached is how many blocks (files read again, the todo list) the
	// summary message carries besides the summary.
	Attached int `json:"-"`
	// Dropped is how many of the oldest messages the summary request
	// left out because the whole did not fit the context window.
	Dropped int `json:"-"`
	// Summary is the model's summary.
	Summary string `json:"-"`
	// Usage is the summary request's.
	Usage provider.Usage `json:"-"`
	// Duration is how long it took.
	Duration time.Duration `json:"-"`
}

// ErrNothingToCompact is Compact's error for a conversation without a
// model response to summarise.
var ErrNothingToCompact = errors.New("not enough messages to compact: the conversation has no model response yet")

// ErrDeferredOpen is Compact's error while a call a PreToolUse hook
// deferred waits for its answer: the conversation ends in a tool_use
// without its result, which no request may carry.
var ErrDeferredOpen = errors.New("a call deferred by a PreToolUse hook is still open: resume the session (agentcore -p --resume) so it is answered, then compact")

// compactSystem is the system prompt of the summary request.
const compactSystem = `You summarise a coding session between a user and an AI coding agent so that the agent can continue the work from the summary alone. Be precise and complete about facts (file paths, commands, errors, decisions) and brief about everything else.`

// compactPrompt asks for the summary. It is modelled on Claude Code's
// compaction prompt: what was asked, what was done, the files touched,
// and the work still open.
const compactPrompt = `Your task now is to write a detailed summary of the conversation so far; it will replace the conversation, so anything it leaves out is lost. Do not call any tools: answer with text only.

First think it through inside <analysis> tags: go through the conversation in order and note each request of the user, what you did about it, and where things stand. Then write the summary inside <summary> tags with these sections:

1. Requests and intent: everything the user asked for, in their words where it matters, including changes of mind.
2. Key technical context: the languages, frameworks, conventions and constraints that matter for the work.
3. Files and code: every file read, created or changed, with why it matters and what changed; include short code snippets where the exact text matters.
4. Errors and fixes: what went wrong and how it was fixed, and any feedback the user gave.
5. All user messages: a list of every message the user wrote (not tool results), briefly.
6. Open work: tasks asked for and not yet done.
7. Current work: exactly what was being worked on right before this summary, with file names and snippets.
8. Next step: the next step, only if it follows directly from the user's latest request; quote the latest request or your last words to show where you left off.`

// continueNote ends a summary that no kept message follows.
const continueNote = "Continue from where the conversation left off without asking the user any further questions; go on with the last task you were asked to do."

// SummaryMessage is the user message a compaction puts in place of the
// history it summarised; kept says whether recent messages follow it.
func SummaryMessage(summary string, kept bool) provider.Message {
	text := "This session is being continued from an earlier conversation that ran out of context. The summary below covers the earlier part of the conversation"
	if kept {
		text += "; the most recent messages follow it as they were"
	}
	text += ".\n\n<summary>\n" + summary + "\n</summary>"
	if !kept {
		text += "\n\n" + continueNote
	}
	return provider.Message{Role: provider.User, Content: []provider.Block{provider.Text(text)}}
}

// analysisRE and summaryRE are compiled at the first compaction, not
// before main.
var (
	analysisRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<analysis>.*?</analysis>`) })
	summaryRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<summary>(.*?)(?:</summary>|$)`) })
)

// summaryText is the summary of the model's answer: what is inside its
// <summary> tags, else the answer without its <analysis>.
func summaryText(answer string) string {
	if m := summaryRE().FindStringSubmatch(answer); m != nil {
		return strings.TrimSpace(m[1])
	}
	return strings.TrimSpace(analysisRE().ReplaceAllString(answer, ""))
}

// EstimateTokens estimates the size of msgs in tokens, four characters a
// token (an image counts 1,600), the way a conversation is measured
// between two responses.
func EstimateTokens(msgs []provider.Message) int64 {
	n := 0
	for _, m := range msgs {
		n += messageChars(m)
	}
	return int64(n/4 + 1)
}

func messageChars(m provider.Message) int {
	n := 0
	for _, b := range m.Content {
		n += len(b.Text) + len(b.Input) + len(b.Name)
		for _, c := range b.Content {
			if c.Type == "image" {
				n += 1600 * 4
				continue
			}
			n += len(c.Text)
		}
	}
	return n
}

// ContextTokens is the conversation's size in tokens as the loop tracks
// it: the last response's input (with cached input) and output tokens,
// plus an estimate of the messages added since; an estimate of the whole
// conversation before the first response and after a compaction.
func (a *Agent) ContextTokens() int64 {
	a.msgMu.Lock()
	defer a.msgMu.Unlock()
	return a.contextTokens()
}

func (a *Agent) contextTokens() int64 {
	at := min(a.usageAt, len(a.messages))
	return a.usageTokens + EstimateTokens(a.messages[at:])
}

// noteUsage records a response's usage as the conversation's size: its
// input (with the cache's) and output tokens, with the messages up to and
// including that response.
func (a *Agent) noteUsage(u provider.Usage) {
	total := u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens + u.OutputTokens
	if total <= 0 {
		return
	}
	a.msgMu.Lock()
	a.usageTokens, a.usageAt = total, len(a.messages)
	a.msgMu.Unlock()
	a.compactedFresh = false
}

// autoCompact compacts before a request when the conversation reached
// the threshold; it reports whether the user interrupted it (the run
// ends). A failed compaction is reported (EventHook) and the run goes on
// with the history it has.
func (a *Agent) autoCompact(ctx context.Context, out *Outcome) (interrupted bool) {
	th := a.cfg.Context.Threshold
	if th <= 0 || a.compactedFresh || a.compactFailures >= MaxAutoCompactFailures || a.ContextTokens() < int64(th) {
		return false
	}
	_, interrupted = a.compactInRun(ctx, out)
	return interrupted
}

// compactInRun runs an automatic compaction between two requests of Run
// and reports whether it replaced the history, or whether the user
// interrupted it (the run ends). A failure is reported (EventHook);
// after MaxAutoCompactFailures in a row, automatic compaction stops.
func (a *Agent) compactInRun(ctx context.Context, out *Outcome) (ok, interrupted bool) {
	// Interrupt stops the summary request as it stops a turn.
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a.mu.Lock()
	a.turnCancel, a.run, a.interrupted = cancel, nil, false
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.turnCancel = nil
		a.mu.Unlock()
	}()
	info, err := a.compact(cctx, CompactAuto, "", out.Turns+1)
	if info != nil {
		out.Usage = out.Usage.Add(info.Usage)
	}
	// Whatever happened, not again before the next response.
	a.compactedFresh = true
	if a.isInterrupted() || ctx.Err() != nil {
		return false, true
	}
	if err != nil {
		a.compactFailures++
		text := "Auto-compaction failed: " + err.Error()
		if a.compactFailures == MaxAutoCompactFailures {
			text += fmt.Sprintf(" (%d times in a row: automatic compaction is off for the rest of this session; /compact still works)", MaxAutoCompactFailures)
		}
		a.emit(Event{Kind: EventHook, Turn: out.Turns + 1, Text: text})
		return false, false
	}
	a.compactFailures = 0
	return true, false
}

// Compact summarises the conversation so far with one request to the
// model (Claude Code's /compact): the summary, as a user message,
// replaces the history, followed by the most recent messages as they
// were (ContextPolicy.KeepTokens), starting at a model response so that
// every tool_use keeps its tool_result. instructions, if any, tell the
// summary what to focus on. The tool context (the file-state cache, the
// task list) is not touched. Not while Run runs.
func (a *Agent) Compact(ctx context.Context, instructions string) (*CompactInfo, error) {
	return a.compact(ctx, CompactManual, instructions, 0)
}

func (a *Agent) compact(ctx context.Context, trigger CompactTrigger, instructions string, turn int) (*CompactInfo, error) {
	start := time.Now()
	if a.pending != nil {
		return nil, ErrDeferredOpen
	}
	msgs := a.Messages()
	if !slices.ContainsFunc(msgs, func(m provider.Message) bool { return m.Role == provider.Assistant }) {
		return nil, ErrNothingToCompact
	}
	info := &CompactInfo{Trigger: trigger, PreTokens: a.ContextTokens()}
	if a.cfg.Compaction != nil {
		var err error
		if instructions, err = a.cfg.Compaction.PreCompact(ctx, trigger, instructions); err != nil {
			return nil, err
		}
	}
	k := a.tailStart(msgs)
	head := slices.Clone(msgs[:k])
	prompt := compactPrompt
	if s := strings.TrimSpace(instructions); s != "" {
		prompt += "\n\nAdditional instructions for this summary:\n" + s
	}
	if n := len(head); head[n-1].Role == provider.User {
		last := head[n-1]
		last.Content = append(slices.Clone(last.Content), provider.Text(prompt))
		head[n-1] = last
	} else {
		head = append(head, provider.Message{Role: provider.User, Content: []provider.Block{provider.Text(prompt)}})
	}
	maxTokens := a.cfg.Context.SummaryTokens
	if maxTokens <= 0 {
		maxTokens = DefaultSummaryTokens
	}
	if a.cfg.MaxTokens > 0 {
		maxTokens = min(maxTokens, a.cfg.MaxTokens)
	}
	var (
		answer string
		err    error
	)
	for attempt := 0; ; attempt++ {
		var usage provider.Usage
		answer, usage, err = a.ask(ctx, provider.Request{System: compactSystem, Messages: head, Tools: a.lastTools, MaxTokens: maxTokens})
		info.Usage = info.Usage.Add(usage)
		if err == nil || attempt == MaxSummaryRetries || !provider.PromptTooLong(err) {
			break
		}
		shorter, dropped := dropOldest(head)
		if dropped == 0 {
			break
		}
		head, info.Dropped = shorter, info.Dropped+dropped
	}
	if err != nil {
		return info, fmt.Errorf("compaction: the summary request failed: %w", err)
	}
	summary := summaryText(answer)
	if summary == "" {
		return info, errors.New("compaction: the model answered without a summary")
	}
	tail := msgs[k:]
	first := SummaryMessage(summary, len(tail) > 0)
	if at, ok := a.cfg.Compaction.(CompactAttacher); ok {
		more := at.Attachments(ctx, slices.Clone(msgs[:k]), slices.Clone(tail))
		first.Content = append(first.Content, more...)
		info.Attached = len(more)
	}
	next := append([]provider.Message{first}, tail...)
	a.msgMu.Lock()
	// Messages added while the summary was asked for (none: Run is not
	// running) would be lost; the conversation is replaced whole.
	a.messages = next
	a.usageTokens, a.usageAt = 0, 0
	a.msgMu.Unlock()
	a.compactedFresh = true
	info.Summary, info.Summarized, info.Kept = summary, k, len(tail)
	info.PostTokens = EstimateTokens(next)
	info.Duration = time.Since(start)
	if rec, ok := a.cfg.Recorder.(CompactRecorder); ok {
		rec.Compacted(*info, slices.Clone(next))
	}
	if a.cfg.Compaction != nil {
		a.cfg.Compaction.PostCompact(ctx, trigger, summary)
	}
	a.emit(Event{Kind: EventCompact, Turn: turn, Compact: info})
	return info, nil
}

// droppedNote starts a summary request whose oldest messages were left
// out.
const droppedNote = "[The earliest part of this conversation was left out here: the whole did not fit the model's context window.]"

// dropOldest returns head without its oldest fifth or so, cut before a
// model response so that no tool_result loses its tool_use, behind a
// note saying so; it returns how many messages it left out, 0 when
// nothing can go (the last message, which asks for the summary, stays).
func dropOldest(head []provider.Message) ([]provider.Message, int) {
	noted := 0 // the note of an earlier cut is not a message of the conversation
	if len(head[0].Content) == 1 && head[0].Content[0].Text == droppedNote {
		noted = 1
	}
	for j := max(noted+1, len(head)/5); j < len(head)-1; j++ {
		if head[j].Role == provider.Assistant {
			note := provider.Message{Role: provider.User, Content: []provider.Block{provider.Text(droppedNote)}}
			return append([]provider.Message{note}, head[j:]...), j - noted
		}
	}
	return head, 0
}

// tailStart is where the kept tail of msgs starts: the earliest model
// response (index ≥ 1) from which the rest fits in KeepTokens, or
// len(msgs) when none does. A tail that starts at an assistant message
// holds every tool_result's tool_use, and follows the summary's user
// message as the API wants.
func (a *Agent) tailStart(msgs []provider.Message) int {
	keep := a.cfg.Context.KeepTokens
	if keep == 0 {
		keep = DefaultKeepTokens
	}
	k := len(msgs)
	if keep < 0 {
		return k
	}
	chars := 0
	for i := len(msgs) - 1; i >= 1; i-- {
		chars += messageChars(msgs[i])
		if chars/4 > keep {
			break
		}
		if msgs[i].Role == provider.Assistant {
			k = i
		}
	}
	if k <= 1 {
		// The first response would be kept: at least it is summarised,
		// or there would be nothing to summarise but the first prompt.
		k = len(msgs)
		for i := 2; i < len(msgs); i++ {
			if msgs[i].Role == provider.Assistant {
				k = i
				break
			}
		}
	}
	return k
}

// ask sends req to the model and returns the text of its answer (a
// tool_use it makes anyway is ignored).
func (a *Agent) ask(ctx context.Context, req provider.Request) (string, provider.Usage, error) {
	var (
		text  strings.Builder
		final *provider.Event
	)
	for ev, err := range a.cfg.Provider.Stream(ctx, req) {
		if err != nil {
			return "", provider.Usage{}, err
		}
		if ev.Type == provider.EventMessage {
			e := ev
			final = &e
		}
	}
	if final == nil {
		return "", provider.Usage{}, errors.New("the model's stream ended without a message")
	}
	for _, b := range final.Message.Content {
		if b.Type == provider.TextBlock {
			text.WriteString(b.Text)
		}
	}
	return text.String(), final.Usage, nil
}
