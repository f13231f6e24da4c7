/**
 * Importing students' work from Google Classroom on the assignment page: the
 * {@link ClassroomImportButton}, which connects the teacher's Google account when needed (and
 * handles `?googleClassroom=` on the way back) and opens the picker.
 */
export { ClassroomImportButton, type ClassroomImportButtonProps } from './components/ClassroomImportButton';

/**
 * Grades back into Google Classroom: {@link SendGradesButton} in the submissions toolbar (shown
 * only when work was imported from Classroom) opens a dialog that sends draft or assigned grades,
 * optionally returns the work, and lists each student's outcome.
 */
export { SendGradesButton, hasClassroomSubmissions, type SendGradesButtonProps } from './components/SendGradesButton';
