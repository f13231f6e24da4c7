/**
 * Student submissions through a link: the teacher's {@link StudentLinkCard} (for the assignment
 * page) and the public student pages ({@link createStudentRoutes}: the submission form, the
 * thank-you page and the result page), which need no sign-in. The app gives the result page its
 * result view ({@link StudentResultView}).
 */
export { StudentLinkCard, type StudentLinkCardProps } from './components/StudentLinkCard';
export type { StudentResultView, ViewResultPageProps } from './components/ViewResultPage';
export { createStudentRoutes, studentRoutes } from './routes';
