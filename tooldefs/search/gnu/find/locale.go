package find

import (
	"errors"
	"syscall"

	"github.com/agentcore/agentcore/tooldefs/search/gnu/internal/lite"
)

// UTF8Locale reports whether the environment selects a UTF-8 character
// set, as setlocale(LC_ALL, "") reads it: LC_ALL, else LC_CTYPE, else LANG.
// It assumes the named locale is installed (glibc falls back to C when it
// is not; C.UTF-8 is built in).
func UTF8Locale(getenv func(string) string) bool {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := getenv(k); v != "" {
			v = lite.ToLower(v)
			return lite.Contains(v, "utf-8") || lite.Contains(v, "utf8")
		}
	}
	return false
}

// ErrnoText is strerror(3)'s text for err as glibc words it ("No such
// file or directory"): Go's errno strings are glibc's, lower-cased.
func ErrnoText(err error) string {
	var en syscall.Errno
	if errors.As(err, &en) {
		s := en.Error()
		if s != "" && s[0] >= 'a' && s[0] <= 'z' {
			s = string(s[0]-'a'+'A') + s[1:]
		}
		return s
	}
	return err.Error()
}

// Quoter quotes a file name in messages the way gnulib's quote() does:
// ‘name’ in a UTF-8 locale, 'name' otherwise.
type Quoter bool

// Quote is s quoted: true (a UTF-8 locale) quotes it ‘so’, false 'so'.
func (q Quoter) Quote(s string) string {
	if q {
		return "‘" + s + "’"
	}
	return "'" + s + "'"
}
