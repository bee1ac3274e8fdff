package settings

// Source says where settings (and the permission rules in them) came
// from, for messages and listings.
type Source string

// The sources of rules, from the lowest to the highest precedence.
const (
	SourceUser    Source = "user settings"
	SourceProject Source = "project settings"
	SourceLocal   Source = "local project settings"
	SourceFlag    Source = "command line"
	SourceSession Source = "this session"
)
