package runtime

// UserMessage is a message a tool addresses to the user rather than to
// the model (the SendUserMessage tool's). Renderers show it as its own
// entry: set apart in the terminal, its own event in stream-json.
type UserMessage struct {
	// Text is the message, in markdown.
	Text string `json:"message"`
	// Status is "normal" for a reply, "proactive" for news the user did
	// not ask for (a finished task, a blocker).
	Status string `json:"status,omitempty"`
	// Attachments are files shown with the message as links.
	Attachments []Attachment `json:"attachments"`
}

// Attachment is a file shown with a UserMessage.
type Attachment struct {
	// Path is absolute.
	Path string `json:"path"`
	// Size is in bytes.
	Size int64 `json:"size"`
	// IsImage is true for PNG, JPEG, GIF and WebP files.
	IsImage bool `json:"is_image"`
}

// UserMessenger is implemented by tool outputs (Result.Data) that carry
// a message for the user.
type UserMessenger interface {
	UserMessage() UserMessage
}

// UserMessageOf returns the message r carries for the user, if any: a
// successful result whose Data is a UserMessenger.
func UserMessageOf(r Result) (UserMessage, bool) {
	if r.IsError {
		return UserMessage{}, false
	}
	m, ok := r.Data.(UserMessenger)
	if !ok {
		return UserMessage{}, false
	}
	var msg UserMessage
	if _, err := Guard("UserMessage", func() bool { msg = m.UserMessage(); return true }); err != nil {
		return UserMessage{}, false
	}
	return msg, true
}
