package jsonin

import (
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// maxDepth bounds the nesting Skip, Raw and Any follow, as encoding/json does.
const maxDepth = 10000

// Kind is the kind of the next JSON value.
type Kind int

// The kinds of JSON values; Invalid is the end of input or a byte no value
// starts with.
const (
	Invalid Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"invalid JSON", "null", "boolean", "number", "string", "array", "object"}

// String returns the JSON Schema name of the kind ("string", "object"…).
func (k Kind) String() string { return kindNames[k] }

// Decoder reads one JSON document. The zero value reads an empty input;
// Reset points it at data. A Decoder is not safe for concurrent use.
//
// Objects and arrays are read by calling OpenObject (or OpenArray) and then
// NextKey (or NextElem) until it reports no more members, reading each
// member's value in between.
type Decoder struct {
	data    []byte
	pos     int
	first   bool
	scratch []byte
}

// NewDecoder returns a decoder reading data.
func NewDecoder(data []byte) *Decoder { return &Decoder{data: data} }

// Reset makes d read data from its start.
func (d *Decoder) Reset(data []byte) {
	d.data, d.pos, d.first = data, 0, false
}

// Offset returns the byte offset of the next unread byte.
func (d *Decoder) Offset() int { return d.pos }

func (d *Decoder) skipWS() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// Kind returns the kind of the next value without consuming it.
func (d *Decoder) Kind() Kind {
	d.skipWS()
	if d.pos >= len(d.data) {
		return Invalid
	}
	switch c := d.data[d.pos]; c {
	case '"':
		return String
	case '{':
		return Object
	case '[':
		return Array
	case 't', 'f':
		return Bool
	case 'n':
		return Null
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return Number
		}
		return Invalid
	}
}

func (d *Decoder) syntaxErr(what string) *Error {
	if d.pos >= len(d.data) {
		return Errorf("invalid JSON: unexpected end of input")
	}
	return Errorf("invalid JSON at offset %d: %s %s", d.pos, what, quoteByte(d.data[d.pos]))
}

func quoteByte(c byte) string {
	if c < 0x20 || c >= 0x7f {
		return "byte 0x" + strconv.FormatUint(uint64(c), 16)
	}
	return strconv.QuoteRune(rune(c))
}

// typeErr is the error of a value of the wrong kind; a syntactically
// invalid value is reported as such.
func (d *Decoder) typeErr(want string) *Error {
	k := d.Kind()
	switch {
	case k == Invalid:
		return d.syntaxErr("unexpected")
	case (k == Bool || k == Null) && !d.literal():
		return d.syntaxErr("invalid literal starting with")
	}
	return Errorf("expected %s, got %s", want, k)
}

// literal reports whether true, false or null starts at d.pos.
func (d *Decoder) literal() bool {
	rest := d.data[d.pos:]
	for _, lit := range []string{"true", "false", "null"} {
		if len(rest) >= len(lit) && string(rest[:len(lit)]) == lit {
			return true
		}
	}
	return false
}

// End reports an error unless only whitespace is left.
func (d *Decoder) End() error {
	d.skipWS()
	if d.pos != len(d.data) {
		return d.syntaxErr("unexpected data after the input object:")
	}
	return nil
}

// Decode reads data, one JSON object and nothing after it, into a new T
// with decode (a generated struct decoder): a tool's whole Decode.
func Decode[T any](data []byte, decode func(*Decoder, *T) error) (*T, error) {
	v := new(T)
	var d Decoder
	d.Reset(data)
	if err := decode(&d, v); err != nil {
		return nil, err
	}
	if err := d.End(); err != nil {
		return nil, err
	}
	return v, nil
}

// OpenObject consumes the '{' of an object; then call NextKey.
func (d *Decoder) OpenObject() error {
	d.skipWS()
	if d.pos >= len(d.data) || d.data[d.pos] != '{' {
		return d.typeErr("object")
	}
	d.pos++
	d.first = true
	return nil
}

// NextKey reads the next member name and its ':' and reports true, or
// consumes the closing '}' and reports false. The key is valid until the
// next call on d.
func (d *Decoder) NextKey() (key []byte, more bool, err error) {
	first := d.first
	d.first = false
	d.skipWS()
	if d.pos >= len(d.data) {
		return nil, false, d.syntaxErr("")
	}
	switch c := d.data[d.pos]; {
	case c == '}':
		d.pos++
		return nil, false, nil
	case !first && c == ',':
		d.pos++
		d.skipWS()
	case !first:
		return nil, false, d.syntaxErr("expected ',' or '}', found")
	}
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return nil, false, d.syntaxErr("expected a member name, found")
	}
	key, err = d.str()
	if err != nil {
		return nil, false, err
	}
	d.skipWS()
	if d.pos >= len(d.data) || d.data[d.pos] != ':' {
		return nil, false, d.syntaxErr("expected ':' after the member name, found")
	}
	d.pos++
	return key, true, nil
}

// OpenArray consumes the '[' of an array; then call NextElem.
func (d *Decoder) OpenArray() error {
	d.skipWS()
	if d.pos >= len(d.data) || d.data[d.pos] != '[' {
		return d.typeErr("array")
	}
	d.pos++
	d.first = true
	return nil
}

// NextElem reports true when another element follows (read it next), or
// consumes the closing ']' and reports false.
func (d *Decoder) NextElem() (bool, error) {
	first := d.first
	d.first = false
	d.skipWS()
	if d.pos >= len(d.data) {
		return false, d.syntaxErr("")
	}
	switch c := d.data[d.pos]; {
	case c == ']':
		d.pos++
		return false, nil
	case first:
		return true, nil
	case c == ',':
		d.pos++
		return true, nil
	default:
		return false, d.syntaxErr("expected ',' or ']', found")
	}
}

// Null consumes a null and reports true, or reports false and consumes
// nothing.
func (d *Decoder) Null() bool {
	d.skipWS()
	if d.pos+4 <= len(d.data) && string(d.data[d.pos:d.pos+4]) == "null" {
		d.pos += 4
		return true
	}
	return false
}

// Bool reads true or false.
func (d *Decoder) Bool() (bool, error) {
	d.skipWS()
	if d.pos+4 <= len(d.data) && string(d.data[d.pos:d.pos+4]) == "true" {
		d.pos += 4
		return true, nil
	}
	if d.pos+5 <= len(d.data) && string(d.data[d.pos:d.pos+5]) == "false" {
		d.pos += 5
		return false, nil
	}
	return false, d.typeErr("boolean")
}

// String reads a string, decoding escapes; invalid UTF-8 and lone
// surrogates become U+FFFD, as with encoding/json.
func (d *Decoder) String() (string, error) {
	d.skipWS()
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return "", d.typeErr("string")
	}
	start := d.pos + 1
	for i := start; i < len(d.data); i++ {
		c := d.data[i]
		if c == '"' {
			d.pos = i + 1
			return string(d.data[start:i]), nil
		}
		if c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
	}
	b, err := d.str()
	return string(b), err
}

// str reads the string at d.pos (its opening quote) and returns its
// decoded bytes: a sub-slice of the input when there is nothing to decode,
// else d.scratch.
func (d *Decoder) str() ([]byte, error) {
	start := d.pos + 1
	i := start
	for ; i < len(d.data); i++ {
		c := d.data[i]
		if c == '"' {
			d.pos = i + 1
			return d.data[start:i], nil
		}
		if c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
	}
	buf := append(d.scratch[:0], d.data[start:i]...)
	for i < len(d.data) {
		c := d.data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			d.scratch = buf
			return buf, nil
		case c < 0x20:
			d.pos = i
			return nil, d.syntaxErr("control character in string:")
		case c == '\\':
			if i+1 >= len(d.data) {
				d.pos = len(d.data)
				return nil, d.syntaxErr("")
			}
			e := d.data[i+1]
			i += 2
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := hex4(d.data, i)
				if !ok {
					d.pos = i
					return nil, d.syntaxErr("invalid \\u escape at")
				}
				i += 4
				if utf16.IsSurrogate(r) {
					r2, ok := rune(-1), false
					if i+6 <= len(d.data) && d.data[i] == '\\' && d.data[i+1] == 'u' {
						r2, ok = hex4(d.data, i+2)
					}
					if dec := utf16.DecodeRune(r, r2); ok && dec != utf8.RuneError {
						r = dec
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				buf = utf8.AppendRune(buf, r)
			default:
				d.pos = i - 1
				return nil, d.syntaxErr("invalid escape")
			}
		case c < 0x80:
			buf = append(buf, c)
			i++
		default:
			r, size := utf8.DecodeRune(d.data[i:])
			if r == utf8.RuneError && size == 1 {
				buf = utf8.AppendRune(buf, utf8.RuneError)
			} else {
				buf = append(buf, d.data[i:i+size]...)
			}
			i += size
		}
	}
	d.pos = len(d.data)
	d.scratch = buf
	return nil, d.syntaxErr("")
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// number scans a number token per the JSON grammar. simple is true when it
// is an optional '-' and digits only.
func (d *Decoder) number(want string) (tok []byte, simple bool, err error) {
	d.skipWS()
	start, i := d.pos, d.pos
	n := len(d.data)
	if i < n && d.data[i] == '-' {
		i++
	}
	if i >= n || d.data[i] < '0' || d.data[i] > '9' {
		if i == start {
			return nil, false, d.typeErr(want)
		}
		d.pos = i
		return nil, false, d.syntaxErr("invalid number: expected a digit, found")
	}
	if d.data[i] == '0' {
		i++
	} else {
		for i < n && d.data[i] >= '0' && d.data[i] <= '9' {
			i++
		}
	}
	simple = true
	if i < n && d.data[i] == '.' {
		simple = false
		i++
		j := i
		for i < n && d.data[i] >= '0' && d.data[i] <= '9' {
			i++
		}
		if i == j {
			d.pos = i
			return nil, false, d.syntaxErr("invalid number: expected a digit after '.', found")
		}
	}
	if i < n && (d.data[i] == 'e' || d.data[i] == 'E') {
		simple = false
		i++
		if i < n && (d.data[i] == '+' || d.data[i] == '-') {
			i++
		}
		j := i
		for i < n && d.data[i] >= '0' && d.data[i] <= '9' {
			i++
		}
		if i == j {
			d.pos = i
			return nil, false, d.syntaxErr("invalid number: expected an exponent digit, found")
		}
	}
	d.pos = i
	return d.data[start:i], simple, nil
}

// unsafeString views b as a string for a call that does not keep it.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Int reads an integer that fits a signed integer of the given bit size.
// A number with a fraction or exponent is accepted when its value is
// whole (JSON Schema counts 1.0 as an integer).
func (d *Decoder) Int(bits int) (int64, error) {
	tok, simple, err := d.number("integer")
	if err != nil {
		return 0, err
	}
	lo, hi := int64(-1)<<(bits-1), int64(1)<<(bits-1)-1
	if simple {
		neg := tok[0] == '-'
		digits := tok
		if neg {
			digits = tok[1:]
		}
		var u uint64
		ok := len(digits) <= 19
		for _, c := range digits {
			u = u*10 + uint64(c-'0')
		}
		if ok {
			if neg && u <= uint64(-lo) {
				return -int64(u), nil
			}
			if !neg && u <= uint64(hi) {
				return int64(u), nil
			}
		}
		return 0, Errorf("must be an integer from %d to %d (got %s)", lo, hi, tok)
	}
	f, ferr := strconv.ParseFloat(unsafeString(tok), 64)
	if ferr == nil && f != math.Trunc(f) {
		return 0, Errorf("expected integer, got %s", string(tok))
	}
	if ferr != nil || f < float64(lo) || f >= -float64(lo) {
		return 0, Errorf("must be an integer from %d to %d (got %s)", lo, hi, tok)
	}
	return int64(f), nil
}

// Uint reads a non-negative integer that fits an unsigned integer of the
// given bit size; whole numbers with a fraction or exponent are accepted.
func (d *Decoder) Uint(bits int) (uint64, error) {
	tok, simple, err := d.number("integer")
	if err != nil {
		return 0, err
	}
	hi := uint64(math.MaxUint64) >> (64 - bits)
	if simple && tok[0] != '-' {
		var u uint64
		ok := true
		for _, c := range tok {
			v := uint64(c - '0')
			if u > (math.MaxUint64-v)/10 {
				ok = false
				break
			}
			u = u*10 + v
		}
		if ok && u <= hi {
			return u, nil
		}
		return 0, Errorf("must be an integer from 0 to %d (got %s)", hi, tok)
	}
	f, ferr := strconv.ParseFloat(unsafeString(tok), 64)
	if ferr == nil && f != math.Trunc(f) {
		return 0, Errorf("expected integer, got %s", string(tok))
	}
	if f == 0 && ferr == nil {
		return 0, nil
	}
	if ferr != nil || f < 0 || f >= float64(hi)+1 {
		return 0, Errorf("must be an integer from 0 to %d (got %s)", hi, tok)
	}
	return uint64(f), nil
}

// Float reads a number that fits a float of the given bit size (32 or 64).
func (d *Decoder) Float(bits int) (float64, error) {
	tok, _, err := d.number("number")
	if err != nil {
		return 0, err
	}
	f, ferr := strconv.ParseFloat(unsafeString(tok), bits)
	if ferr != nil {
		return 0, Errorf("number %s is out of range for a %d-bit float", tok, bits)
	}
	return f, nil
}

// Skip consumes the next value, checking its syntax.
func (d *Decoder) Skip() error {
	return d.skip(0)
}

func (d *Decoder) skip(depth int) error {
	if depth > maxDepth {
		return d.syntaxErr("nesting too deep at")
	}
	switch d.Kind() {
	case Null:
		if !d.Null() {
			return d.syntaxErr("invalid literal starting with")
		}
		return nil
	case Bool:
		_, err := d.Bool()
		if err != nil {
			return d.syntaxErr("invalid literal starting with")
		}
		return nil
	case Number:
		_, _, err := d.number("number")
		return err
	case String:
		_, err := d.str()
		return err
	case Array:
		if err := d.OpenArray(); err != nil {
			return err
		}
		for {
			more, err := d.NextElem()
			if err != nil || !more {
				return err
			}
			if err := d.skip(depth + 1); err != nil {
				return err
			}
		}
	case Object:
		if err := d.OpenObject(); err != nil {
			return err
		}
		for {
			_, more, err := d.NextKey()
			if err != nil || !more {
				return err
			}
			if err := d.skip(depth + 1); err != nil {
				return err
			}
		}
	default:
		return d.syntaxErr("unexpected")
	}
}

// Raw consumes the next value and returns a copy of its bytes.
func (d *Decoder) Raw() ([]byte, error) {
	d.skipWS()
	start := d.pos
	if err := d.skip(0); err != nil {
		return nil, err
	}
	return append([]byte(nil), d.data[start:d.pos]...), nil
}

// Any reads the next value as encoding/json would into an any:
// map[string]any, []any, string, float64, bool or nil.
func (d *Decoder) Any() (any, error) {
	return d.anyValue(0)
}

func (d *Decoder) anyValue(depth int) (any, error) {
	if depth > maxDepth {
		return nil, d.syntaxErr("nesting too deep at")
	}
	switch d.Kind() {
	case Null:
		if !d.Null() {
			return nil, d.syntaxErr("invalid literal starting with")
		}
		return nil, nil
	case Bool:
		b, err := d.Bool()
		if err != nil {
			return nil, d.syntaxErr("invalid literal starting with")
		}
		return b, nil
	case Number:
		return d.Float(64)
	case String:
		return d.String()
	case Array:
		if err := d.OpenArray(); err != nil {
			return nil, err
		}
		out := []any{}
		for {
			more, err := d.NextElem()
			if err != nil {
				return nil, err
			}
			if !more {
				return out, nil
			}
			v, err := d.anyValue(depth + 1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
	case Object:
		if err := d.OpenObject(); err != nil {
			return nil, err
		}
		out := map[string]any{}
		for {
			k, more, err := d.NextKey()
			if err != nil {
				return nil, err
			}
			if !more {
				return out, nil
			}
			key := string(k)
			v, err := d.anyValue(depth + 1)
			if err != nil {
				return nil, err
			}
			out[key] = v
		}
	default:
		return nil, d.syntaxErr("unexpected")
	}
}
