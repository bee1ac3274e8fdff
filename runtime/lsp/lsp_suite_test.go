package lsp_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"strconv"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// fakeServerEnv makes the test binary a misbehaving language server (see
// fakeServer) instead of running the specs.
const fakeServerEnv = "AGENTCORE_LSP_FAKE_SERVER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeServerEnv); mode != "" {
		fakeServer(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestLSP(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "LSP Suite")
}

// fakeServer is a language server that answers initialize and then, in
// mode "hang", never answers a request (nor shutdown), or, in mode
// "crash", writes to stderr and exits at its first request. It ends at
// the end of its input or at exit.
func fakeServer(mode string) {
	r := bufio.NewReader(os.Stdin)
	for {
		h, err := textproto.NewReader(r).ReadMIMEHeader()
		if err != nil {
			return
		}
		n, _ := strconv.Atoi(h.Get("Content-Length"))
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &m)
		switch {
		case m.Method == "initialize":
			reply := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"capabilities":{}}}`, m.ID)
			fmt.Printf("Content-Length: %d\r\n\r\n%s", len(reply), reply)
		case m.Method == "exit":
			return
		case len(m.ID) > 0 && mode == "crash":
			fmt.Fprintln(os.Stderr, "boom: the fake server fell over")
			os.Exit(3)
		}
	}
}
