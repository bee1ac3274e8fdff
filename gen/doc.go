// Package gen is toolgen, agentcore's code generator, as a library. It turns
// the annotated tool structs of the tooldefs package into one
// runtime.Definition per tool, JSON schemas and one registry per build
// variant.
//
// # Pipeline
//
// The pipeline has a pure core; only Load (which runs the go command) and
// Write touch anything outside memory:
//
//	m, err := gen.Load(ctx, gen.LoadConfig{Dir: "tooldefs"})          // load, parse, validate, model, schemas
//	files, err := gen.Emit(m, gen.EmitConfig{Package: "generated"})  // path → bytes
//	changes, err := gen.Write("generated", files)                    // or gen.Diff for -check
//
// Load runs golang.org/x/tools/go/packages once per variant (external: no
// tag; internal: -tags internal; ant: -tags ant), because a gated tooldef
// only type-checks under its tags, and merges the tools it finds. Every
// package error is reported (load.go). It then parses the +tool markers
// of each marked type (parse.go: ParseMarkers, with the registry Markers
// of marker types in markerdefs.go), checks the build lines, names and
// tool types (check.go), and builds each tool (build.go): every marker
// type applies itself to the tool, the methods are checked against the
// signatures documented in tooldefs/doc.go (methods.go), and the input
// types become a decodable model from go/types and the json/jsonschema
// tags (input.go). All problems are collected and returned together as an
// ErrorList of file:line:col errors, for example:
//
//	tooldefs/read.go:12:6: type Read has +tool:name but no Call method; add: func (Read) Call(ctx context.Context, in *ReadInput, c *runtime.Call) (ReadOutput, error)
//
// For the schemas, Load writes a small program that imports the tooldefs
// package and reflects every input type with github.com/invopop/jsonschema
// (field doc comments fed in as its CommentMap), and runs it with go run
// once per distinct variant under that variant's tags. The program lives in
// a temporary directory outside the module and is overlaid (go run
// -overlay) onto a directory inside it, so nothing is ever written into the
// tree. The schemas are checked to be what the Anthropic API takes: an
// object schema, additionalProperties false, no $schema, $id, $ref or $defs.
//
// Emit writes, with github.com/dave/jennifer, one <tool>_tool.go per tool
// carrying the tooldef file's //go:build line, the schema embedded from
// schemas/<tool>.json (so a gated tool's schema is only in the binaries of
// its variants), and a <Tool>Tool function returning runtime.Define of one
// Definition literal: a Decode that parses and validates with the generated
// code and runtime/jsonin (no reflection), the markers as fields, the
// tooldef's methods as method values; what neither gives is left to the
// defaults of runtime.ToolDefaults. A compile-time guard lists the methods
// toolgen found, with their signatures, and another each input struct's
// fields, so a changed tooldef breaks the build until toolgen runs again.
// registry_<variant>.go holds each variant's AllBaseTools, sorted by name.
// Output is deterministic: everything is sorted, no map is ranged over.
//
// Emit also writes gating.json, the proof data of the build variants
// (Gating): each variant's tools, the tools it leaves out and the packages
// its binary must not contain, each with the reason; and for each tool its
// file, build line, variants, unique strings, schema file and symbols. Load
// computes it from one go/packages import graph per variant. The absence
// specs of cmd/agentcore read it, so a new gated tool is covered with no
// test edited.
//
// Write rewrites only the files that changed and removes the files toolgen
// owns (Go files with the generated header, schemas/*.json) that it no
// longer produces.
//
// # Tests
//
// gen/testdata/<case>/tooldefs is an input package; a case holds either
// error.txt (the expected errors) or generated/ (the expected output, which
// the tests also compile for each variant). UPDATE_GOLDEN=1 refreshes them.
package gen
