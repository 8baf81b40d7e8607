package ir

// Fields returns the distinct sources that conds read, in first-use order,
// and for each condition the index of its source in that list. A check
// holds when its conditions all hold for one choice of a candidate value
// per field (Source).
func Fields(conds []ResolvedCondition) (fields []Source, of []int) {
	ids := map[SourceID]int{}
	for _, c := range conds {
		id := c.Src.ID()
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

// PatchKeys are the tool_input keys that the view of one file of a patch
// sets (README, "Payload fields"), and to what: 'f' the file's path, 'm'
// the path it moves to (unset without "*** Move to:"), 'a' its added
// lines, 'r' its removed lines. Every other key keeps the payload's value.
// templates/decode.awk holds the same table (A=1).
var PatchKeys = map[string]byte{
	"file_path": 'f', "path": 'm', "content": 'a', "contents": 'a', "new_string": 'a', "old_string": 'r',
}

// ReadsPatches reports whether h reads patches: it is a tool event and a
// condition reads one of PatchKeys from tool_input. Then every file of a
// patch in the payload is one more view in which the checks are tried.
func (h *Hook) ReadsPatches() bool {
	if !h.Event.Spec().Tool {
		return false
	}
	for _, k := range h.Keys() {
		if _, ok := PatchKeys[k.Name]; ok && k.ToolInput {
			return true
		}
	}
	return false
}
