package jsonin

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Error is a decode or validation error at a parameter path. Generated
// decoders add path segments as the error travels up, innermost first.
type Error struct {
	// Msg says what is wrong, e.g. "expected integer, got string".
	Msg string
	// segs holds the path segments innermost first: ".name", "[3]" or
	// `["key"]`.
	segs []string
}

// Errorf returns an *Error with a formatted message and an empty path.
func Errorf(format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// Path returns the parameter path, e.g. `edits[1].old_string`; empty for
// the input object itself.
func (e *Error) Path() string {
	if len(e.segs) == 0 {
		return ""
	}
	var b strings.Builder
	for i := len(e.segs) - 1; i >= 0; i-- {
		s := e.segs[i]
		if i == len(e.segs)-1 {
			s = strings.TrimPrefix(s, ".")
		}
		b.WriteString(s)
	}
	return b.String()
}

// Error returns `parameter "path": msg`, or `input: msg` at the top level.
func (e *Error) Error() string {
	if p := e.Path(); p != "" {
		return "parameter " + strconv.Quote(p) + ": " + e.Msg
	}
	return "input: " + e.Msg
}

func withSeg(err error, seg string) error {
	var e *Error
	if errors.As(err, &e) {
		e.segs = append(e.segs, seg)
		return e
	}
	return err
}

// AtField adds the object member name to err's path.
func AtField(err error, name string) error { return withSeg(err, "."+name) }

// AtIndex adds the array index i to err's path.
func AtIndex(err error, i int) error { return withSeg(err, "["+strconv.Itoa(i)+"]") }

// AtKey adds the map key to err's path.
func AtKey(err error, key string) error { return withSeg(err, "["+strconv.Quote(key)+"]") }

// Missing is the error of an absent required member name.
func Missing(name string) error {
	return &Error{Msg: "required parameter is missing", segs: []string{"." + name}}
}

// Unknown is the error of an object member that is not a parameter; allowed
// lists the parameters the object takes.
func Unknown(key []byte, allowed string) error {
	msg := "unknown parameter"
	if allowed != "" {
		msg += "; allowed: " + allowed
	} else {
		msg += "; this object takes no parameters"
	}
	return &Error{Msg: msg, segs: []string{"." + string(key)}}
}

// NotOneOf is the error of a value outside its enum; allowed is the list
// to show, e.g. `"a", "b"`.
func NotOneOf(got any, allowed string) error {
	if s, ok := got.(string); ok {
		got = strconv.Quote(s)
	}
	return Errorf("must be one of %s (got %v)", allowed, got)
}

// TooSmall is the error of a number below its minimum.
func TooSmall(got, limit any) error { return Errorf("must be at least %v (got %v)", limit, got) }

// TooLarge is the error of a number above its maximum.
func TooLarge(got, limit any) error { return Errorf("must be at most %v (got %v)", limit, got) }

// TooShort is the error of a string shorter than minLength characters.
func TooShort(n, limit int) error {
	return Errorf("must be at least %d characters long (got %d)", limit, n)
}

// TooLong is the error of a string longer than maxLength characters.
func TooLong(n, limit int) error {
	return Errorf("must be at most %d characters long (got %d)", limit, n)
}

// TooFew is the error of an array with fewer than minItems elements.
func TooFew(n, limit int) error { return Errorf("must have at least %d items (got %d)", limit, n) }

// TooMany is the error of an array with more than maxItems elements.
func TooMany(n, limit int) error { return Errorf("must have at most %d items (got %d)", limit, n) }
