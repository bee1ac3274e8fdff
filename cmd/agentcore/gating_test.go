package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcore/agentcore/gen"
)

const module = "github.com/agentcore/agentcore"

// generatedPkg is the package gating.json sits in, and its import path.
const (
	generatedDir = "../../generated"
	generatedPkg = module + "/generated"
)

// gating is generated/gating.json: what toolgen knows each variant leaves
// out. It is read when the spec tree is built, so every variant and every
// left-out tool gets its own specs, and a new gated tool is covered
// without anyone editing a test.
var gating = readGating()

func readGating() gen.Gating {
	path := filepath.Join(generatedDir, gen.GatingFile)
	data, err := os.ReadFile(path)
	if err != nil {
		panic(fmt.Sprintf("read %s: %v; run `make generate`", path, err))
	}
	var g gen.Gating
	if err := json.Unmarshal(data, &g); err != nil {
		panic(fmt.Sprintf("parse %s: %v; run `make generate`", path, err))
	}
	if len(g.Variants) == 0 {
		panic(path + " lists no variants; run `make generate`")
	}
	return g
}

// gatedTool returns the entry of the tool called name.
func gatedTool(name string) gen.GatingTool {
	for _, t := range gating.Tools {
		if t.Name == name {
			return t
		}
	}
	panic(fmt.Sprintf("%s: no tool %s; run `make generate`", gen.GatingFile, name))
}

// tagsOf is the -tags value of a variant, "" for the default build.
func tagsOf(v gen.GatingVariant) string { return strings.Join(v.Tags, ",") }
