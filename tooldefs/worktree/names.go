package worktree

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"
)

// MaxName is the longest worktree name.
const MaxName = 64

// ValidName checks a worktree name the model gave: 1 to MaxName letters,
// digits, dots, underscores and dashes, starting with a letter or digit,
// and a valid branch name once BranchPrefix is put before it.
func ValidName(name string) error {
	bad := func(why string) error {
		return fmt.Errorf("invalid worktree name %q: %s; use 1-%d letters, digits, dots, underscores and dashes, starting with a letter or digit, or leave name out for a generated one", name, why, MaxName)
	}
	if name == "" || len(name) > MaxName {
		return bad(fmt.Sprintf("it has %d characters", len(name)))
	}
	for i, r := range name {
		alnum := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if i == 0 && !alnum {
			return bad("it must start with a letter or digit")
		}
		if !alnum && r != '.' && r != '_' && r != '-' {
			return bad(fmt.Sprintf("%q is not allowed", r))
		}
	}
	switch {
	case strings.Contains(name, ".."):
		return bad(`".." is not allowed`)
	case strings.HasSuffix(name, "."), strings.HasSuffix(name, ".lock"):
		return bad(`it cannot end in "." or ".lock"`)
	}
	return nil
}

var (
	adjectives = []string{"amber", "brave", "calm", "clever", "eager", "gentle", "happy", "keen", "lively", "merry", "nimble", "quiet", "rapid", "steady", "swift", "witty"}
	nouns      = []string{"badger", "falcon", "heron", "lynx", "marten", "otter", "owl", "panda", "puffin", "raven", "robin", "seal", "sparrow", "tiger", "wolf", "wren"}
)

// RandomName returns a new worktree name, adjective-noun-xxxx
// ("brave-otter-3f2a").
func RandomName() string {
	pick := func(words []string) string {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(words))))
		if err != nil {
			return words[0]
		}
		return words[n.Int64()]
	}
	var b [2]byte
	_, _ = rand.Read(b[:])
	return pick(adjectives) + "-" + pick(nouns) + "-" + hex.EncodeToString(b[:])
}

// idPart keeps the letters, digits, dashes and underscores of a tool_use
// id, at most 40 of them (the end, where ids differ); a random part when
// none is left.
func idPart(id string) string {
	var b strings.Builder
	for _, r := range id {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			b.WriteRune(r)
		}
	}
	s := b.String()
	if len(s) > 40 {
		s = s[len(s)-40:]
	}
	if s == "" {
		var r [4]byte
		_, _ = rand.Read(r[:])
		s = hex.EncodeToString(r[:])
	}
	return s
}

// Short abbreviates a commit id to 12 hex digits.
func Short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
