/**
 * Importing students' work from Google Classroom on the assignment page: the
 * {@link ClassroomImportButton}, which connects the teacher's Google account when needed (and
 * handles `?googleClassroom=` on the way back) and opens the picker.
 */
export { ClassroomImportButton, type ClassroomImportButtonProps } from './components/ClassroomImportButton';
