package shell_test

import (
	"strconv"
	"strings"
)

func firstLinePID(out string) int {
	line, _, _ := strings.Cut(out, "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		return -1
	}
	return pid
}
