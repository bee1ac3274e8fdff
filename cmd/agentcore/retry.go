package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentcore/agentcore/runtime/agent"
)

// The environment variables of the model requests' retry policy (the
// settings' env sets them too). Claude Code's CLAUDE_CODE_MAX_RETRIES is
// read when AGENTCORE_MAX_RETRIES is not set.
const (
	envMaxRetries     = "AGENTCORE_MAX_RETRIES"
	envMaxRetriesCC   = "CLAUDE_CODE_MAX_RETRIES"
	envRetryBaseDelay = "AGENTCORE_RETRY_BASE_DELAY_MS"
	envRetryMaxDelay  = "AGENTCORE_RETRY_MAX_DELAY_MS"
	envRetryMaxWait   = "AGENTCORE_RETRY_MAX_WAIT_MS"
)

// retryPolicy reads the retry policy from getenv: unset variables keep
// agent's defaults (Claude Code's: 10 retries, 0.5 s doubling up to 32 s);
// AGENTCORE_MAX_RETRIES=0 turns retries off, AGENTCORE_RETRY_MAX_WAIT_MS=0
// lifts the cap on their total time. A value that is not a whole number
// is an error naming the variable.
func retryPolicy(getenv func(string) string) (agent.RetryPolicy, error) {
	var p agent.RetryPolicy
	name := envMaxRetries
	v := strings.TrimSpace(getenv(name))
	if v == "" {
		name, v = envMaxRetriesCC, strings.TrimSpace(getenv(envMaxRetriesCC))
	}
	if v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return p, fmt.Errorf("%s=%q: want a whole number of retries ≥ 0 (0 turns retries off), e.g. %s=10", name, v, name)
		}
		p.MaxRetries = n
		if n == 0 {
			p.MaxRetries = -1
		}
	}
	for _, d := range []struct {
		name string
		to   *time.Duration
		zero time.Duration // what 0 means
		min  int
	}{
		{envRetryBaseDelay, &p.BaseDelay, 0, 1},
		{envRetryMaxDelay, &p.MaxDelay, 0, 1},
		{envRetryMaxWait, &p.MaxTotal, -1, 0},
	} {
		v := strings.TrimSpace(getenv(d.name))
		if v == "" {
			continue
		}
		ms, err := strconv.Atoi(v)
		if err != nil || ms < d.min {
			return p, fmt.Errorf("%s=%q: want a whole number of milliseconds ≥ %d, e.g. %s=500", d.name, v, d.min, d.name)
		}
		*d.to = time.Duration(ms) * time.Millisecond
		if ms == 0 {
			*d.to = d.zero
		}
	}
	return p, nil
}
