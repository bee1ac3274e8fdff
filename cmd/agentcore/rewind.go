package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentcore/agentcore/runtime/checkpoint"
	"github.com/agentcore/agentcore/runtime/session"

	"github.com/agentcore/agentcore/cmd/agentcore/tui"
)

// rewindFiles is --rewind-files TURN: the files of sess put back as they
// were before turn TURN, one line per file changed on w.
func rewindFiles(sess *session.Session, arg string, w io.Writer) error {
	turns, err := sess.FileCheckpoints()
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(strings.TrimSpace(arg))
	if err != nil || n < 1 {
		return fmt.Errorf("--rewind-files %q: want a turn number; this session's turns:\n%s", arg, listTurns(turns))
	}
	changes, err := sess.RewindFiles(n, false)
	for _, c := range changes {
		fmt.Fprintln(w, describeChange(c))
	}
	if err != nil {
		return err
	}
	if len(changes) == 0 {
		fmt.Fprintf(w, "The files are as they were before turn %d: nothing to restore.\n", n)
	}
	fmt.Fprintln(w, "Changes made by Bash commands are not tracked and were left as they are.")
	return nil
}

// describeChange is one line of a rewind's report.
func describeChange(c checkpoint.Change) string {
	switch {
	case c.Skipped != "":
		return "skipped " + c.Path + ": " + c.Skipped
	case c.Removed:
		return "removed " + c.Path
	}
	return "restored " + c.Path
}

// listTurns lists the turns a rewind can go back to, one a line.
func listTurns(turns []checkpoint.Turn) string {
	if len(turns) == 0 {
		return "  (none: no prompt of this session was checkpointed)"
	}
	var b strings.Builder
	for _, t := range turns {
		fmt.Fprintf(&b, "  %d  %s  %q (%d file(s) written)\n", t.N, t.Started.Local().Format("2006-01-02 15:04"), t.Prompt, len(t.Files))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// rewindCommand is /rewind: without an argument it lists the turns whose
// files can be put back; /rewind N puts them back as before turn N.
func rewindCommand(sess *session.Session) tui.Command {
	return tui.Command{
		Help: "list the turns; /rewind N puts the files Edit, Write and NotebookEdit changed back as before turn N (Bash changes are not tracked)",
		Run: func(args string) (string, string) {
			turns, err := sess.FileCheckpoints()
			if err != nil {
				return "Cannot rewind: " + err.Error(), ""
			}
			if args == "" {
				return "Turns, oldest first; /rewind N puts the files back as before turn N:\n" + listTurns(turns) +
					"\nThe conversation stays as it is. Changes made by Bash are not tracked.", ""
			}
			n, err := strconv.Atoi(args)
			if err != nil || n < 1 {
				return fmt.Sprintf("/rewind %s: want a turn number; the turns:\n%s", args, listTurns(turns)), ""
			}
			var b strings.Builder
			rerr := rewindFiles(sess, args, &b)
			text := strings.TrimSuffix(b.String(), "\n")
			if rerr != nil {
				if text != "" {
					text += "\n"
				}
				text += "Cannot rewind: " + rerr.Error()
			}
			return text, ""
		},
	}
}
