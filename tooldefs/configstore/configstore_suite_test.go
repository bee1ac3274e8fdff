package configstore_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestConfigstore(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Configstore Suite")
}
