/** Cache keys of the Google Classroom feature; each key belongs to exactly one call and data shape. */
export const classroomKeys = {
  /** Every Classroom query (all depend on the teacher's Google connection). */
  all: ['google-classroom'] as const,
  /** Whether Classroom is configured and connected (`google/classroom/status`). */
  status: () => ['google-classroom', 'status'] as const,
  /** The teacher's classes (`google/classroom/courses`). */
  courses: () => ['google-classroom', 'courses'] as const,
  /** A class's assignments (`google/classroom/coursework`). */
  coursework: (classId: string) => ['google-classroom', 'coursework', classId] as const,
  /** The turned-in work on one assignment of a class (`google/classroom/submissions`). */
  submissions: (classId: string, courseworkId: string) => ['google-classroom', 'submissions', classId, courseworkId] as const,
  /** An assignment's latest "Send grades to Classroom" run (`google/classroom/passback/get`). */
  passback: (assignmentId: string) => ['google-classroom', 'passback', assignmentId] as const,
};
