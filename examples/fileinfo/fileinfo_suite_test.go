package fileinfo_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestFileInfo(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "FileInfo example Suite")
}
