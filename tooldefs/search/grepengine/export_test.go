package grepengine

import "regexp/syntax"

// RequiredLiteral exposes the literal extraction to the tests: the literal
// the prefilter scans for, whether it is case-folded, whether the regexp is
// exactly that literal, and the anchor byte chosen.
func RequiredLiteral(pattern string, fold bool) (lit string, folded, exact, ok bool, anchor byte) {
	flags := syntax.Perl &^ syntax.OneLine
	if fold {
		flags |= syntax.FoldCase
	}
	re, err := syntax.Parse(pattern, flags)
	if err != nil {
		panic(err)
	}
	l, ok, exact := requiredLiteral(re.Simplify())
	if !ok {
		return "", false, false, false, 0
	}
	p := newPrefilter(l, exact)
	return l.s, l.fold, exact, true, p.a1
}

// UnicodeClasses exposes the Perl-class rewrite.
var UnicodeClasses = unicodeClasses
