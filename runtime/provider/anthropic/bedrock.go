package anthropic

import (
	"context"
	"errors"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/bedrock"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/aws/aws-sdk-go-v2/config"

	"github.com/agentcore/agentcore/runtime/provider"
)

// bedrockHints is the advice for Amazon Bedrock's failures.
var bedrockHints = provider.Hints{
	Auth: "check the AWS credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or AWS_BEARER_TOKEN_BEDROCK) " +
		"and that the model is enabled for the account in AWS_REGION",
	NotFound:   "check the model ID (e.g. us.anthropic.claude-sonnet-4-5-20250929-v1:0) and AWS_REGION",
	Connection: "check AWS_REGION and ANTHROPIC_BEDROCK_BASE_URL",
}

// NewBedrock returns a provider for the Messages API on Amazon Bedrock,
// through the SDK's bedrock package. The AWS configuration is the
// default one: region from AWS_REGION (or the profile), credentials from
// the environment, AWS_PROFILE or the shared files, or a bearer token from
// AWS_BEARER_TOKEN_BEDROCK; ANTHROPIC_BEDROCK_BASE_URL replaces the
// endpoint (the AWS and Anthropic SDKs read these themselves). o.Model is
// a Bedrock model ID and required (agentcore: bedrock:MODEL, else
// ANTHROPIC_MODEL); o's credential fields do not apply.
func NewBedrock(ctx context.Context, o Options) (*Provider, error) {
	model := o.Model
	if model == "" {
		return nil, errors.New("bedrock: no model: give a Bedrock model ID, e.g. us.anthropic.claude-sonnet-4-5-20250929-v1:0")
	}
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, fmt.Errorf("bedrock: load the AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		return nil, errors.New("bedrock: no AWS region: set AWS_REGION, e.g. AWS_REGION=us-east-1")
	}
	var opts []option.RequestOption
	if o.UserAgent != "" {
		opts = append(opts, option.WithHeader("User-Agent", o.UserAgent))
	}
	// The Bedrock adaptation signs the request: it comes after anything
	// that changes it, and before the caller's options (which may move
	// the base URL).
	opts = append(opts, bedrock.WithConfig(cfg), option.WithMaxRetries(0))
	opts = append(opts, o.RequestOptions...)
	return &Provider{client: anthropic.NewClient(opts...), model: model, platform: "bedrock", hints: bedrockHints,
		http: provider.NewHTTPClients("bedrock", o.Timeouts, bedrockHints)}, nil
}
