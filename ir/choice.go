package ir

// Fields returns the distinct sources that conds read, in first-use order,
// and for each condition the index of its source in that list. A check
// holds when its conditions all hold for one choice of a candidate value
// per field (Source).
func Fields(conds []Cond) (fields []Source, of []int) {
	ids := map[string]int{}
	for _, c := range conds {
		id := c.Src.String()
		i, ok := ids[id]
		if !ok {
			i = len(fields)
			ids[id] = i
			fields = append(fields, c.Src)
		}
		of = append(of, i)
	}
	return fields, of
}

// Choices calls f with every choice of one element from each list, the
// last list varying fastest, until f returns false; it reports whether f
// never did. With an empty list there is no choice, and with no lists
// there is one, the empty choice.
func Choices[T any](lists [][]T, f func(choice []T) bool) bool {
	choice := make([]T, len(lists))
	var walk func(i int) bool
	walk = func(i int) bool {
		if i == len(lists) {
			return f(choice)
		}
		for _, x := range lists[i] {
			choice[i] = x
			if !walk(i + 1) {
				return false
			}
		}
		return true
	}
	return walk(0)
}
