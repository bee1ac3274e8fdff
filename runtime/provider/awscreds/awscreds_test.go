package awscreds

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestAWSCreds(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "AWS credentials Suite")
}

// fakeSTS is STS on loopback: it records each call's form and
// Authorization header and answers with temporary credentials named after
// the action, or with STS's error document when refuse is set.
type fakeSTS struct {
	URL    string
	mu     sync.Mutex
	forms  []url.Values
	auths  []string
	refuse bool
}

func newFakeSTS() *fakeSTS {
	f := &fakeSTS{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		form, _ := url.ParseQuery(string(body))
		f.mu.Lock()
		f.forms = append(f.forms, form)
		f.auths = append(f.auths, r.Header.Get("Authorization"))
		refuse := f.refuse
		f.mu.Unlock()
		w.Header().Set("Content-Type", "text/xml")
		if refuse {
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>not authorized to perform sts:AssumeRole</Message></Error></ErrorResponse>`)
			return
		}
		action := form.Get("Action")
		exp := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		fmt.Fprintf(w, `<%sResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><%sResult><Credentials>`+
			`<AccessKeyId>ASIA%s</AccessKeyId><SecretAccessKey>secret-%s</SecretAccessKey><SessionToken>token-%s</SessionToken>`+
			`<Expiration>%s</Expiration></Credentials></%sResult></%sResponse>`, action, action, strings.ToUpper(action), action, action, exp, action, action)
	}))
	DeferCleanup(srv.Close)
	f.URL = srv.URL
	return f
}

func (f *fakeSTS) calls() ([]url.Values, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]url.Values(nil), f.forms...), append([]string(nil), f.auths...)
}

var _ = Describe("the AWS credential chain", func() {
	var dir string
	var vars map[string]string
	env := func() Env {
		return Env{Getenv: func(k string) string { return vars[k] }, Home: dir}
	}
	retrieve := func() (aws.Credentials, error) {
		p, err := Credentials(env(), "us-west-2")
		if err != nil {
			return aws.Credentials{}, err
		}
		return p.Retrieve(context.Background())
	}
	write := func(name, text string) {
		Expect(os.MkdirAll(filepath.Join(dir, ".aws"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".aws", name), []byte(text), 0o600)).To(Succeed())
	}

	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		vars = map[string]string{"AWS_EC2_METADATA_DISABLED": "true"}
	})

	It("takes the environment's keys first, over any profile", func() {
		write("credentials", "[default]\naws_access_key_id = AKIDFILE\naws_secret_access_key = file-secret\n")
		vars["AWS_ACCESS_KEY_ID"], vars["AWS_SECRET_ACCESS_KEY"], vars["AWS_SESSION_TOKEN"] = "AKIDENV", "env-secret", "env-token"
		c, err := retrieve()
		Expect(err).NotTo(HaveOccurred())
		Expect(c.AccessKeyID).To(Equal("AKIDENV"))
		Expect(c.SecretAccessKey).To(Equal("env-secret"))
		Expect(c.SessionToken).To(Equal("env-token"))
	})

	It("reads the default profile's keys from ~/.aws/credentials, and AWS_PROFILE's from the config file's [profile NAME]", func() {
		write("credentials", "# a comment\n[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = default-secret\n")
		write("config", "[default]\nregion = eu-west-1\n\n[profile work]\nregion = ap-south-1\naws_access_key_id=AKIDWORK\naws_secret_access_key=work-secret ; inline\ns3 =\n  max_concurrent_requests = 20\n")
		c, err := retrieve()
		Expect(err).NotTo(HaveOccurred())
		Expect(c.AccessKeyID).To(Equal("AKIDDEFAULT"))
		Expect(Region(env())).To(Equal("eu-west-1"))

		vars["AWS_PROFILE"] = "work"
		c, err = retrieve()
		Expect(err).NotTo(HaveOccurred())
		Expect(c.AccessKeyID).To(Equal("AKIDWORK"))
		Expect(c.SecretAccessKey).To(Equal("work-secret"))
		Expect(Region(env())).To(Equal("ap-south-1"))

		vars["AWS_REGION"] = "us-east-2"
		Expect(Region(env())).To(Equal("us-east-2"), "AWS_REGION wins over the profile")
	})

	It("runs a profile's credential_process and uses what it prints", func() {
		script := filepath.Join(dir, "creds.sh")
		Expect(os.WriteFile(script, []byte("#!/bin/sh\necho '{\"Version\":1,\"AccessKeyId\":\"AKIDPROC\",\"SecretAccessKey\":\"proc-secret\",\"SessionToken\":\"proc-token\"}'\n"), 0o755)).To(Succeed())
		write("config", "[profile proc]\ncredential_process = "+script+"\n")
		vars["AWS_PROFILE"] = "proc"
		c, err := retrieve()
		Expect(err).NotTo(HaveOccurred())
		Expect(c.AccessKeyID).To(Equal("AKIDPROC"))
		Expect(c.SessionToken).To(Equal("proc-token"))
	})

	It("assumes a profile's role_arn through STS, signed with its source_profile's keys", func() {
		sts := newFakeSTS()
		vars["AWS_ENDPOINT_URL_STS"] = sts.URL
		write("credentials", "[base]\naws_access_key_id = AKIDBASE\naws_secret_access_key = base-secret\n")
		write("config", "[profile admin]\nrole_arn = arn:aws:iam::123456789012:role/Admin\nsource_profile = base\nexternal_id = ext-1\nrole_session_name = me\n")
		vars["AWS_PROFILE"] = "admin"
		c, err := retrieve()
		Expect(err).NotTo(HaveOccurred())
		Expect(c.AccessKeyID).To(Equal("ASIAASSUMEROLE"))
		Expect(c.SessionToken).To(Equal("token-AssumeRole"))
		Expect(c.CanExpire).To(BeTrue())
		Expect(c.Expires).To(BeTemporally("~", time.Now().Add(time.Hour), time.Minute))
		forms, auths := sts.calls()
		Expect(forms).To(HaveLen(1))
		Expect(forms[0].Get("Action")).To(Equal("AssumeRole"))
		Expect(forms[0].Get("RoleArn")).To(Equal("arn:aws:iam::123456789012:role/Admin"))
		Expect(forms[0].Get("ExternalId")).To(Equal("ext-1"))
		Expect(forms[0].Get("RoleSessionName")).To(Equal("me"))
		Expect(auths[0]).To(HavePrefix("AWS4-HMAC-SHA256 Credential=AKIDBASE/"))
		Expect(auths[0]).To(ContainSubstring("/us-west-2/sts/aws4_request"))

		By("an STS refusal says which role and why")
		sts.mu.Lock()
		sts.refuse = true
		sts.mu.Unlock()
		_, err = retrieve()
		Expect(err).To(MatchError(ContainSubstring("STS AssumeRole for arn:aws:iam::123456789012:role/Admin: AccessDenied: not authorized")))
	})

	It("assumes AWS_ROLE_ARN with the token in AWS_WEB_IDENTITY_TOKEN_FILE, unsigned, reading the file each time", func() {
		sts := newFakeSTS()
		token := filepath.Join(dir, "token")
		Expect(os.WriteFile(token, []byte("eyJ-oidc-token\n"), 0o600)).To(Succeed())
		vars["AWS_ENDPOINT_URL_STS"] = sts.URL
		vars["AWS_WEB_IDENTITY_TOKEN_FILE"], vars["AWS_ROLE_ARN"] = token, "arn:aws:iam::123456789012:role/Pod"
		c, err := retrieve()
		Expect(err).NotTo(HaveOccurred())
		Expect(c.AccessKeyID).To(Equal("ASIAASSUMEROLEWITHWEBIDENTITY"))
		forms, auths := sts.calls()
		Expect(forms[0].Get("WebIdentityToken")).To(Equal("eyJ-oidc-token"))
		Expect(forms[0].Get("RoleSessionName")).To(HavePrefix("agentcore-"))
		Expect(auths[0]).To(BeEmpty())

		delete(vars, "AWS_ROLE_ARN")
		_, err = Credentials(env(), "us-west-2")
		Expect(err).To(MatchError(ContainSubstring("AWS_ROLE_ARN is not")))
	})

	It("asks the container endpoint of AWS_CONTAINER_CREDENTIALS_FULL_URI with the token of its file", func() {
		gotAuth := make(chan string, 4)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			gotAuth <- r.Header.Get("Authorization")
			fmt.Fprintf(w, `{"AccessKeyId":"ASIACONTAINER","SecretAccessKey":"c-secret","Token":"c-token","Expiration":%q}`,
				time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
		}))
		DeferCleanup(srv.Close)
		tokenFile := filepath.Join(dir, "eks-token")
		Expect(os.WriteFile(tokenFile, []byte("pod-identity-token\n"), 0o600)).To(Succeed())
		vars["AWS_CONTAINER_CREDENTIALS_FULL_URI"] = srv.URL + "/v1/credentials"
		vars["AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"] = tokenFile
		c, err := retrieve()
		Expect(err).NotTo(HaveOccurred())
		Expect(c.AccessKeyID).To(Equal("ASIACONTAINER"))
		Expect(c.SessionToken).To(Equal("c-token"))
		Expect(<-gotAuth).To(Equal("pod-identity-token"))

		vars["AWS_CONTAINER_CREDENTIALS_FULL_URI"] = "http://example.invalid/creds"
		_, err = Credentials(env(), "us-west-2")
		Expect(err).To(MatchError(ContainSubstring("plain http is allowed only to loopback")))
	})

	It("takes an SSO profile's credentials from the AWS CLI, and says how to sign in when it fails", func() {
		bin := filepath.Join(dir, "bin")
		Expect(os.MkdirAll(bin, 0o755)).To(Succeed())
		// A stand-in for AWS CLI v2 (the machine has v1, which lacks
		// export-credentials): it prints what v2 prints, or fails.
		cli := "#!/bin/sh\n" +
			`[ "$1 $2 $3 $4 $5 $6" = "configure export-credentials --format process --profile dev" ] || { echo "unexpected: $*" >&2; exit 2; }` + "\n" +
			`[ -f "` + filepath.Join(dir, "signed-in") + `" ] || { echo "Error when retrieving token from sso: Token has expired and refresh failed" >&2; exit 255; }` + "\n" +
			`echo '{"Version":1,"AccessKeyId":"ASIASSO","SecretAccessKey":"sso-secret","SessionToken":"sso-token"}'` + "\n"
		Expect(os.WriteFile(filepath.Join(bin, "aws"), []byte(cli), 0o755)).To(Succeed())
		GinkgoT().Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		write("config", "[profile dev]\nsso_session = corp\nsso_account_id = 123456789012\nsso_role_name = Dev\n\n[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\nsso_region = us-east-1\n")
		vars["AWS_PROFILE"] = "dev"

		_, err := retrieve()
		Expect(err).To(MatchError(ContainSubstring("aws sso login --profile dev")))
		Expect(err).To(MatchError(ContainSubstring("Token has expired")))

		Expect(os.WriteFile(filepath.Join(dir, "signed-in"), nil, 0o600)).To(Succeed())
		c, err := retrieve()
		Expect(err).NotTo(HaveOccurred())
		Expect(c.AccessKeyID).To(Equal("ASIASSO"))
	})

	It("names what is wrong with the configuration before any request", func() {
		vars["AWS_PROFILE"] = "nope"
		_, err := Credentials(env(), "us-west-2")
		Expect(err).To(MatchError(ContainSubstring(`the AWS profile "nope" is in neither the config nor the credentials file`)))
		_, err = Region(env())
		Expect(err).To(MatchError(ContainSubstring(`the AWS profile "nope" is in neither`)))

		write("config", "[profile a]\nrole_arn = arn:aws:iam::1:role/A\nsource_profile = b\n[profile b]\nrole_arn = arn:aws:iam::1:role/B\nsource_profile = a\n"+
			"[profile c]\nrole_arn = arn:aws:iam::1:role/C\ncredential_source = Somewhere\n")
		vars["AWS_PROFILE"] = "a"
		_, err = Credentials(env(), "us-west-2")
		Expect(err).To(MatchError(ContainSubstring("leads back to itself")))
		vars["AWS_PROFILE"] = "c"
		_, err = Credentials(env(), "us-west-2")
		Expect(err).To(MatchError(ContainSubstring(`credential_source "Somewhere" is not one of Environment, Ec2InstanceMetadata, EcsContainer`)))

		delete(vars, "AWS_PROFILE")
		_, err = Credentials(env(), "us-west-2")
		Expect(err).To(MatchError(ContainSubstring("no AWS credentials: set AWS_ACCESS_KEY_ID")))
	})
})
