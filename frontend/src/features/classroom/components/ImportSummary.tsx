import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import { useEffect, useRef } from 'react';
import type { ImportResult, SkippedItem, StudentSubmission } from '../api/types';

/** Props for {@link ImportSummary}. */
export interface ImportSummaryProps {
  result: ImportResult;
  /** The listed work, to name a student the server did not name. */
  work: StudentSubmission[];
}

/** "Imported N submissions, M skipped", the line the toast shows too. */
export function importSummaryText({ imported, skipped }: ImportResult): string {
  const made = `Imported ${imported} ${imported === 1 ? 'submission' : 'submissions'}`;
  return skipped.length > 0 ? `${made}, ${skipped.length} skipped` : made;
}

function who(item: SkippedItem, work: StudentSubmission[]): string {
  return item.studentName || work.find((w) => w.id === item.submissionId)?.studentName || 'A student';
}

/**
 * What the last import did, kept in the dialog when something was skipped: how many submissions
 * were created, then each student's file (or whole submission) that was left out and why. It takes
 * the focus when it appears, so it is scrolled into view and read out.
 */
export function ImportSummary({ result, work }: ImportSummaryProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <Alert ref={ref} tabIndex={-1} severity="warning" sx={{ overflowWrap: 'anywhere' }}>
      <AlertTitle>{importSummaryText(result)}</AlertTitle>
      <Box component="ul" aria-label="Not imported" sx={{ m: 0, pl: 2.5 }}>
        {result.skipped.map((item, index) => (
          <li key={`${item.submissionId}-${index}`}>
            <strong>{who(item, work)}</strong>
            {item.title ? ` – ${item.title}` : ''}: {item.reason}
          </li>
        ))}
      </Box>
    </Alert>
  );
}
