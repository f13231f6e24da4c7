package assignment

import (
	"encoding/json"
	"fmt"
	"slices"
)

// RemapBoxPaths moves a handwritten assignment's answer boxes (each names
// its question by path, answerbox.Box) from the shape of old to that of
// new, by question id, as RemapAnswers moves the answers: the box of a
// moved question follows it, the box of a removed question is dropped.
// Fields of a box other than its path are kept as they are. changed is
// false when no box moved.
func RemapBoxPaths(boxes json.RawMessage, old, new []Question) (json.RawMessage, bool, error) {
	if isNullJSON(boxes) {
		return boxes, false, nil
	}
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(boxes, &list); err != nil || len(list) == 0 {
		return boxes, false, nil // not a list of boxes: left as it is
	}
	idAt := map[string]string{} // old path key → question id
	walkPaths(old, nil, func(path []int, q Question) { idAt[fmt.Sprint(path)] = q.ID })
	pathOf := map[string][]int{} // question id → new path
	walkPaths(new, nil, func(path []int, q Question) {
		if q.ID != "" {
			pathOf[q.ID] = path
		}
	})
	out := make([]map[string]json.RawMessage, 0, len(list))
	changed := false
	for _, box := range list {
		var path []int
		if err := json.Unmarshal(box["path"], &path); err != nil {
			out = append(out, box) // Validate refuses it on the next save
			continue
		}
		id := idAt[fmt.Sprint(path)]
		next, ok := pathOf[id]
		if id == "" || !ok {
			changed = true // its question was removed
			continue
		}
		if !slices.Equal(next, path) {
			raw, err := json.Marshal(next)
			if err != nil {
				return boxes, false, err
			}
			box["path"] = raw
			changed = true
		}
		out = append(out, box)
	}
	if !changed {
		return boxes, false, nil
	}
	raw, err := json.Marshal(out)
	return raw, err == nil, err
}

// walkPaths calls f with every question of qs and its path, parents first.
func walkPaths(qs []Question, parent []int, f func(path []int, q Question)) {
	for i, q := range qs {
		p := append(append([]int(nil), parent...), i)
		f(p, q)
		walkPaths(q.Subquestions, p, f)
	}
}
