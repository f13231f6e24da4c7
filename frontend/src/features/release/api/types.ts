/** Where a submission's result stands with its student (`db/assignment/release/*`). */
export type ReleaseState = 'not-released' | 'released' | 'revoked';

/** How the email that carried the link went. */
export type EmailState = 'none' | 'queued' | 'sent' | 'bounced' | 'failed';

/** One submission's release as the teacher sees it. `link` is there only while it is released. */
export interface Release {
  submissionId: string;
  studentName: string;
  studentEmail: string;
  state: ReleaseState;
  link?: string;
  releasedAt?: string;
  revokedAt?: string;
  email: EmailState;
  emailError?: string;
  emailedAt?: string;
}

/** What a release did: the rows it released and how many it skipped, in all and by reason. */
export interface ReleaseOutcome {
  releases: Release[];
  /** Every row left out (a server before the split sends only this). */
  skipped: number;
  /** Finished (graded) results left out because "Release all reviewed" takes only reviewed ones. */
  skippedNotReviewed: number;
  /** Results not finished: still grading, failed, or none yet. */
  skippedNotGraded: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const STATES: ReleaseState[] = ['not-released', 'released', 'revoked'];
const EMAILS: EmailState[] = ['none', 'queued', 'sent', 'bounced', 'failed'];

/** Reads a release leniently, with every required field present. */
export function readRelease(value: unknown): Release | null {
  if (!isObject(value) || typeof value.submissionId !== 'string') return null;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return {
    submissionId: value.submissionId,
    studentName: typeof value.studentName === 'string' ? value.studentName : '',
    studentEmail: typeof value.studentEmail === 'string' ? value.studentEmail : '',
    state: STATES.includes(value.state as ReleaseState) ? (value.state as ReleaseState) : 'not-released',
    link: str(value.link),
    releasedAt: str(value.releasedAt),
    revokedAt: str(value.revokedAt),
    email: EMAILS.includes(value.email as EmailState) ? (value.email as EmailState) : 'none',
    emailError: str(value.emailError),
    emailedAt: str(value.emailedAt),
  };
}

/** Reads a list of releases, dropping anything unreadable. */
export function readReleases(value: unknown): Release[] {
  return Array.isArray(value) ? value.map(readRelease).filter((r): r is Release => r !== null) : [];
}
