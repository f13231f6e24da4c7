package catalog

import (
	"fmt"
	"strings"
)

// The system prompts of the chat tools (and of the workflows that continue
// as those tools' chats). Each is followed by the chat's document
// instruction (package chat).
const (
	lessonPlannerPrompt = `You are Markwell's lesson planner, an experienced teacher who helps colleagues plan lessons.

Help the teacher plan a lesson (or a short sequence of lessons) that fits their class, subject and time. Ask one short question first when something essential is missing (the subject, the age or grade of the pupils, the topic or the length of the lesson); otherwise get on with it.

A good lesson plan has: clear, checkable learning objectives; a starter that connects to what pupils already know; main activities with timings that add up to the lesson's length; differentiation (support for those who struggle, stretch for those who are ready); resources to prepare; and a way to check what pupils learned before they leave. Prefer concrete examples, questions to ask and tasks pupils do over general advice.

Write in the teacher's language and spelling, plainly and briefly. Never invent facts about the teacher's pupils, and do not ask for pupils' names or personal details.`

	quizMakerPrompt = `You are Markwell's quiz maker, an experienced teacher who writes fair, clear quizzes.

Help the teacher write quizzes and question sets for their class. Ask one short question first when something essential is missing (the topic or source, the age or grade of the pupils, how many questions); otherwise get on with it.

Write questions that test understanding, not just recall: mix easy and harder questions, one idea per question, wording pupils of that age can read. Multiple-choice questions have one correct answer and plausible wrong answers; true-or-false statements are unambiguous. Number the questions, and give an answer key (with a short explanation per answer) after the questions, so the teacher can remove it before printing. When the teacher gives a source text, base every question on it and stay faithful to it.

Write in the teacher's language and spelling. Do not ask for pupils' names or personal details.`

	parentLetterPrompt = `You are Markwell's parent letter writer, who helps teachers write letters and messages to parents and carers.

Help the teacher write a clear, friendly and professional letter. Ask one short question first when something essential is missing (what the letter is about, what parents need to do and by when, who signs it); otherwise get on with it.

A good letter says what it is about in its first sentence, gives the facts parents need (dates, times, costs, what to bring), says plainly what parents should do and by when, and tells them whom to contact with questions. Keep it short, warm and free of jargon and acronyms; many parents read it on a phone, and some read English as an additional language. Address it to "Parents and carers" unless the teacher says otherwise.

Never invent facts such as dates, prices or names: where the teacher has not given one, leave a clear placeholder in square brackets, like [date]. Do not include pupils' personal details.`
)

// tools are the built-in tools.
var tools = []Tool{
	{
		ID:             ToolLessonPlanner,
		Title:          "Lesson planner",
		Description:    "Plan a lesson with objectives, timed activities, differentiation and a check for understanding.",
		InitialMessage: "Hello! Tell me the subject, the age or grade of your class, the topic and how long the lesson is, and I'll draft a lesson plan you can edit.",
		Kind:           KindChat,
		SystemPrompt:   lessonPlannerPrompt,
	},
	{
		ID:             ToolQuizMaker,
		Title:          "Quiz maker",
		Description:    "Write a quiz with an answer key on any topic, or from a text you paste in.",
		InitialMessage: "Hello! What should the quiz be about? Tell me the topic (or paste a text), the age or grade of your class, and how many questions you'd like.",
		Kind:           KindChat,
		SystemPrompt:   quizMakerPrompt,
	},
	{
		ID:             ToolParentLetter,
		Title:          "Parent letter",
		Description:    "Write a clear, friendly letter or message to parents and carers.",
		InitialMessage: "Hello! What is the letter about, what do you need parents to do (and by when), and who will sign it?",
		Kind:           KindChat,
		SystemPrompt:   parentLetterPrompt,
	},
	{
		ID:             ToolRubricFromSheet,
		Title:          "Rubric from an assignment sheet",
		Description:    "Paste an assignment sheet and get a rubric with four levels per criterion, saved in your team's rubric library.",
		InitialMessage: "Paste the text of your assignment sheet and I'll draft a rubric for it. You can edit it in the rubric library afterwards.",
		Kind:           KindRubric,
	},
}

// Select options of the workflows.
var (
	lessonLengths = []string{"30 minutes", "45 minutes", "60 minutes", "90 minutes"}
	letterTones   = []string{"Warm and friendly", "Formal", "Reassuring", "Celebratory", "Firm but supportive"}
	quizSizes     = []string{"5", "10", "15", "20"}
	// quizTypes map each question type option to how the message asks for
	// it.
	quizTypes = map[string]string{
		"Multiple choice": "multiple-choice questions (four options each, one correct)",
		"Short answer":    "short-answer questions",
		"True or false":   "true-or-false questions",
		"A mix of types":  "questions of mixed types (multiple choice, short answer and true or false)",
	}
	quizTypeOptions = []string{"Multiple choice", "Short answer", "True or false", "A mix of types"}
)

// workflows are the built-in workflows.
var workflows = []Workflow{
	{
		ID:           WorkflowLessonPlan,
		Title:        "Plan a lesson",
		Description:  "Fill in a few details and get a complete lesson plan, ready to edit, print or download.",
		SystemPrompt: lessonPlannerPrompt,
		Fields: []Field{
			{Name: "subject", Label: "Subject", Kind: FieldText, Required: true, Placeholder: "e.g. Science", MaxLength: 100},
			{Name: "gradeLevel", Label: "Grade level", Kind: FieldText, Required: true, Placeholder: "e.g. Year 7 or Grade 5", MaxLength: 100},
			{Name: "topic", Label: "Topic", Kind: FieldText, Required: true, Placeholder: "e.g. How volcanoes form", MaxLength: 300},
			{Name: "lessonLength", Label: "Lesson length", Kind: FieldSelect, Required: true, Options: lessonLengths, MaxLength: 20},
			{Name: "objectives", Label: "Learning objectives", Kind: FieldTextarea, Placeholder: "Optional: what should pupils know or be able to do by the end?", MaxLength: 3000},
		},
		compose: func(v map[string]string) string {
			var b strings.Builder
			fmt.Fprintf(&b, "Write a lesson plan for a %s %s lesson for %s.\n\nTopic: %s\n", v["lessonLength"], v["subject"], v["gradeLevel"], v["topic"])
			if v["objectives"] != "" {
				fmt.Fprintf(&b, "\nLearning objectives:\n%s\n", v["objectives"])
			} else {
				b.WriteString("\nSuggest two or three learning objectives that suit the class.\n")
			}
			b.WriteString("\nInclude a starter, the main activities and a plenary with timings that add up to the lesson's length, " +
				"differentiation, the resources to prepare and a way to check what pupils learned. " +
				"Write the whole lesson plan as a document.")
			return b.String()
		},
	},
	{
		ID:           WorkflowParentLetter,
		Title:        "Write a letter to parents",
		Description:  "Describe the situation and get a clear letter to parents and carers, in the tone you choose.",
		SystemPrompt: parentLetterPrompt,
		Fields: []Field{
			{Name: "situation", Label: "Purpose or situation", Kind: FieldTextarea, Required: true,
				Placeholder: "e.g. A class trip to the science museum on Friday 12 May; pupils need a packed lunch", MaxLength: 5000},
			{Name: "tone", Label: "Tone", Kind: FieldSelect, Required: true, Options: letterTones, MaxLength: 40},
			{Name: "action", Label: "What you want the parent to do", Kind: FieldText,
				Placeholder: "e.g. Sign and return the consent form by Wednesday (leave empty if nothing)", MaxLength: 500},
			{Name: "signedBy", Label: "Signed by", Kind: FieldText, Required: true, Placeholder: "e.g. Ms Patel, Year 4 teacher", MaxLength: 200},
		},
		compose: func(v map[string]string) string {
			var b strings.Builder
			fmt.Fprintf(&b, "Write a letter to parents and carers in a %s tone.\n\nPurpose or situation:\n%s\n\n",
				strings.ToLower(v["tone"]), v["situation"])
			if v["action"] != "" {
				fmt.Fprintf(&b, "What parents should do: %s\n", v["action"])
			} else {
				b.WriteString("Parents need not do anything: the letter is to inform them.\n")
			}
			fmt.Fprintf(&b, "Signed by: %s\n\nKeep it short and free of jargon. Write the whole letter as a document.", v["signedBy"])
			return b.String()
		},
	},
	{
		ID:           WorkflowQuizFromText,
		Title:        "Make a quiz from a text",
		Description:  "Paste a text your class has read and get a quiz on it, with an answer key.",
		SystemPrompt: quizMakerPrompt,
		Fields: []Field{
			{Name: "sourceText", Label: "Source text", Kind: FieldTextarea, Required: true,
				Placeholder: "Paste the text the quiz should be about", MaxLength: 20000},
			{Name: "questionCount", Label: "Number of questions", Kind: FieldSelect, Required: true, Options: quizSizes, MaxLength: 2},
			{Name: "questionType", Label: "Question type", Kind: FieldSelect, Required: true, Options: quizTypeOptions, MaxLength: 40},
		},
		compose: func(v map[string]string) string {
			return fmt.Sprintf("Write a quiz of %s %s based on the source text below, with an answer key after the questions. "+
				"Base every question on the text. Write the whole quiz as a document.\n\nSource text:\n%s",
				v["questionCount"], quizTypes[v["questionType"]], fenced(v["sourceText"]))
		},
	},
}
