package sdkproto_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestSdkproto(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "sdkproto Suite")
}
