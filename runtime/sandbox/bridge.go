package sandbox

import (
	"fmt"
	"strconv"
	"strings"
)

// Bridge is a loopback port inside the sandbox whose connections the
// sandbox's server forwards to a Unix socket bound in from the host: how
// a command with no network reaches the host's egress proxies.
type Bridge struct {
	// Port is the port on 127.0.0.1 inside the sandbox.
	Port int
	// Socket is the Unix socket's path, the same inside and out.
	Socket string
}

// String is the bridge as the server's argument: PORT=SOCKET.
func (b Bridge) String() string { return strconv.Itoa(b.Port) + "=" + b.Socket }

// parseBridge reads a bridge argument.
func parseBridge(arg string) (Bridge, error) {
	port, socket, ok := strings.Cut(arg, "=")
	n, err := strconv.Atoi(port)
	if !ok || err != nil || n <= 0 || n > 65535 || socket == "" {
		return Bridge{}, fmt.Errorf("bad bridge %q: want PORT=SOCKET", arg)
	}
	return Bridge{Port: n, Socket: socket}, nil
}

func bridgeKey(bs []Bridge) string {
	var s []string
	for _, b := range bs {
		s = append(s, b.String())
	}
	return strings.Join(s, "\x00")
}
