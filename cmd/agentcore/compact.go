package main

import (
	"context"
	"fmt"

	"github.com/agentcore/agentcore/runtime/session"

	"github.com/agentcore/agentcore/cmd/agentcore/tui"
)

// compactCommand is /compact [instructions]: the conversation so far is
// summarised and the summary takes the place of its history (the most
// recent messages are kept as they are); the instructions say what the
// summary should focus on.
func compactCommand(sess *session.Session) tui.Command {
	return tui.Command{
		Help: "summarise the conversation so far and go on from the summary, freeing context; /compact INSTRUCTIONS says what to keep",
		Slow: true,
		Run: func(args string) (string, string) {
			before := sess.ContextTokens()
			info, err := sess.Compact(context.Background(), args)
			if err != nil {
				return "Not compacted: " + err.Error(), ""
			}
			return fmt.Sprintf("Compacted: %d messages summarised, %d kept; the conversation went from about %d to %d tokens.",
				info.Summarized, info.Kept, before, info.PostTokens), ""
		},
	}
}
