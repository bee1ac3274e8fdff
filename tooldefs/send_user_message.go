package tooldefs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcore/agentcore/runtime"
)

// SendUserMessage sends a message to the user, shown apart from your
// working text. Use it for what the user has to see: the answer or
// result of long work, a status update, a blocker, a question you cannot
// go on without. Keep it short and self-contained; markdown is rendered.
// Attach files the user should look at (a log, a screenshot, a diff) by
// path: they are shown as links. The message reaches only the user; you
// get back a confirmation.
//
// +tool:name=SendUserMessage
// +tool:alias=Brief
// +tool:readOnly
// +tool:localOnly
// +tool:agentOnly
// +tool:searchHint="send a message or status update to the user, with files attached"
type SendUserMessage struct{}

// SendUserMessageInput is the input of SendUserMessage.
type SendUserMessageInput struct {
	// The message for the user, in markdown.
	Message string `json:"message" jsonschema:"minLength=1"`
	// Files to attach, absolute or relative to the working directory:
	// shown to the user as links.
	Attachments []string `json:"attachments,omitempty" jsonschema:"maxItems=20"`
	// normal when replying to the user; proactive when telling them
	// something they did not ask for (a finished task, a blocker).
	Status string `json:"status,omitempty" jsonschema:"enum=normal,enum=proactive"`
}

// SendUserMessageOutput is the message as delivered.
type SendUserMessageOutput struct {
	Message     string               `json:"message"`
	Status      string               `json:"status"`
	Attachments []runtime.Attachment `json:"attachments,omitempty"`
}

// UserMessage is the message, for renderers (runtime.UserMessenger).
func (o SendUserMessageOutput) UserMessage() runtime.UserMessage {
	return runtime.UserMessage{Text: o.Message, Status: o.Status, Attachments: o.Attachments}
}

// ValidateInput refuses a blank message and attachments that are not
// regular files.
func (SendUserMessage) ValidateInput(_ context.Context, in *SendUserMessageInput, tc *runtime.ToolContext) error {
	if strings.TrimSpace(in.Message) == "" {
		return errors.New("message must not be blank")
	}
	for i, p := range in.Attachments {
		if _, err := attachment(tc, p); err != nil {
			return fmt.Errorf("attachments[%d]: %w", i, err)
		}
	}
	return nil
}

// attachment describes the file at p, resolved against the working
// directory.
func attachment(tc *runtime.ToolContext, p string) (runtime.Attachment, error) {
	if strings.TrimSpace(p) == "" {
		return runtime.Attachment{}, errors.New("the path is empty")
	}
	abs := tc.Resolve(p)
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return runtime.Attachment{}, fmt.Errorf("%s does not exist; attach files that do", abs)
	case err != nil:
		return runtime.Attachment{}, err
	case !fi.Mode().IsRegular():
		return runtime.Attachment{}, fmt.Errorf("%s is not a regular file; attach files, not directories", abs)
	}
	_, image := attachmentImages[strings.ToLower(filepath.Ext(abs))]
	return runtime.Attachment{Path: abs, Size: fi.Size(), IsImage: image}, nil
}

// attachmentImages are the extensions of attachments shown as images.
var attachmentImages = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true}

// CheckPermissions allows the call: it shows the user a message and
// links to files; nothing is read or changed.
func (SendUserMessage) CheckPermissions(context.Context, *SendUserMessageInput, *runtime.ToolContext) runtime.PermissionDecision {
	return runtime.PermissionDecision{Behavior: runtime.Allow}
}

// Call delivers the message: renderers show it to the user.
func (SendUserMessage) Call(_ context.Context, in *SendUserMessageInput, c *runtime.Call) (SendUserMessageOutput, error) {
	status := in.Status
	if status == "" {
		status = "normal"
	}
	out := SendUserMessageOutput{Message: in.Message, Status: status}
	for _, p := range in.Attachments {
		a, err := attachment(c.Context, p)
		if err != nil {
			return SendUserMessageOutput{}, err
		}
		out.Attachments = append(out.Attachments, a)
	}
	return out, nil
}

// ResultBlocks confirms the delivery.
func (SendUserMessage) ResultBlocks(out SendUserMessageOutput) []runtime.Block {
	text := "Message delivered to the user."
	if n := len(out.Attachments); n > 0 {
		text = fmt.Sprintf("Message delivered to the user with %d attachment(s).", n)
	}
	return []runtime.Block{runtime.TextBlock(text)}
}

// RenderUse shows the message's first line.
func (SendUserMessage) RenderUse(in *SendUserMessageInput) string {
	line, _, _ := strings.Cut(strings.TrimSpace(in.Message), "\n")
	if r := []rune(line); len(r) > 60 {
		line = string(r[:59]) + "…"
	}
	return line
}

// RenderResult is the message and its attachments, for renderers that
// do not show user messages on their own.
func (SendUserMessage) RenderResult(_ *SendUserMessageInput, out SendUserMessageOutput) string {
	var b strings.Builder
	b.WriteString(out.Message)
	for _, a := range out.Attachments {
		b.WriteString("\n📎 " + a.Path)
	}
	return b.String()
}
