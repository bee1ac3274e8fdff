package sandbox

import "os"

// request is one command for the server.
type request struct {
	Command string   `json:"command"`
	Dir     string   `json:"dir"`
	Env     []string `json:"env"`
	// Cwd asks for the directory the command ends in (wrap).
	Cwd bool `json:"cwd,omitempty"`
	// Files go to bash from fd 3 on (passed with the request, not in it).
	Files []*os.File `json:"-"`
}

// reply is the server's hello, or one of its two answers to a request.
type reply struct {
	Pid    int    `json:"pid,omitempty"`
	Err    string `json:"err,omitempty"`
	Exited bool   `json:"exited,omitempty"`
	Code   int    `json:"code,omitempty"`
	Cwd    string `json:"cwd,omitempty"`
}
