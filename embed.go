// Package dslint embeds the Rego framework (rego/) and the built-in rules
// (rules/) so the binary carries them; internal/engine compiles them.
package dslint

import "embed"

// Policies holds rego/*.rego and rules/*.rego, tests included.
//
//go:embed rego/*.rego rules/*.rego
var Policies embed.FS
