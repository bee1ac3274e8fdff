package anthropic

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/awscreds"
)

// toolTurn is a streamed response with text and one tool_use whose input
// arrives in pieces.
var toolTurn = []string{
	`{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"fake","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}`,
	`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
	`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Reading."}}`,
	`{"type":"content_block_stop","index":0}`,
	`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"Read","input":{}}}`,
	`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"file_pa"}}`,
	`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"th\":\"a.go\"}"}}`,
	`{"type":"content_block_stop","index":1}`,
	`{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":9}}`,
	`{"type":"message_stop"}`,
}

// fakeBedrock is Bedrock's InvokeModelWithResponseStream on loopback: it
// answers with toolTurn in AWS EventStream framing (one "chunk" event per
// Messages API event, base64 in a JSON payload), or with status and body.
func fakeBedrock(status int, body string) func() []seen {
	var mu sync.Mutex
	var got []seen
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var b map[string]any
		_ = json.Unmarshal(data, &b)
		h := r.Header.Clone()
		h.Set("X-Test-Path", r.URL.Path)
		mu.Lock()
		got = append(got, seen{header: h, body: b})
		mu.Unlock()
		if status != http.StatusOK {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = io.WriteString(w, body)
			return
		}
		w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
		enc := eventstream.NewEncoder()
		for _, ev := range toolTurn {
			payload, _ := json.Marshal(map[string]string{"bytes": base64.StdEncoding.EncodeToString([]byte(ev))})
			msg := eventstream.Message{Payload: payload}
			msg.Headers.Set(":message-type", eventstream.StringValue("event"))
			msg.Headers.Set(":event-type", eventstream.StringValue("chunk"))
			msg.Headers.Set(":content-type", eventstream.StringValue("application/json"))
			var buf bytes.Buffer
			Expect(enc.Encode(&buf, msg)).To(Succeed())
			_, _ = w.Write(buf.Bytes())
			w.(http.Flusher).Flush()
		}
	}))
	DeferCleanup(srv.Close)
	GinkgoT().Setenv("ANTHROPIC_BEDROCK_BASE_URL", srv.URL)
	return func() []seen {
		mu.Lock()
		defer mu.Unlock()
		return append([]seen(nil), got...)
	}
}

var _ = Describe("Amazon Bedrock (fake on loopback)", func() {
	const model = "us.anthropic.claude-test-v1:0"

	BeforeEach(func() {
		dir := GinkgoT().TempDir()
		for k, v := range map[string]string{
			"AWS_ACCESS_KEY_ID": "AKIDFAKE", "AWS_SECRET_ACCESS_KEY": "fake-secret", "AWS_SESSION_TOKEN": "",
			"AWS_REGION": "us-east-1", "AWS_DEFAULT_REGION": "", "AWS_PROFILE": "", "AWS_BEARER_TOKEN_BEDROCK": "",
			"AWS_CONFIG_FILE": filepath.Join(dir, "config"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(dir, "credentials"),
			"AWS_EC2_METADATA_DISABLED": "true", "ANTHROPIC_MODEL": "", "ANTHROPIC_API_KEY": "sk-must-not-be-sent",
		} {
			GinkgoT().Setenv(k, v)
		}
	})

	newBedrock := func() *Provider {
		p, err := NewBedrock(context.Background(), Options{Model: model, UserAgent: "agentcore/test", AWS: awscreds.Env{Getenv: os.Getenv},
			RequestOptions: []option.RequestOption{option.WithMaxRetries(0)}})
		Expect(err).NotTo(HaveOccurred())
		return p
	}

	It("streams a tool turn signed with SigV4, the model in the path, and hands on the tool_use", func() {
		got := fakeBedrock(http.StatusOK, "")
		p := newBedrock()
		Expect(p.Name()).To(Equal("bedrock:" + model))
		var evs []provider.Event
		for ev, err := range p.Stream(context.Background(), provider.Request{System: "be brief",
			Messages: []provider.Message{{Role: provider.User, Content: []provider.Block{provider.Text("read a.go")}}}}) {
			Expect(err).NotTo(HaveOccurred())
			evs = append(evs, ev)
		}
		var uses []provider.Block
		for _, ev := range evs {
			if ev.Type == provider.EventToolUse {
				uses = append(uses, ev.Block)
			}
		}
		Expect(uses).To(Equal([]provider.Block{provider.ToolUse("toolu_1", "Read", json.RawMessage(`{"file_path":"a.go"}`))}))
		final := evs[len(evs)-1]
		Expect(final.Type).To(Equal(provider.EventMessage))
		Expect(final.StopReason).To(Equal(provider.StopToolUse))
		Expect(final.Usage.OutputTokens).To(BeNumerically("==", 9))

		reqs := got()
		Expect(reqs).To(HaveLen(1))
		Expect(reqs[0].header.Get("X-Test-Path")).To(Equal("/model/" + model + "/invoke-with-response-stream"))
		Expect(reqs[0].header.Get("Authorization")).To(HavePrefix("AWS4-HMAC-SHA256 Credential=AKIDFAKE/"))
		Expect(reqs[0].header.Get("Authorization")).To(ContainSubstring("/us-east-1/bedrock/aws4_request"))
		Expect(reqs[0].header.Get("X-Api-Key")).To(BeEmpty())
		Expect(reqs[0].header.Get("User-Agent")).To(Equal("agentcore/test"))
		Expect(reqs[0].body).To(HaveKey("anthropic_version"))
		Expect(reqs[0].body).NotTo(HaveKey("model"))
		Expect(reqs[0].body).NotTo(HaveKey("stream"))
		Expect(reqs[0].body["system"].([]any)[0]).To(HaveKeyWithValue("text", "be brief"))
	})

	It("sends AWS_BEARER_TOKEN_BEDROCK as a bearer token instead of signing", func() {
		got := fakeBedrock(http.StatusOK, "")
		GinkgoT().Setenv("AWS_BEARER_TOKEN_BEDROCK", "bedrock-api-key")
		_, err := ask(newBedrock())
		Expect(err).NotTo(HaveOccurred())
		Expect(got()[0].header.Get("Authorization")).To(Equal("Bearer bedrock-api-key"))
	})

	It("reports a refused request with the AWS message and what to check", func() {
		fakeBedrock(http.StatusForbidden, `{"message":"The security token included in the request is invalid."}`)
		_, err := ask(newBedrock())
		Expect(err).To(MatchError(ContainSubstring("bedrock: 403 Forbidden (authentication failed): The security token included in the request is invalid.")))
		Expect(err).To(MatchError(ContainSubstring("check the AWS credentials")))
	})

	It("signs with the keys of AWS_PROFILE's credential_process when the environment has none", func() {
		got := fakeBedrock(http.StatusOK, "")
		dir := GinkgoT().TempDir()
		script := filepath.Join(dir, "creds.sh")
		Expect(os.WriteFile(script, []byte("#!/bin/sh\necho '{\"Version\":1,\"AccessKeyId\":\"AKIDPROC\",\"SecretAccessKey\":\"s\",\"SessionToken\":\"t\"}'\n"), 0o755)).To(Succeed())
		Expect(os.WriteFile(os.Getenv("AWS_CONFIG_FILE"), []byte("[profile proc]\nregion = eu-central-1\ncredential_process = "+script+"\n"), 0o600)).To(Succeed())
		GinkgoT().Setenv("AWS_ACCESS_KEY_ID", "")
		GinkgoT().Setenv("AWS_REGION", "")
		GinkgoT().Setenv("AWS_PROFILE", "proc")
		_, err := ask(newBedrock())
		Expect(err).NotTo(HaveOccurred())
		auth := got()[0].header.Get("Authorization")
		Expect(auth).To(HavePrefix("AWS4-HMAC-SHA256 Credential=AKIDPROC/"))
		Expect(auth).To(ContainSubstring("/eu-central-1/bedrock/aws4_request"), "the profile's region")
		Expect(got()[0].header.Get("X-Amz-Security-Token")).To(Equal("t"))
	})

	It("fails without sending when the credentials cannot be had, as an authentication failure that is not retried", func() {
		got := fakeBedrock(http.StatusOK, "")
		Expect(os.WriteFile(os.Getenv("AWS_CONFIG_FILE"), []byte("[profile broken]\ncredential_process = false\n"), 0o600)).To(Succeed())
		GinkgoT().Setenv("AWS_ACCESS_KEY_ID", "")
		GinkgoT().Setenv("AWS_PROFILE", "broken")
		_, err := ask(newBedrock())
		var apiErr *provider.APIError
		Expect(errors.As(err, &apiErr)).To(BeTrue(), "%v", err)
		Expect(apiErr.Kind).To(Equal(provider.ErrAuth))
		Expect(apiErr.Retryable()).To(BeFalse())
		Expect(err).To(MatchError(HavePrefix("bedrock: authentication failed: no AWS credentials: ")))
		Expect(err).To(MatchError(ContainSubstring("credential_process")))
		Expect(got()).To(BeEmpty())
	})

	It("reports an exception in the middle of the stream as the API's error, throttling as a rate limit", func() {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
			enc := eventstream.NewEncoder()
			payload, _ := json.Marshal(map[string]string{"bytes": base64.StdEncoding.EncodeToString([]byte(toolTurn[0]))})
			chunk := eventstream.Message{Payload: payload}
			chunk.Headers.Set(":message-type", eventstream.StringValue("event"))
			chunk.Headers.Set(":event-type", eventstream.StringValue("chunk"))
			exception := eventstream.Message{Payload: []byte(`{"message":"Too many tokens, please wait before trying again."}`)}
			exception.Headers.Set(":message-type", eventstream.StringValue("exception"))
			exception.Headers.Set(":exception-type", eventstream.StringValue("throttlingException"))
			_ = enc.Encode(w, chunk)
			_ = enc.Encode(w, exception)
		}))
		DeferCleanup(srv.Close)
		GinkgoT().Setenv("ANTHROPIC_BEDROCK_BASE_URL", srv.URL)
		_, err := ask(newBedrock())
		var apiErr *provider.APIError
		Expect(errors.As(err, &apiErr)).To(BeTrue(), "%v", err)
		Expect(apiErr.Kind).To(Equal(provider.ErrRateLimit))
		Expect(apiErr.Message).To(ContainSubstring("throttlingException: Too many tokens"))
	})

	It("needs a region and a model, and says which", func() {
		GinkgoT().Setenv("AWS_REGION", "")
		_, err := NewBedrock(context.Background(), Options{Model: model, AWS: awscreds.Env{Getenv: os.Getenv}})
		Expect(err).To(MatchError(ContainSubstring("set AWS_REGION")))
		_, err = NewBedrock(context.Background(), Options{})
		Expect(err).To(MatchError(ContainSubstring("bedrock: no model")))
	})
})
