package tooldefs_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestTooldefs(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "tooldefs")
}
