//go:build external && (internal || ant)

package features

// The external variant is the public build; it cannot also carry the
// internal-only tools. Build with exactly one of: no tag (external),
// -tags internal, or -tags ant.
const _ = BUILD_ERROR_the_external_tag_cannot_be_combined_with_internal_or_ant_choose_one_variant
