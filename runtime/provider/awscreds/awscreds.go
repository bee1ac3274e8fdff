// Package awscreds finds the AWS region and credentials the way the AWS
// SDKs' default chain does (environment, web identity, the shared config
// and credentials files' profiles, a credential process, role assumption,
// the ECS and EKS container endpoints, EC2 instance metadata), without
// linking the AWS SDK's config package: that package brings every
// service client its chain may call (STS, SSO, SSO-OIDC, sign-in), whose
// initialisers cost each agentcore start about a millisecond.
//
// Profiles that sign in through AWS IAM Identity Center (sso_session,
// sso_start_url) or `aws login` (login_session) take their credentials
// from the AWS CLI, which such profiles need anyway to sign in:
// `aws configure export-credentials --profile NAME --format process`.
package awscreds

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials/ec2rolecreds"
	"github.com/aws/aws-sdk-go-v2/credentials/endpointcreds"
	"github.com/aws/aws-sdk-go-v2/credentials/processcreds"
)

// Env is where the chain looks: the process's variables and home.
type Env struct {
	// Getenv reads a variable (os.Getenv); nil reads none.
	Getenv func(string) string
	// Home is the user's home directory, for ~/.aws; empty: $HOME.
	Home string
}

func (e Env) get(name string) string {
	if e.Getenv == nil {
		return ""
	}
	return strings.TrimSpace(e.Getenv(name))
}

// first returns the first of the variables that is set.
func (e Env) first(names ...string) string {
	for _, n := range names {
		if v := e.get(n); v != "" {
			return v
		}
	}
	return ""
}

// keys are the environment's static credentials (AWS_ACCESS_KEY_ID and
// AWS_SECRET_ACCESS_KEY, with AWS_SESSION_TOKEN), when both are set.
func (e Env) keys() (aws.Credentials, bool) {
	id, secret := e.first("AWS_ACCESS_KEY_ID", "AWS_ACCESS_KEY"), e.first("AWS_SECRET_ACCESS_KEY", "AWS_SECRET_KEY")
	return aws.Credentials{AccessKeyID: id, SecretAccessKey: secret, SessionToken: e.get("AWS_SESSION_TOKEN"),
		Source: "environment"}, id != "" && secret != ""
}

// profileName is AWS_PROFILE, else AWS_DEFAULT_PROFILE, else "default".
func (e Env) profileName() string {
	if p := e.first("AWS_PROFILE", "AWS_DEFAULT_PROFILE"); p != "" {
		return p
	}
	return "default"
}

func (e Env) home() string {
	if e.Home != "" {
		return e.Home
	}
	return e.get("HOME")
}

// files reads the shared config file (AWS_CONFIG_FILE, else
// ~/.aws/config) and credentials file (AWS_SHARED_CREDENTIALS_FILE, else
// ~/.aws/credentials); a file that is missing is empty.
func (e Env) files() (config, creds sections, err error) {
	read := func(variable, name string) (sections, error) {
		path := e.get(variable)
		if path == "" {
			home := e.home()
			if home == "" {
				return sections{}, nil
			}
			path = filepath.Join(home, ".aws", name)
		}
		data, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			return sections{}, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read the AWS %s file: %w", name, err)
		}
		return parseINI(data), nil
	}
	if config, err = read("AWS_CONFIG_FILE", "config"); err != nil {
		return nil, nil, err
	}
	if creds, err = read("AWS_SHARED_CREDENTIALS_FILE", "credentials"); err != nil {
		return nil, nil, err
	}
	return config, creds, nil
}

// profile is one profile's settings, the credentials file's over the
// config file's.
type profile struct {
	name   string
	values map[string]string
}

func (p profile) get(key string) string { return p.values[key] }

// lookup returns the named profile: "[profile NAME]" (or "[default]") of
// the config file, then "[NAME]" of the credentials file over it.
func lookup(config, creds sections, name string) (profile, bool) {
	values := map[string]string{}
	found := false
	add := func(s map[string]string) {
		if s == nil {
			return
		}
		found = true
		for k, v := range s {
			values[k] = v
		}
	}
	if name == "default" {
		add(config["default"])
	}
	add(config["profile "+name])
	add(creds[name])
	return profile{name: name, values: values}, found
}

// Region is the region requests go to: AWS_REGION, else
// AWS_DEFAULT_REGION, else the profile's region setting; empty when none
// is set. A profile named by AWS_PROFILE that is in neither file is an
// error.
func Region(e Env) (string, error) {
	if r := e.first("AWS_REGION", "AWS_DEFAULT_REGION"); r != "" {
		return r, nil
	}
	config, creds, err := e.files()
	if err != nil {
		return "", err
	}
	name := e.profileName()
	p, found := lookup(config, creds, name)
	if !found && name != "default" {
		return "", fmt.Errorf("the AWS profile %q is in neither the config nor the credentials file: check AWS_PROFILE", name)
	}
	return p.get("region"), nil
}

// Credentials returns the provider of the chain's credentials, cached and
// renewed before they expire. What it needs from the network (STS, the
// container endpoint, instance metadata) or a process is asked only when
// the credentials are first retrieved; errors in the configuration itself
// (a profile that is not there, a role without a source) come back now.
// region is where STS is called for role assumption.
func Credentials(e Env, region string) (aws.CredentialsProvider, error) {
	p, err := chain(e, region)
	if err != nil {
		return nil, err
	}
	return aws.NewCredentialsCache(p), nil
}

// chain picks the first source that is configured, in the AWS SDKs'
// order: the environment's keys, a web identity token from the
// environment, then the profile.
func chain(e Env, region string) (aws.CredentialsProvider, error) {
	if c, ok := e.keys(); ok {
		return static(c), nil
	}
	if file := e.get("AWS_WEB_IDENTITY_TOKEN_FILE"); file != "" {
		role := e.get("AWS_ROLE_ARN")
		if role == "" {
			return nil, errors.New("AWS_WEB_IDENTITY_TOKEN_FILE is set but AWS_ROLE_ARN is not: set the role to assume")
		}
		return webIdentity(e, region, file, role, e.get("AWS_ROLE_SESSION_NAME")), nil
	}
	config, creds, err := e.files()
	if err != nil {
		return nil, err
	}
	name := e.profileName()
	p, found := lookup(config, creds, name)
	if !found && name != "default" {
		return nil, fmt.Errorf("the AWS profile %q is in neither the config nor the credentials file: check AWS_PROFILE", name)
	}
	return fromProfile(e, region, config, creds, p, map[string]bool{})
}

// fromProfile resolves one profile's credentials, following
// source_profile chains (a cycle is an error) and assuming role_arn on top
// of its source.
func fromProfile(e Env, region string, config, creds sections, p profile, visited map[string]bool) (aws.CredentialsProvider, error) {
	visited[p.name] = true
	role := p.get("role_arn")
	var base aws.CredentialsProvider
	switch {
	case role != "" && p.get("source_profile") != "" && p.get("source_profile") != p.name:
		src := p.get("source_profile")
		if visited[src] {
			return nil, fmt.Errorf("the AWS profile %q: source_profile %q leads back to itself", p.name, src)
		}
		sp, ok := lookup(config, creds, src)
		if !ok {
			return nil, fmt.Errorf("the AWS profile %q: its source_profile %q is in neither the config nor the credentials file", p.name, src)
		}
		var err error
		if base, err = fromProfile(e, region, config, creds, sp, visited); err != nil {
			return nil, err
		}
	case p.get("aws_access_key_id") != "" && p.get("aws_secret_access_key") != "":
		base = static(aws.Credentials{AccessKeyID: p.get("aws_access_key_id"), SecretAccessKey: p.get("aws_secret_access_key"),
			SessionToken: p.get("aws_session_token"), Source: "profile " + p.name})
	case p.get("credential_source") != "":
		var err error
		if base, err = fromSource(e, p); err != nil {
			return nil, err
		}
	case p.get("web_identity_token_file") != "":
		if role == "" {
			return nil, fmt.Errorf("the AWS profile %q has web_identity_token_file but no role_arn: set the role to assume", p.name)
		}
		return webIdentity(e, region, p.get("web_identity_token_file"), role, p.get("role_session_name")), nil
	case p.get("sso_session") != "" || p.get("sso_start_url") != "" || p.get("login_session") != "":
		return awsCLI(p.name), nil
	case p.get("credential_process") != "":
		base = processcreds.NewProvider(p.get("credential_process"))
	default:
		var err error
		if base, err = fromContainerOrInstance(e); err != nil {
			return nil, err
		}
	}
	if role == "" {
		return base, nil
	}
	if p.get("mfa_serial") != "" {
		// A role behind MFA needs a code typed in; the AWS CLI asks for
		// it and keeps the role's credentials in ~/.aws/cli/cache.
		return awsCLI(p.name), nil
	}
	return assumeRole(e, region, aws.NewCredentialsCache(base), role, p), nil
}

// fromSource is a role profile's credential_source.
func fromSource(e Env, p profile) (aws.CredentialsProvider, error) {
	switch src := p.get("credential_source"); src {
	case "Environment":
		c, ok := e.keys()
		if !ok {
			return nil, fmt.Errorf("the AWS profile %q takes its credentials from the environment, but AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not both set", p.name)
		}
		return static(c), nil
	case "Ec2InstanceMetadata":
		return ec2rolecreds.New(), nil
	case "EcsContainer":
		c, ok, err := container(e)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("the AWS profile %q takes its credentials from the container, but neither AWS_CONTAINER_CREDENTIALS_RELATIVE_URI nor AWS_CONTAINER_CREDENTIALS_FULL_URI is set", p.name)
		}
		return c, nil
	default:
		return nil, fmt.Errorf("the AWS profile %q: credential_source %q is not one of Environment, Ec2InstanceMetadata, EcsContainer", p.name, src)
	}
}

// fromContainerOrInstance is the end of the chain: the ECS or EKS
// container endpoint when its variables are set, else EC2's instance
// metadata (which AWS_EC2_METADATA_DISABLED=true turns off).
func fromContainerOrInstance(e Env) (aws.CredentialsProvider, error) {
	c, ok, err := container(e)
	if err != nil || ok {
		return c, err
	}
	if strings.EqualFold(e.get("AWS_EC2_METADATA_DISABLED"), "true") {
		return nil, errors.New("no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, " +
			"or AWS_BEARER_TOKEN_BEDROCK (instance metadata is off: AWS_EC2_METADATA_DISABLED)")
	}
	return ec2rolecreds.New(), nil
}

// ecsEndpoint is where AWS_CONTAINER_CREDENTIALS_RELATIVE_URI points.
const ecsEndpoint = "http://169.254.170.2"

// container is the ECS or EKS credentials endpoint, when one is set. A
// full URI over plain http must be on loopback or one of the container
// agents' link-local addresses, as the SDKs require.
func container(e Env) (aws.CredentialsProvider, bool, error) {
	endpoint := ""
	if rel := e.get("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"); rel != "" {
		endpoint = ecsEndpoint + rel
	} else if full := e.get("AWS_CONTAINER_CREDENTIALS_FULL_URI"); full != "" {
		u, err := url.Parse(full)
		if err != nil || u.Hostname() == "" {
			return nil, false, fmt.Errorf("AWS_CONTAINER_CREDENTIALS_FULL_URI %q is not a URL", full)
		}
		if u.Scheme == "http" && !allowedHTTPHost(u.Hostname()) {
			return nil, false, fmt.Errorf("AWS_CONTAINER_CREDENTIALS_FULL_URI %q: plain http is allowed only to loopback or the ECS and EKS container agents", full)
		}
		endpoint = full
	} else {
		return nil, false, nil
	}
	token, tokenFile := e.get("AWS_CONTAINER_AUTHORIZATION_TOKEN"), e.get("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE")
	p := endpointcreds.New(endpoint, func(o *endpointcreds.Options) {
		o.AuthorizationToken = token
		if tokenFile != "" {
			o.AuthorizationTokenProvider = endpointcreds.TokenProviderFunc(func() (string, error) {
				data, err := os.ReadFile(tokenFile)
				if err != nil {
					return "", fmt.Errorf("read the container authorization token: %w", err)
				}
				return strings.TrimSpace(string(data)), nil
			})
		}
	})
	return p, true, nil
}

// allowedHTTPHost is loopback, or ECS's 169.254.170.2, or EKS's
// 169.254.170.23 and fd00:ec2::23.
func allowedHTTPHost(host string) bool {
	check := func(ip net.IP) bool {
		return ip.IsLoopback() || ip.Equal(net.ParseIP("169.254.170.2")) || ip.Equal(net.ParseIP("169.254.170.23")) ||
			ip.Equal(net.ParseIP("fd00:ec2::23"))
	}
	if ip := net.ParseIP(host); ip != nil {
		return check(ip)
	}
	addrs, err := net.LookupHost(host)
	if err != nil || len(addrs) == 0 {
		return false
	}
	for _, a := range addrs {
		if ip := net.ParseIP(a); ip == nil || !check(ip) {
			return false
		}
	}
	return true
}

// awsCLI asks the AWS CLI for the profile's credentials, which resolves
// what the CLI signs in to (IAM Identity Center, aws login, MFA roles);
// the CLI's own complaint ends the error when it fails.
func awsCLI(profile string) aws.CredentialsProvider {
	var mu sync.Mutex
	var stderr *bytes.Buffer
	p := processcreds.NewProviderCommand(processcreds.NewCommandBuilderFunc(func(ctx context.Context) (*exec.Cmd, error) {
		cmd := exec.CommandContext(ctx, "aws", "configure", "export-credentials", "--format", "process", "--profile", profile)
		mu.Lock()
		stderr = &bytes.Buffer{}
		cmd.Stderr = stderr
		mu.Unlock()
		return cmd, nil
	}), func(o *processcreds.Options) { o.Timeout = 2 * time.Minute })
	return aws.CredentialsProviderFunc(func(ctx context.Context) (aws.Credentials, error) {
		c, err := p.Retrieve(ctx)
		if err == nil {
			return c, nil
		}
		mu.Lock()
		said := ""
		if stderr != nil {
			said = strings.TrimSpace(stderr.String())
		}
		mu.Unlock()
		if said != "" {
			err = fmt.Errorf("%w: %s", err, lastLine(said))
		}
		return c, fmt.Errorf("the AWS profile %q signs in through the AWS CLI (SSO, aws login or an MFA role): "+
			"sign in with `aws sso login --profile %s` (or `aws login`) and check that "+
			"`aws configure export-credentials --profile %s` prints credentials (AWS CLI v2.9 or later): %w", profile, profile, profile, err)
	})
}

// lastLine is the last line of s, at most 300 bytes of it.
func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

func static(c aws.Credentials) aws.CredentialsProvider {
	return aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) { return c, nil })
}
