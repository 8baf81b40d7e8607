package pyre

// Validate reports whether ere uses only the portable subset of POSIX ERE that this
// package emits, which behaves the same under bash's [[ =~ ]] with glibc, macOS and
// musl regex engines in the C locale:
//
//   - ordinary bytes (any byte except NUL and the specials .[\()*+?{|^$), and a
//     backslash before one of those specials;
//   - bracket expressions, optionally negated, with single bytes, ranges whose
//     endpoints are not one of ] ^ - [ \ and are in order, and POSIX classes such as
//     [:alpha:]; ']' only first, '-' only first or last, no backslash, no NUL, no
//     collating elements or equivalence classes, never empty;
//   - groups ( ) with non-empty alternatives separated by |;
//   - at most one quantifier per atom: * + ? {n} {n,} {n,m} with n <= m <= 255;
//   - ^ only at the start and $ only at the end of an alternative, never quantified.
//
// '.' is not part of the subset: in the C locale it matches any byte, including a
// newline, which is never what a Python pattern means.
func Validate(ere string) error {
	_, err := parseERE(ere)
	return err
}
