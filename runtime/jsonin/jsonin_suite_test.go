package jsonin_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestJSONIn(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "jsonin suite")
}
