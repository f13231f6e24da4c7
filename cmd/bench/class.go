package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
)

// The class of the prompt-caching figure: a Year 9 biology homework of
// three questions (one with a part) and 13 criteria, three answers the
// teacher graded as benchmarks, and thirty students' answers of 150 to 400
// words, each different, written from the sentences a class of that age
// writes about the questions.

// cacheQuestions is the homework.
func cacheQuestions() []assignment.Question {
	return []assignment.Question{
		{QuestionText: "Explain how a plant makes its food by photosynthesis.", Context: "Use the words reactants and products.",
			Criteria: []assignment.Criterion{
				{Description: "Names chlorophyll as the green pigment that absorbs light", Points: 2},
				{Description: "States the reactants: carbon dioxide and water", Points: 2},
				{Description: "States the products: glucose and oxygen", Points: 2},
				{Description: "Explains that light energy is converted into chemical energy stored in glucose", Points: 2},
			},
			Subquestions: []assignment.Question{
				{QuestionText: "Where in the leaf does most photosynthesis happen, and why there?", Criteria: []assignment.Criterion{
					{Description: "Palisade mesophyll cells", Points: 1},
					{Description: "They have many chloroplasts and lie near the upper surface where light falls", Points: 1},
				}},
			}},
		{QuestionText: "Describe an experiment that shows a plant needs light for photosynthesis.",
			Criteria: []assignment.Criterion{
				{Description: "Destarches the plant in the dark and covers part of a leaf with foil", Points: 2},
				{Description: "Tests the leaf for starch with iodine after boiling it in ethanol", Points: 2},
				{Description: "Keeps the other variables the same as a fair test", Points: 1},
				{Description: "States the result: only the uncovered part turns blue-black", Points: 1},
			}},
		{QuestionText: "Why do plants grow more slowly in winter?",
			Criteria: []assignment.Criterion{
				{Description: "Less light because the days are shorter", Points: 2},
				{Description: "Lower temperature slows the enzymes of photosynthesis", Points: 2},
				{Description: "Links this to less glucose for growth", Points: 1},
			}},
	}
}

// The sentences students write, per answer (1, 1a, 2, 3).
var cacheSentences = [4][]string{
	{
		"Photosynthesis is the process plants use to make their own food from simple substances.",
		"The plant takes in carbon dioxide from the air through small holes in the leaf called stomata.",
		"Water is taken up by the roots and travels up the stem in the xylem to the leaves.",
		"Chlorophyll is the green pigment in the chloroplasts and it absorbs the light.",
		"The light gives the energy that is needed to join the carbon dioxide and the water together.",
		"The products are glucose and oxygen, and the oxygen is released into the air.",
		"Light energy is changed into chemical energy which is stored in the glucose.",
		"The word equation is carbon dioxide plus water gives glucose plus oxygen.",
		"The reactants are carbon dioxide and water and they come from the air and the soil.",
		"Plants need sunlight to do this, so it only happens in the day time.",
		"The glucose can be turned into starch for storage or used in respiration for energy.",
		"Some of the glucose is made into cellulose for cell walls so the plant can grow.",
		"Without photosynthesis there would be no food for animals, because every food chain starts with a plant.",
		"I think the plant also uses minerals from the soil like nitrates to make proteins.",
		"Photosynthesis is kind of the opposite of respiration.",
		"The leaf is thin and flat so gases can get in and out easily and it catches a lot of light.",
	},
	{
		"Most photosynthesis happens in the palisade mesophyll cells.",
		"These cells are packed with chloroplasts so they can absorb a lot of light.",
		"They are near the top of the leaf where the sunlight falls on it.",
		"It happens in the leaves because they are green.",
		"The palisade layer is just under the upper epidermis, which is see-through so light gets in.",
		"The spongy layer below has air spaces for the carbon dioxide to reach the cells.",
		"It happens in the chloroplasts which are in the cells of the leaf.",
	},
	{
		"First I would put a plant in a dark cupboard for two days to destarch it.",
		"Then I would cover part of one leaf with aluminium foil so no light can get to it.",
		"Next I would leave the plant in bright light for a day.",
		"After that I would pick the leaf and put it in boiling water to kill it and soften it.",
		"Then I would put the leaf in hot ethanol to take out the chlorophyll, using a water bath because ethanol is flammable.",
		"I would rinse the leaf and add iodine solution to test for starch.",
		"The part that had light would turn blue-black because it has starch in it.",
		"The covered part would stay orange-brown because it could not photosynthesise and made no starch.",
		"To make it a fair test I would keep the temperature and the water the same and only change the light.",
		"You could also use a variegated leaf to show chlorophyll is needed too.",
		"I would wear goggles because the ethanol and iodine are dangerous.",
		"This shows that light is needed to make starch, which comes from the glucose made in photosynthesis.",
		"We did this in class and the foil shape came out clearly on the leaf.",
	},
	{
		"In winter the days are shorter so there are fewer hours of light for photosynthesis.",
		"The sun is lower in the sky so the light is weaker.",
		"It is colder in winter and the enzymes that control photosynthesis work more slowly.",
		"Because photosynthesis is slower the plant makes less glucose.",
		"With less glucose there is less energy and less material for making new cells, so growth slows down.",
		"Some trees lose their leaves in winter so they cannot photosynthesise at all.",
		"The ground can freeze so the roots cannot take up as much water.",
		"Plants grow slower in winter because it is cold.",
		"Temperature is a limiting factor, and so is light intensity.",
		"Farmers use greenhouses with heaters and lamps so crops keep growing in winter.",
		"There may also be less carbon dioxide taken in if the stomata close.",
	},
}

// cacheAnswer writes the answer of student n (0-based): for each question
// some of the class's sentences in its own order, about words words long.
func cacheAnswer(n, words int) string {
	r := rand.New(rand.NewPCG(uint64(n)+1, 22))
	labels := []string{"1.", "1a.", "2.", "3."}
	picked := make([][]string, len(cacheSentences))
	order := make([][]int, len(cacheSentences))
	for q := range cacheSentences {
		order[q] = r.Perm(len(cacheSentences[q]))
	}
	count := 0
	// a sentence to each answer in turn (the longer answers get more),
	// until the answer is long enough or every sentence is used
	for round := 0; count < words; round++ {
		added := false
		for q := range cacheSentences {
			if count < words && round < len(order[q]) && (q != 1 || round < 4) {
				s := cacheSentences[q][order[q][round]]
				picked[q] = append(picked[q], s)
				count += len(strings.Fields(s))
				added = true
			}
		}
		if !added {
			break
		}
	}
	var b strings.Builder
	for q, ss := range picked {
		if q > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(labels[q] + " " + strings.Join(ss, " "))
	}
	return b.String()
}

// cacheClass is the class: the students' answers, 150 to 400 words each,
// and the three benchmark answers the teacher graded.
func cacheClass(students int) (answers []string, examples []grading.Example) {
	r := rand.New(rand.NewPCG(30, 3))
	for i := range students {
		answers = append(answers, cacheAnswer(i, 150+r.IntN(251)))
	}
	qs := cacheQuestions()
	for i, g := range []struct {
		words    int
		met      [][]bool // per node in tree order: 1, 1a, 2, 3
		feedback []string
		overall  string
	}{
		{380, [][]bool{{true, true, true, true}, {true, true}, {true, true, true, true}, {true, true, true}},
			[]string{"Complete: reactants, products and the energy change are all there.", "Right cells, and you say why.", "A clear method with a fair test and the result.", "You link light and temperature to less glucose."},
			"Excellent, thorough work."},
		{240, [][]bool{{true, true, false, false}, {true, false}, {true, true, false, true}, {true, false, false}},
			[]string{"Give the products too, and say what happens to the light energy.", "Why there? Mention the chloroplasts and the light.", "Say what you keep the same to make it fair.", "Temperature matters too: the enzymes slow down."},
			"A good start; answer every part of each question."},
		{160, [][]bool{{false, true, false, false}, {false, false}, {false, true, false, false}, {true, false, false}},
			[]string{"Name chlorophyll and the products of photosynthesis.", "It is the palisade mesophyll.", "Describe the method step by step: destarch, cover, test.", "Explain what less light means for glucose and growth."},
			"Please look again at the notes on photosynthesis."},
	} {
		tree, err := gradedTree(qs, g.met, g.feedback)
		if err != nil {
			panic(err)
		}
		examples = append(examples, grading.Example{
			Text:   cacheAnswer(1000+i, g.words),
			Result: grading.Result{ResultFields: assignment.ResultFields{Answers: tree, Feedback: g.overall}},
		})
	}
	return answers, examples
}

// gradedTree is an answers tree of cacheQuestions with the teacher's
// decisions and feedback per node, in tree order (1, 1a, 2, 3).
func gradedTree(qs []assignment.Question, met [][]bool, feedback []string) (json.RawMessage, error) {
	type grade struct {
		Feedback string `json:"feedback"`
		Criteria []bool `json:"criteria"`
	}
	type node struct {
		AnswerMedia []string `json:"answerMedia"`
		Grade       grade    `json:"grade"`
		Subanswers  []node   `json:"subanswers"`
	}
	i := 0
	var build func([]assignment.Question) []node
	build = func(qs []assignment.Question) []node {
		out := []node{}
		for _, q := range qs {
			n := node{AnswerMedia: []string{}, Grade: grade{Feedback: feedback[i], Criteria: met[i]}}
			i++
			n.Subanswers = build(q.Subquestions)
			out = append(out, n)
		}
		return out
	}
	tree := build(qs)
	if i != len(met) {
		return nil, fmt.Errorf("%d graded nodes for %d answers", len(met), i)
	}
	raw, err := json.Marshal(tree)
	if err != nil {
		return nil, err
	}
	tree2, _, _, err := grading.Retotal(raw, qs)
	return tree2, err
}
