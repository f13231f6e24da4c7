/**
 * Student submissions through a link: the teacher's {@link StudentLinkCard} (for the assignment
 * page) and the public student pages ({@link studentRoutes}: the submission form, the thank-you
 * page and the result page), which need no sign-in.
 */
export { StudentLinkCard, type StudentLinkCardProps } from './components/StudentLinkCard';
export { studentRoutes } from './routes';
