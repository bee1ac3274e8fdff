package filetool_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestFiletool(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "filetool")
}
