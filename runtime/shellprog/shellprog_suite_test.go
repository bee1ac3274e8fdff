package shellprog_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestShellprog(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Shellprog Suite")
}
