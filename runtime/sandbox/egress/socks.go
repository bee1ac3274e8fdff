package egress

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/netip"
	"strconv"
	"syscall"
	"time"
)

// serveSOCKS answers SOCKS5 clients on l (RFC 1928, no authentication,
// CONNECT only) until l is closed, each destination decided by p. A
// refused one gets reply 0x02, "connection not allowed by ruleset".
//
// It is our own rather than a library's: the maintained Go SOCKS5
// servers are not among the modules served here, and the part of the
// protocol a proxying client uses (a greeting, one CONNECT, then bytes)
// is a hundred lines.
func serveSOCKS(ctx context.Context, l net.Listener, p *Policy) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			socksOne(ctx, c, p)
		}()
	}
}

// SOCKS5 reply codes.
const (
	socksOK          = 0x00
	socksFailure     = 0x01
	socksNotAllowed  = 0x02
	socksUnreachable = 0x04
	socksRefused     = 0x05
	socksNoCommand   = 0x07
	socksNoAddrType  = 0x08
)

func socksOne(ctx context.Context, c net.Conn, p *Policy) {
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(c)
	// Greeting: VER NMETHODS METHODS...
	var hdr [2]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil || hdr[0] != 5 {
		return
	}
	methods := make([]byte, hdr[1])
	if _, err := io.ReadFull(r, methods); err != nil {
		return
	}
	noAuth := false
	for _, m := range methods {
		noAuth = noAuth || m == 0
	}
	if !noAuth {
		_, _ = c.Write([]byte{5, 0xff})
		return
	}
	if _, err := c.Write([]byte{5, 0}); err != nil {
		return
	}
	// Request: VER CMD RSV ATYP DST.ADDR DST.PORT
	var req [4]byte
	if _, err := io.ReadFull(r, req[:]); err != nil || req[0] != 5 {
		return
	}
	host, err := socksAddr(r, req[3])
	if err != nil {
		socksReply(c, socksNoAddrType)
		return
	}
	var port [2]byte
	if _, err := io.ReadFull(r, port[:]); err != nil {
		return
	}
	if req[1] != 1 { // CONNECT only
		socksReply(c, socksNoCommand)
		return
	}
	target := net.JoinHostPort(host, strconv.Itoa(int(binary.BigEndian.Uint16(port[:]))))
	up, err := p.dial(ctx, "tcp", target)
	if err != nil {
		var d *Denied
		code := byte(socksUnreachable)
		switch {
		case errors.As(err, &d):
			code = socksNotAllowed
		case errors.Is(err, syscall.ECONNREFUSED):
			code = socksRefused
		}
		socksReply(c, code)
		return
	}
	defer up.Close()
	socksReply(c, socksOK)
	_ = c.SetDeadline(time.Time{})
	pipe(c, up, r)
}

func socksAddr(r *bufio.Reader, atyp byte) (string, error) {
	switch atyp {
	case 1:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return "", err
		}
		return netip.AddrFrom4(b).String(), nil
	case 4:
		var b [16]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return "", err
		}
		return netip.AddrFrom16(b).String(), nil
	case 3:
		n, err := r.ReadByte()
		if err != nil {
			return "", err
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			return "", err
		}
		return string(b), nil
	}
	return "", errors.New("unknown address type")
}

func socksReply(c net.Conn, code byte) {
	_, _ = c.Write([]byte{5, code, 0, 1, 0, 0, 0, 0, 0, 0})
}

// pipe copies both ways until either side ends; from is what the client
// sent already buffered.
func pipe(client, up net.Conn, from io.Reader) {
	done := make(chan struct{}, 2)
	go func() {
		_, _ = io.Copy(up, from)
		if cw, ok := up.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
		done <- struct{}{}
	}()
	go func() {
		_, _ = io.Copy(client, up)
		if cw, ok := client.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
		done <- struct{}{}
	}()
	<-done
	<-done
}
