package filetool

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"
)

// Hash returns the hex SHA-256 of data, the form runtime.FileState.Hash
// records.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// HashFile returns the hex SHA-256 of the file's content.
func HashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sniffLen is how much of a file IsBinary looks at.
const sniffLen = 8000

// IsBinary reports whether data looks like a binary file: a NUL byte in its
// first 8000 bytes, or mostly bytes that are neither valid UTF-8 nor
// printable control characters.
func IsBinary(data []byte) bool {
	if len(data) > sniffLen {
		data = data[:sniffLen]
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return true
	}
	bad := 0
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			if len(data)-i < utf8.UTFMax && !utf8.FullRune(data[i:]) {
				break // a rune cut by the sniff window
			}
			bad++
		} else if r < 0x20 && r != '\n' && r != '\r' && r != '\t' && r != '\f' && r != '\b' && r != 0x1b {
			bad++
		}
		i += n
	}
	return bad > 0 && bad*10 > len(data)
}

// binaryExts are extensions of files that are binary whatever their first
// bytes say.
// Built at first use, not before main.
var binaryExts = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		".exe": true, ".dll": true, ".so": true, ".dylib": true, ".a": true, ".o": true, ".obj": true,
		".class": true, ".jar": true, ".war": true, ".pyc": true, ".pyo": true, ".wasm": true,
		".zip": true, ".gz": true, ".tgz": true, ".bz2": true, ".xz": true, ".zst": true, ".7z": true,
		".rar": true, ".tar": true, ".iso": true, ".dmg": true, ".deb": true, ".rpm": true,
		".pdf": true, ".doc": true, ".docx": true, ".xls": true, ".xlsx": true, ".ppt": true, ".pptx": true,
		".odt": true, ".ods": true, ".bmp": true, ".ico": true, ".tif": true, ".tiff": true, ".psd": true,
		".mp3": true, ".mp4": true, ".wav": true, ".flac": true, ".ogg": true, ".avi": true, ".mov": true,
		".mkv": true, ".webm": true, ".ttf": true, ".otf": true, ".woff": true, ".woff2": true,
		".sqlite": true, ".db": true, ".bin": true,
	}
})

// IsBinaryExt reports whether the file name has an extension of a binary
// format (archives, executables, media, office documents, PDF…).
func IsBinaryExt(name string) bool {
	return binaryExts()[strings.ToLower(filepath.Ext(name))]
}
