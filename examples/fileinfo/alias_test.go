package fileinfo_test

import "github.com/agentcore/agentcore/examples/fileinfo"

type fileinfoOutput = fileinfo.FileInfoOutput
