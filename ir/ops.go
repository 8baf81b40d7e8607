package ir

import (
	"fmt"
	"strings"
)

// Op is a condition operator: an index into the operator table.
type Op int

const (
	RegexMatch Op = iota + 1
	NotRegexMatch
	Contains
	NotContains
	Equals
	StartsWith
	EndsWith
)

// TestKind is the test an operator applies to a value before negation.
// Each backend implements each kind once; an operator is a kind, a
// negation, and words.
type TestKind int

const (
	// TestRegex: the value matches the pattern as a Python regex, ignoring
	// case, anywhere (re.search with IGNORECASE).
	TestRegex TestKind = iota + 1
	// TestContains: the value contains the pattern (plain text, case-sensitive).
	TestContains
	// TestEquals: the value is the pattern.
	TestEquals
	// TestPrefix: the value starts with the pattern.
	TestPrefix
	// TestSuffix: the value ends with the pattern.
	TestSuffix
)

// Holds applies a plain-text kind to value and pattern. It panics for
// TestRegex, whose pattern needs a regex engine (package eval has it).
func (k TestKind) Holds(value, pattern string) bool {
	switch k {
	case TestContains:
		return strings.Contains(value, pattern)
	case TestEquals:
		return value == pattern
	case TestPrefix:
		return strings.HasPrefix(value, pattern)
	case TestSuffix:
		return strings.HasSuffix(value, pattern)
	}
	panic("ir: Holds on a regex test")
}

// OpSpec is one row of the operator table: everything the compiler, the
// evaluator, both backends, the prompt hooks and explain know about an
// operator.
type OpSpec struct {
	Name    string   // as rules spell it; explain shows this name
	Test    TestKind // the test before negation
	Negated bool     // the condition holds when Test fails
	// Upstream: upstream hookify knows the operator; on any other it
	// reads the condition as always false (docs/architecture.md, fidelity).
	Upstream bool
	// Words describe the condition to the model of a prompt hook: a verb
	// phrase with %s for the pattern, after the field.
	Words string
}

// opTable is the operator table. Adding an operator is one row here (and a
// constant above); a new TestKind also needs one case in each backend and
// in the evaluator (docs/architecture.md lists the tests).
var opTable = [...]OpSpec{
	RegexMatch:    {Name: "regex_match", Test: TestRegex, Upstream: true, Words: "matches the Python regular expression %s, ignoring case"},
	NotRegexMatch: {Name: "not_regex_match", Test: TestRegex, Negated: true, Words: "does not match the Python regular expression %s, ignoring case"},
	Contains:      {Name: "contains", Test: TestContains, Upstream: true, Words: "contains the text %s"},
	NotContains:   {Name: "not_contains", Test: TestContains, Negated: true, Upstream: true, Words: "does not contain the text %s"},
	Equals:        {Name: "equals", Test: TestEquals, Upstream: true, Words: "is exactly %s"},
	StartsWith:    {Name: "starts_with", Test: TestPrefix, Upstream: true, Words: "starts with %s"},
	EndsWith:      {Name: "ends_with", Test: TestSuffix, Upstream: true, Words: "ends with %s"},
}

// Ops lists every operator in table order.
var Ops = rowsOf[Op](opTable[:], func(s OpSpec) string { return s.Name })

// Spec returns o's row of the operator table.
func (o Op) Spec() *OpSpec {
	if o <= 0 || int(o) >= len(opTable) {
		return &OpSpec{}
	}
	return &opTable[o]
}

func (o Op) String() string { return o.Spec().Name }

// IsRegex reports whether the pattern of o is a regular expression.
func (o Op) IsRegex() bool { return o.Spec().Test == TestRegex }

// HoldsPlain applies a plain-text operator to value and pattern, negation
// included. It panics for a regex operator.
func (o Op) HoldsPlain(value, pattern string) bool {
	s := o.Spec()
	return s.Test.Holds(value, pattern) != s.Negated
}

// ParseOp returns the Op spelled s.
func ParseOp(s string) (Op, bool) { return parse(Ops, s) }

// OpNames lists the operators' names in table order.
func OpNames() []string {
	var out []string
	for _, o := range Ops {
		out = append(out, o.String())
	}
	return out
}

// rowsOf returns the indices of the named rows of a table, in order.
func rowsOf[T ~int, S any](table []S, name func(S) string) []T {
	var out []T
	for i, s := range table {
		if name(s) != "" {
			out = append(out, T(i))
		}
	}
	return out
}

// parse returns the element of list spelled s.
func parse[T fmt.Stringer](list []T, s string) (T, bool) {
	for _, x := range list {
		if x.String() == s {
			return x, true
		}
	}
	var zero T
	return zero, false
}

// OrList joins names as prose: "a, b or c".
func OrList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
