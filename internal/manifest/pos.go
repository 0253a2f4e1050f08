package manifest

import "strconv"

// Pos is a place in an input: the file as reports name it, and a 1-based
// line and column. Every position dslint passes around is one: where the
// parser stopped, where a field is written (Locate), where a node of the
// inventory or a setting of the config is. A zero Line or Column is not
// known, and String leaves it out; a Pos that Locate finds in a node has no
// File, which the caller knows.
type Pos struct {
	File         string
	Line, Column int
	// Approximate marks a position that is not the field's own: in a Helm
	// template, the nearest parent or the document's start, where the
	// field itself came from a value or an include.
	Approximate bool
	// Value, on an approximate position in a Helm template, is the chart
	// value the field came from and where it is set, when that is known.
	Value *ValueRef
}

// ValueRef is a Helm chart value (".Values.tolerations") and where it is
// set: the last values file that sets it, else the chart's values.yaml; no
// File when only --set and its kin set it.
type ValueRef struct {
	Ref string
	Pos
}

// String is FILE:LINE:COLUMN, without the parts that are not known.
func (p Pos) String() string {
	s := p.File
	if p.Line > 0 {
		if s != "" {
			s += ":"
		}
		s += strconv.Itoa(p.Line)
		if p.Column > 0 {
			s += ":" + strconv.Itoa(p.Column)
		}
	}
	return s
}

// Error is a problem at a position: a syntax error of an input, a document
// beyond one of dslint's limits, an invalid setting of the config, a node
// of the inventory that the API server would refuse. It reads
// FILE:LINE:COLUMN: message.
type Error struct {
	Pos
	Message string
	// Limit marks a document refused for one of dslint's limits (size,
	// depth, aliases: limits.go) rather than for its syntax; Message says
	// which, whole.
	Limit bool
}

func (e *Error) Error() string {
	if at := e.Pos.String(); at != "" {
		return at + ": " + e.Message
	}
	return e.Message
}
