package awscreds

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// stsClient is the HTTP client of STS calls.
var stsClient = &http.Client{Timeout: 30 * time.Second}

// stsEndpoint is STS in region (us-east-1 when none is set), or
// AWS_ENDPOINT_URL_STS, else AWS_ENDPOINT_URL, when set.
func stsEndpoint(e Env, region string) string {
	if u := e.first("AWS_ENDPOINT_URL_STS", "AWS_ENDPOINT_URL"); u != "" {
		return u
	}
	if region == "" {
		region = "us-east-1"
	}
	return "https://sts." + region + ".amazonaws.com"
}

// sessionName is a role session's name when the configuration gives none.
func sessionName() string {
	return "agentcore-" + strconv.FormatInt(time.Now().UnixNano(), 10)
}

// webIdentity assumes role with the OIDC token in file
// (AssumeRoleWithWebIdentity, which is not signed), reading the file at
// each renewal: Kubernetes rotates it.
func webIdentity(e Env, region, file, role, session string) aws.CredentialsProvider {
	endpoint := stsEndpoint(e, region)
	if session == "" {
		session = sessionName()
	}
	return aws.CredentialsProviderFunc(func(ctx context.Context) (aws.Credentials, error) {
		token, err := os.ReadFile(file)
		if err != nil {
			return aws.Credentials{}, fmt.Errorf("read the web identity token (AWS_WEB_IDENTITY_TOKEN_FILE or web_identity_token_file): %w", err)
		}
		form := url.Values{"Action": {"AssumeRoleWithWebIdentity"}, "Version": {"2011-06-15"}, "RoleArn": {role},
			"RoleSessionName": {session}, "WebIdentityToken": {strings.TrimSpace(string(token))}}
		return callSTS(ctx, endpoint, form, nil, "", "web identity")
	})
}

// assumeRole assumes the profile's role_arn with the credentials of
// source (AssumeRole, signed), with its external_id, role_session_name
// and duration_seconds.
func assumeRole(e Env, region string, source aws.CredentialsProvider, role string, p profile) aws.CredentialsProvider {
	endpoint := stsEndpoint(e, region)
	signRegion := region
	if signRegion == "" {
		signRegion = "us-east-1"
	}
	session := p.get("role_session_name")
	if session == "" {
		session = sessionName()
	}
	return aws.CredentialsProviderFunc(func(ctx context.Context) (aws.Credentials, error) {
		src, err := source.Retrieve(ctx)
		if err != nil {
			return aws.Credentials{}, fmt.Errorf("the AWS profile %q: the credentials to assume its role with: %w", p.name, err)
		}
		form := url.Values{"Action": {"AssumeRole"}, "Version": {"2011-06-15"}, "RoleArn": {role}, "RoleSessionName": {session}}
		if id := p.get("external_id"); id != "" {
			form.Set("ExternalId", id)
		}
		if d := p.get("duration_seconds"); d != "" {
			form.Set("DurationSeconds", d)
		}
		return callSTS(ctx, endpoint, form, &src, signRegion, "profile "+p.name)
	})
}

// stsCredentials are the temporary credentials of an STS answer.
type stsCredentials struct {
	AccessKeyID     string    `xml:"AccessKeyId"`
	SecretAccessKey string    `xml:"SecretAccessKey"`
	SessionToken    string    `xml:"SessionToken"`
	Expiration      time.Time `xml:"Expiration"`
}

// stsResult is what AssumeRole or AssumeRoleWithWebIdentity answers: its
// result element is named after the action.
type stsResult struct {
	Role        stsCredentials `xml:"AssumeRoleResult>Credentials"`
	WebIdentity stsCredentials `xml:"AssumeRoleWithWebIdentityResult>Credentials"`
}

// stsError is STS's error document.
type stsError struct {
	Code    string `xml:"Error>Code"`
	Message string `xml:"Error>Message"`
}

// callSTS posts form to STS, signed with creds when they are given, and
// returns the temporary credentials of its answer.
func callSTS(ctx context.Context, endpoint string, form url.Values, creds *aws.Credentials, region, source string) (aws.Credentials, error) {
	body := form.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		return aws.Credentials{}, fmt.Errorf("STS endpoint %q: %w", endpoint, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
	if creds != nil {
		sum := sha256.Sum256([]byte(body))
		if err := v4.NewSigner().SignHTTP(ctx, *creds, req, hex.EncodeToString(sum[:]), "sts", region, time.Now()); err != nil {
			return aws.Credentials{}, fmt.Errorf("sign the STS request: %w", err)
		}
	}
	resp, err := stsClient.Do(req)
	if err != nil {
		return aws.Credentials{}, fmt.Errorf("STS %s: %w", form.Get("Action"), err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return aws.Credentials{}, fmt.Errorf("STS %s: read the answer: %w", form.Get("Action"), err)
	}
	if resp.StatusCode != http.StatusOK {
		var e stsError
		if xml.Unmarshal(data, &e) == nil && e.Code != "" {
			return aws.Credentials{}, fmt.Errorf("STS %s for %s: %s: %s", form.Get("Action"), form.Get("RoleArn"), e.Code, e.Message)
		}
		return aws.Credentials{}, fmt.Errorf("STS %s for %s: %s", form.Get("Action"), form.Get("RoleArn"), resp.Status)
	}
	var out stsResult
	_ = xml.Unmarshal(data, &out)
	c := out.Role
	if c.AccessKeyID == "" {
		c = out.WebIdentity
	}
	if c.AccessKeyID == "" || c.SecretAccessKey == "" {
		return aws.Credentials{}, fmt.Errorf("STS %s: the answer has no credentials: %.200q", form.Get("Action"), data)
	}
	return aws.Credentials{AccessKeyID: c.AccessKeyID, SecretAccessKey: c.SecretAccessKey, SessionToken: c.SessionToken,
		CanExpire: !c.Expiration.IsZero(), Expires: c.Expiration, Source: source}, nil
}
