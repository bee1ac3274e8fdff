package anthropic

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/awscreds"
)

// bedrockHints is the advice for Amazon Bedrock's failures.
var bedrockHints = provider.Hints{
	Auth: "check the AWS credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or AWS_BEARER_TOKEN_BEDROCK) " +
		"and that the model is enabled for the account in AWS_REGION",
	NotFound:   "check the model ID (e.g. us.anthropic.claude-sonnet-4-5-20250929-v1:0) and AWS_REGION",
	Connection: "check AWS_REGION and ANTHROPIC_BEDROCK_BASE_URL",
}

// NewBedrock returns a provider for the Messages API on Amazon Bedrock:
// the Anthropic SDK's requests, sent to InvokeModel (or
// InvokeModelWithResponseStream) at https://bedrock-runtime.REGION.amazonaws.com
// and signed with SigV4, as the SDK's bedrock package does it, with the
// region and credentials found by awscreds in o.AWS (AWS_REGION or the
// profile's; the environment's keys, web identity, AWS_PROFILE's profile,
// the container's or the instance's role). AWS_BEARER_TOKEN_BEDROCK, when
// set, is sent as a bearer token instead of signing, and
// ANTHROPIC_BEDROCK_BASE_URL replaces the endpoint. o.Model is a Bedrock
// model ID and required (agentcore: bedrock:MODEL, else ANTHROPIC_MODEL);
// o's Anthropic credential fields do not apply. The credentials are
// retrieved at the first request, so a role to assume or a container
// endpoint is not asked before the model is.
func NewBedrock(ctx context.Context, o Options) (*Provider, error) {
	model := o.Model
	if model == "" {
		return nil, errors.New("bedrock: no model: give a Bedrock model ID, e.g. us.anthropic.claude-sonnet-4-5-20250929-v1:0")
	}
	region, err := awscreds.Region(o.AWS)
	if err != nil {
		return nil, fmt.Errorf("bedrock: %w", err)
	}
	if region == "" {
		return nil, errors.New("bedrock: no AWS region: set AWS_REGION, e.g. AWS_REGION=us-east-1")
	}
	auth := bedrockAuth{region: region}
	if token := getenv(o.AWS, "AWS_BEARER_TOKEN_BEDROCK"); token != "" {
		auth.bearer = token
	} else if auth.creds, err = awscreds.Credentials(o.AWS, region); err != nil {
		return nil, fmt.Errorf("bedrock: %w", err)
	}
	baseURL := getenv(o.AWS, "ANTHROPIC_BEDROCK_BASE_URL")
	if baseURL == "" {
		baseURL = "https://bedrock-runtime." + region + ".amazonaws.com"
	}
	// The Bedrock adaptation signs the request: it comes after anything
	// that changes it, and before the caller's options (which may move
	// the base URL).
	opts := []option.RequestOption{option.WithoutEnvironmentDefaults(), option.WithBaseURL(baseURL)}
	if o.UserAgent != "" {
		opts = append(opts, option.WithHeader("User-Agent", o.UserAgent))
	}
	opts = append(opts, option.WithMiddleware(auth.middleware), option.WithMaxRetries(0))
	opts = append(opts, o.RequestOptions...)
	return &Provider{client: anthropic.NewClient(opts...), model: model, platform: "bedrock", hints: bedrockHints,
		http: provider.NewHTTPClients("bedrock", o.Timeouts, bedrockHints)}, nil
}

// getenv reads a variable through e, or none when e has no Getenv.
func getenv(e awscreds.Env, name string) string {
	if e.Getenv == nil {
		return ""
	}
	return strings.TrimSpace(e.Getenv(name))
}

// bedrockAuth turns a Messages API request into Bedrock's and signs it.
type bedrockAuth struct {
	region string
	bearer string                  // AWS_BEARER_TOKEN_BEDROCK; empty: SigV4
	creds  aws.CredentialsProvider // when bearer is empty
}

// middleware moves what Bedrock takes in the body there (the
// anthropic-version and anthropic-beta headers as anthropic_version and
// anthropic_beta), takes the model and stream out of the body into the
// path (/model/MODEL/invoke or invoke-with-response-stream), signs the
// request, and turns a streamed answer's AWS event stream into the
// Messages API's server-sent events. This is the SDK's bedrock package's
// middleware, for the one endpoint agentcore calls.
func (a bedrockAuth) middleware(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	version := r.Header.Get("anthropic-version")
	r.Header.Del("anthropic-version")
	var body []byte
	if r.Body != nil {
		var err error
		if body, err = io.ReadAll(r.Body); err != nil {
			return nil, err
		}
		r.Body.Close()
		if !gjson.ValidBytes(body) {
			return nil, errors.New("the request body is not JSON")
		}
		if version != "" && !gjson.GetBytes(body, "anthropic_version").Exists() {
			body, _ = sjson.SetBytes(body, "anthropic_version", version)
		}
		if betas := splitBetas(r.Header.Values("anthropic-beta")); len(betas) > 0 {
			r.Header.Del("anthropic-beta")
			if body, err = sjson.SetBytes(body, "anthropic_beta", betas); err != nil {
				return nil, err
			}
		}
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.EscapedPath(), "/v1/messages") {
			model := gjson.GetBytes(body, "model").String()
			stream := gjson.GetBytes(body, "stream").Bool()
			body, _ = sjson.DeleteBytes(body, "model")
			body, _ = sjson.DeleteBytes(body, "stream")
			if model == "" || model == "." || model == ".." {
				return nil, fmt.Errorf("%q is not a model ID", model)
			}
			method := "invoke"
			if stream {
				method = "invoke-with-response-stream"
			}
			rawPath := strings.TrimSuffix(r.URL.EscapedPath(), "/v1/messages") + "/model/" + url.PathEscape(model) + "/" + method
			if r.URL.Path, err = url.PathUnescape(rawPath); err != nil {
				return nil, err
			}
			r.URL.RawPath = rawPath
		}
		reader := bytes.NewReader(body)
		r.Body = io.NopCloser(reader)
		r.GetBody = func() (io.ReadCloser, error) {
			_, err := reader.Seek(0, io.SeekStart)
			return io.NopCloser(reader), err
		}
		r.ContentLength = int64(len(body))
	}
	if a.bearer != "" {
		r.Header.Set("Authorization", "Bearer "+a.bearer)
	} else {
		creds, err := a.creds.Retrieve(r.Context())
		if err != nil {
			if r.Context().Err() != nil {
				return nil, r.Context().Err()
			}
			// Not retried: the SDK's providers retry what is worth it
			// (instance metadata, the container endpoint) themselves.
			return nil, &provider.APIError{Provider: "bedrock", Kind: provider.ErrAuth,
				Message: "no AWS credentials: " + err.Error(), Hint: bedrockHints.Hint(provider.ErrAuth), Err: err}
		}
		sum := sha256.Sum256(body)
		if err := v4.NewSigner().SignHTTP(r.Context(), creds, r, hex.EncodeToString(sum[:]), "bedrock", a.region, time.Now()); err != nil {
			return nil, fmt.Errorf("sign the request: %w", err)
		}
	}
	res, err := next(r)
	if err != nil || res == nil {
		return res, err
	}
	// Error answers stay as they are: the SDK's error path reads them.
	if mediaType, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); res.StatusCode < 400 && mediaType == "application/vnd.amazon.eventstream" {
		res.Body = &sseBody{rc: res.Body}
		res.Header.Set("Content-Type", "text/event-stream")
		res.Header.Del("Content-Length")
		res.ContentLength = -1
	}
	return res, nil
}

// splitBetas is the comma-separated values of the anthropic-beta headers.
func splitBetas(values []string) []string {
	var betas []string
	for _, v := range values {
		for _, b := range strings.Split(v, ",") {
			if b = strings.TrimSpace(b); b != "" {
				betas = append(betas, b)
			}
		}
	}
	return betas
}
