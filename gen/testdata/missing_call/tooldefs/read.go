package tooldefs

// Read reads a file.
//
// +tool:name=Read
// +tool:readOnly
type Read struct{}

// ReadInput is the input of Read.
type ReadInput struct {
	// The file.
	FilePath string `json:"file_path"`
}

// ReadOutput is what Read returns.
type ReadOutput struct{ Content string }
