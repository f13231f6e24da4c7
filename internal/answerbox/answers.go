package answerbox

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// The fields of an answers-tree node (docs/api-grading.md), shared with
// the grading package, which writes the grades.
const (
	FieldCoordinates = "answerBoxesCoordinates"
	FieldMedia       = "answerMedia"
	FieldSigned      = "signedAnswerMedia"
	FieldSubanswers  = "subanswers"
	FieldGrade       = "grade"
)

// Grade is a node's grade: points (computed by Markwell from the criteria
// booleans), the teacher's adjustment, feedback and one boolean per
// criterion. A node nobody has graded has a zero Grade.
type Grade struct {
	Points          float64 `json:"points"`
	GradeAdjustment float64 `json:"gradeAdjustment"`
	Feedback        string  `json:"feedback"`
	Criteria        []bool  `json:"criteria"`
}

// node is one answer as stored: every field kept as it is, so what other
// parts of Markwell write (grades, feedback) survives a rebuild.
type node map[string]json.RawMessage

// BuildAnswers mirrors the question tree into an answers tree: each node
// gets its box's coordinates (null without a box) and its crops' keys
// (media, by path key; [] without one), and keeps whatever prev (the
// result's current answers, possibly null) holds at the same place: its
// grade above all, a fresh zero grade with one false per criterion when it
// has none.
func BuildAnswers(qs []Question, boxes []Box, media map[string][]string, prev json.RawMessage) (json.RawMessage, error) {
	var old []node
	if len(prev) > 0 && string(prev) != "null" {
		// answers of another shape (not a list) are replaced
		_ = json.Unmarshal(prev, &old)
	}
	byPath := make(map[string]Box, len(boxes))
	for _, b := range boxes {
		byPath[PathKey(b.Path)] = b
	}
	tree, err := build(qs, nil, byPath, media, old)
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(tree)
	if err != nil {
		return nil, fmt.Errorf("encode answers: %w", err)
	}
	return out, nil
}

func build(qs []Question, parent []int, boxes map[string]Box, media map[string][]string, old []node) ([]node, error) {
	out := make([]node, len(qs))
	for i, q := range qs {
		path := append(append([]int(nil), parent...), i)
		n := node{}
		var oldSubs []node
		if i < len(old) && old[i] != nil {
			for k, v := range old[i] {
				n[k] = v
			}
			if raw, ok := old[i][FieldSubanswers]; ok {
				_ = json.Unmarshal(raw, &oldSubs)
			}
		}
		key := PathKey(path)
		var coords *Rect
		if b, ok := boxes[key]; ok {
			r := b.Rect()
			coords = &r
		}
		keys := media[key]
		if keys == nil {
			keys = []string{}
		}
		subs, err := build(q.Subquestions, path, boxes, media, oldSubs)
		if err != nil {
			return nil, err
		}
		if err := n.set(FieldCoordinates, coords); err != nil {
			return nil, err
		}
		if err := n.set(FieldMedia, keys); err != nil {
			return nil, err
		}
		if err := n.set(FieldSubanswers, subs); err != nil {
			return nil, err
		}
		delete(n, FieldSigned) // signed URLs are never stored
		if raw, ok := n[FieldGrade]; !ok || string(raw) == "null" {
			if err := n.set(FieldGrade, Grade{Criteria: make([]bool, len(q.Criteria))}); err != nil {
				return nil, err
			}
		}
		out[i] = n
	}
	return out, nil
}

func (n node) set(field string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", field, err)
	}
	n[field] = raw
	return nil
}

// cropsFolder is in the key of every answer crop (and of nothing else
// SignAnswers signs).
const cropsFolder = "/submissions/crops/"

// SignFunc signs a GET of one stored key.
type SignFunc func(ctx context.Context, key string) (string, error)

// SignAnswers returns answers with signedAnswerMedia added to every node
// that has answerMedia: one signed URL per key, in order. Only keys in the
// crops folders of assignment's submissions (prefix) are signed; others are
// left out. Answers that are not a tree, or that name no crop at all (typed
// answers, whose answerMedia is empty: most of them), are returned as they
// are, without decoding them: the status poll signs every result of a class.
func SignAnswers(ctx context.Context, answers json.RawMessage, prefix string, sign SignFunc) (json.RawMessage, error) {
	if len(answers) == 0 || !strings.Contains(string(answers), cropsFolder) {
		return answers, nil
	}
	var tree []node
	if err := json.Unmarshal(answers, &tree); err != nil {
		return answers, nil //nolint:nilerr // not a tree: nothing to sign
	}
	if err := signNodes(ctx, tree, prefix, sign); err != nil {
		return nil, err
	}
	out, err := json.Marshal(tree)
	if err != nil {
		return nil, fmt.Errorf("encode signed answers: %w", err)
	}
	return out, nil
}

func signNodes(ctx context.Context, tree []node, prefix string, sign SignFunc) error {
	for _, n := range tree {
		if n == nil {
			continue
		}
		var keys []string
		if raw, ok := n[FieldMedia]; ok && json.Unmarshal(raw, &keys) == nil && len(keys) > 0 {
			urls := make([]string, 0, len(keys))
			for _, k := range keys {
				if !strings.HasPrefix(k, prefix) || !strings.Contains(k, cropsFolder) {
					continue
				}
				u, err := sign(ctx, k)
				if err != nil {
					return fmt.Errorf("sign answer media %s: %w", k, err)
				}
				urls = append(urls, u)
			}
			if err := n.set(FieldSigned, urls); err != nil {
				return err
			}
		}
		var subs []node
		if raw, ok := n[FieldSubanswers]; ok && json.Unmarshal(raw, &subs) == nil && len(subs) > 0 {
			if err := signNodes(ctx, subs, prefix, sign); err != nil {
				return err
			}
			if err := n.set(FieldSubanswers, subs); err != nil {
				return err
			}
		}
	}
	return nil
}
