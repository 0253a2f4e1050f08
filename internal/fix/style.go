package fix

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/yamlvalue"
)

// style is how the user writes the list an edit adds to, so that what is
// added reads like what is there.
type style struct {
	quote     byte // '"', '\'' or 0 (plain where YAML reads the text as a string)
	flowItems bool // items written {key: a, operator: Exists}
	inner     int  // columns from an item's "-" to its first key
	seqIndent int  // columns from a key to the "-" of its block list
	json      bool // write JSON: keys and strings double-quoted
}

// styleOf is the style of the list seq (nil for a list to create), in the
// object obj: the quoting its items' values use most (the object's, for a
// list to create), the shape of its first item, and how the object
// indents its block lists.
func styleOf(seq, obj *yaml.Node) style {
	st := style{inner: 2, seqIndent: seqIndentOf(obj)}
	counts := map[byte]int{}
	from := seq
	if seq == nil {
		from = obj // a list to create: quote as the object does
	}
	countQuotes(from, counts, 0)
	switch {
	case counts['"'] > counts[0] && counts['"'] >= counts['\'']:
		st.quote = '"'
	case counts['\''] > counts[0] && counts['\''] > counts['"']:
		st.quote = '\''
	}
	if seq == nil {
		return st
	}
	if len(seq.Content) > 0 {
		first := seq.Content[0]
		st.flowItems = first.Kind == yaml.MappingNode && first.Style&yaml.FlowStyle != 0
		if first.Kind == yaml.MappingNode && !st.flowItems && first.Line == seq.Line {
			st.inner = max(first.Column-seq.Column, 2)
		}
	}
	return st
}

// countQuotes counts the quoting of the string values of the mappings in
// n, by quote (0 for plain).
func countQuotes(n *yaml.Node, counts map[byte]int, depth int) {
	if depth > 64 {
		return
	}
	if n.Kind == yaml.MappingNode {
		for i := 1; i < len(n.Content); i += 2 {
			if v := n.Content[i]; v.Kind == yaml.ScalarNode && v.Tag == "!!str" {
				counts[quoteOf(v)]++
			}
		}
	}
	for _, c := range n.Content {
		countQuotes(c, counts, depth+1)
	}
}

// seqIndentOf is how far the object writes a block list's "-" to the
// right of its key: the first such list found, else 2.
func seqIndentOf(obj *yaml.Node) int {
	if d, ok := firstSeqIndent(obj, 0); ok && d >= 0 {
		return d
	}
	return 2
}

// firstSeqIndent is the indentation of the first block list under a key
// in n, depth first.
func firstSeqIndent(n *yaml.Node, depth int) (int, bool) {
	if depth > 64 {
		return 0, false
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Kind == yaml.SequenceNode && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0 && v.Line > k.Line {
				return v.Column - k.Column, true
			}
			if d, ok := firstSeqIndent(v, depth+1); ok {
				return d, true
			}
		}
	case yaml.SequenceNode:
		for _, item := range n.Content {
			if d, ok := firstSeqIndent(item, depth+1); ok {
				return d, true
			}
		}
	}
	return 0, false
}

func quoteOf(n *yaml.Node) byte {
	switch n.Style {
	case yaml.DoubleQuotedStyle:
		return '"'
	case yaml.SingleQuotedStyle:
		return '\''
	}
	return 0
}

// fieldOrder is the order the fields of an added mapping are written in:
// a toleration's as the API documents them, then the rest by name.
var fieldOrder = []string{"key", "operator", "value", "effect", "tolerationSeconds"}

func keysOf(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		ia, ib := slices.Index(fieldOrder, a), slices.Index(fieldOrder, b)
		switch {
		case ia >= 0 && ib >= 0:
			return ia - ib
		case ia >= 0:
			return -1
		case ib >= 0:
			return 1
		}
		return strings.Compare(a, b)
	})
	return keys
}

// blockItem is the lines of a block list item holding v, its "-" at
// indent.
func (st style) blockItem(v any, indent int) []string {
	pad := strings.Repeat(" ", indent)
	m, ok := v.(map[string]any)
	if !ok || st.flowItems || len(m) == 0 {
		return []string{pad + "- " + st.flow(v)}
	}
	var lines []string
	inner := strings.Repeat(" ", indent+st.inner)
	for i, k := range keysOf(m) {
		lead := inner
		if i == 0 {
			lead = pad + "-" + strings.Repeat(" ", st.inner-1)
		}
		lines = append(lines, lead+st.key(k)+": "+st.flow(m[k]))
	}
	return lines
}

// flow is v written in flow style: {key: a, operator: Exists}.
func (st style) flow(v any) string {
	switch v := v.(type) {
	case map[string]any:
		var parts []string
		for _, k := range keysOf(v) {
			parts = append(parts, st.key(k)+": "+st.flow(v[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = st.flow(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return st.scalar(v)
}

// key is a mapping key: plain where that reads as the string.
func (st style) key(k string) string { return style{json: st.json}.scalar(k) }

// scalar is v as a YAML scalar: a string in the list's quoting, plain only
// where YAML reads the text back as the same string.
func (st style) scalar(v any) string {
	switch v := v.(type) {
	case string:
		switch {
		case st.json:
			return jsonString(v)
		case st.quote != 0:
			return quoted(v, st.quote)
		case plainString(v):
			return v
		}
		return quoted(v, '"')
	case nil:
		return "null"
	case json.Number:
		return v.String()
	}
	return fmt.Sprint(v)
}

// safePlain are the strings that may be written plain: letters, digits
// and . _ / -, not starting with what a number or an indicator starts with.
var safePlain = regexp.MustCompile(`^[A-Za-z_/][A-Za-z0-9_./-]*$`)

// plainString is true when s, written plain, reads back as the string s,
// as dslint reads manifests (yamlvalue: yes and on are booleans there, as
// for kubectl).
func plainString(s string) bool {
	if !safePlain.MatchString(s) {
		return false
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(s), &doc); err != nil || len(doc.Content) != 1 {
		return false
	}
	v, err := yamlvalue.Plain(doc.Content[0])
	return err == nil && v == s
}

// quoted is s in quotes q (' or "): single-quoted doubles its quotes;
// double-quoted escapes as JSON does (valid YAML), and a text with a quote
// or backslash is single-quoted instead when that needs no escape.
func quoted(s string, q byte) string {
	if q == '"' && strings.ContainsAny(s, "\"\\") && !strings.ContainsAny(s, "'\n") {
		q = '\''
	}
	if q == '\'' && !strings.Contains(s, "\n") {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return jsonString(s)
}

// jsonString is s double-quoted as JSON writes it, which YAML reads too.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
