package lsp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/lsp"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// peer is the other end of a connection: it reads framed messages and
// writes raw bytes.
type peer struct {
	r *bufio.Reader
	w io.Writer
}

func (p peer) read() map[string]any {
	GinkgoHelper()
	h, err := textproto.NewReader(p.r).ReadMIMEHeader()
	Expect(err).NotTo(HaveOccurred())
	n, err := strconv.Atoi(h.Get("Content-Length"))
	Expect(err).NotTo(HaveOccurred())
	body := make([]byte, n)
	_, err = io.ReadFull(p.r, body)
	Expect(err).NotTo(HaveOccurred())
	var m map[string]any
	Expect(json.Unmarshal(body, &m)).To(Succeed())
	return m
}

func (p peer) send(body string) {
	GinkgoHelper()
	_, err := fmt.Fprintf(p.w, "Content-Length: %d\r\n\r\n%s", len(body), body)
	Expect(err).NotTo(HaveOccurred())
}

var _ = Describe("the JSON-RPC connection", func() {
	var (
		conn     lsp.Conn
		p        peer
		toServer *io.PipeWriter
		toClient *io.PipeWriter
	)
	BeforeEach(func() {
		DeferCleanup(tooltest.LeakCheck(GinkgoT()))
		var fromClient, fromServer *io.PipeReader
		fromClient, toServer = io.Pipe()
		fromServer, toClient = io.Pipe()
		p = peer{r: bufio.NewReader(fromClient), w: toClient}
		conn = lsp.NewConn(fromServer, toServer, func(method string, params json.RawMessage) (any, error) {
			if method == "workspace/configuration" {
				return []string{"conf"}, nil
			}
			return nil, &lsp.RPCError{Code: -32601, Message: "unknown " + method}
		})
		DeferCleanup(func() {
			toClient.Close()
			fromClient.Close()
			<-conn.Done()
		})
	})

	It("matches answers that come out of order to their calls", func() {
		type answer struct {
			v   string
			err error
		}
		got := make(chan answer, 2)
		for _, m := range []string{"a", "b"} {
			go func() {
				var v string
				err := conn.Call(context.Background(), m, nil, &v)
				got <- answer{m + "=" + v, err}
			}()
		}
		first, second := p.read(), p.read()
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":%q}`, second["id"], second["method"].(string)+"!"))
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":%q}`, first["id"], first["method"].(string)+"!"))
		a, b := <-got, <-got
		Expect(a.err).NotTo(HaveOccurred())
		Expect(b.err).NotTo(HaveOccurred())
		Expect([]string{a.v, b.v}).To(ConsistOf("a=a!", "b=b!"))
	})

	It("answers the server's requests, with an error for what it does not handle", func() {
		p.send(`{"jsonrpc":"2.0","id":7,"method":"workspace/configuration","params":{"items":[{}]}}`)
		Expect(p.read()).To(Equal(map[string]any{"jsonrpc": "2.0", "id": 7.0, "result": []any{"conf"}}))
		p.send(`{"jsonrpc":"2.0","id":"x","method":"window/unknown"}`)
		Expect(p.read()).To(HaveKeyWithValue("error", map[string]any{"code": -32601.0, "message": "unknown window/unknown"}))
	})

	It("returns an error response as an error that names the method", func() {
		errc := make(chan error, 1)
		go func() { errc <- conn.Call(context.Background(), "textDocument/hover", map[string]int{"x": 1}, nil) }()
		req := p.read()
		Expect(req).To(HaveKeyWithValue("params", map[string]any{"x": 1.0}))
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"error":{"code":-32602,"message":"no file"}}`, req["id"]))
		Expect(<-errc).To(MatchError("textDocument/hover: no file (code -32602)"))
	})

	It("stops at a bad frame, and every call then fails with why", func() {
		_, err := io.WriteString(toClient, "Content-Length: nope\r\n\r\n{}")
		Expect(err).NotTo(HaveOccurred())
		Eventually(conn.Done()).Should(BeClosed())
		Expect(conn.Err()).To(MatchError(ContainSubstring(`bad Content-Length "nope"`)))
		Expect(conn.Call(context.Background(), "x", nil, nil)).To(MatchError(conn.Err()))
	})

	It("gives up a call when its context ends, and tells the server", func() {
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() { errc <- conn.Call(ctx, "slow", nil, nil) }()
		req := p.read()
		cancel()
		Expect(p.read()).To(And(HaveKeyWithValue("method", "$/cancelRequest"), HaveKeyWithValue("params", map[string]any{"id": req["id"]})))
		Expect(<-errc).To(MatchError(context.Canceled))
	})
})
