package fspath_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestFspath(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "fspath")
}
