import { PageSpinner } from '../../../../components/PageSpinner';

/** Shown for the moment between creating an assignment and opening its page. */
export function LeavingSpinner() {
  return <PageSpinner label="Opening your assignment" />;
}
