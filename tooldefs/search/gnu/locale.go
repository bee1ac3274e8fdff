package gnu

import (
	"errors"
	"strings"
	"syscall"
)

// utf8Locale reports whether the environment selects a UTF-8 character
// set, as setlocale(LC_ALL, "") reads it: LC_ALL, else LC_CTYPE, else LANG.
// It assumes the named locale is installed (glibc falls back to C when it
// is not; C.UTF-8 is built in).
func utf8Locale(getenv func(string) string) bool {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := getenv(k); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}

// errnoText is strerror(3)'s text for err as glibc words it ("No such
// file or directory"): Go's errno strings are glibc's, lower-cased.
func errnoText(err error) string {
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

// quoter quotes a file name in messages the way gnulib's quote() does:
// ‘name’ in a UTF-8 locale, 'name' otherwise.
type quoter bool

func (q quoter) quote(s string) string {
	if q {
		return "‘" + s + "’"
	}
	return "'" + s + "'"
}
