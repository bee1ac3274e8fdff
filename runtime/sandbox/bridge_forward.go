package sandbox

import (
	"io"
	"net"
	"strconv"
)

// startBridges listens on each bridge's loopback port (inside the
// sandbox's network namespace) and forwards every connection to its Unix
// socket, for as long as the server runs.
func startBridges(args []string) error {
	for _, a := range args {
		b, err := parseBridge(a)
		if err != nil {
			return err
		}
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(b.Port))
		if err != nil {
			return err
		}
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				go forward(c, b.Socket)
			}
		}()
	}
	return nil
}

// forward copies between c and a new connection to socket until both
// directions end.
func forward(c net.Conn, socket string) {
	defer c.Close()
	up, err := net.Dial("unix", socket)
	if err != nil {
		return
	}
	defer up.Close()
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(up, c)
		_ = up.(*net.UnixConn).CloseWrite()
		close(done)
	}()
	_, _ = io.Copy(c, up)
	_ = c.(*net.TCPConn).CloseWrite()
	<-done
}
