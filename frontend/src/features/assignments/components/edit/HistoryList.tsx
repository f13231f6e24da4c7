import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useAssignmentHistory, type AssignmentChange } from './api';

const whenFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** How many saves the list shows before "Show all". */
const FIRST = 5;

function who(change: AssignmentChange): string {
  return change.user.name.trim() || change.user.email || 'A former teammate';
}

/** "Ada changed the points of 2a: 2 → 3": a change's sentence with its author. */
export function changeSentence(change: AssignmentChange, line: string): string {
  return `${who(change)} ${line}`;
}

/**
 * The assignment's history on its page: every saved change, newest first, who made it and when
 * (issue 19, item 2).
 */
export function HistoryList({ assignmentId }: { assignmentId: string }) {
  const history = useAssignmentHistory(assignmentId);
  const [all, setAll] = useState(false);
  if (history.isPending) return <Typography color="text.secondary">Loading history…</Typography>;
  if (history.isError) return <Typography color="text.secondary">We couldn&apos;t load the history.</Typography>;
  if (history.data.length === 0) {
    return <Typography color="text.secondary">No changes since the assignment was created.</Typography>;
  }
  const shown = all ? history.data : history.data.slice(0, FIRST);
  return (
    <>
      <Box component="ol" aria-label="Changes, newest first" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1.5 }}>
        {shown.map((change) => (
          <Box component="li" key={change._id} sx={{ minWidth: 0 }}>
            <Typography variant="body2" color="text.secondary" component="p">
              <time dateTime={change.createdAt}>{whenFormat.format(new Date(change.createdAt))}</time>
            </Typography>
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              {change.changes.map((line, i) => (
                <Typography component="li" key={i} variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {changeSentence(change, line)}
                </Typography>
              ))}
            </Box>
          </Box>
        ))}
      </Box>
      {history.data.length > FIRST && (
        <Button size="small" onClick={() => setAll((v) => !v)} sx={{ mt: 1 }}>
          {all ? 'Show fewer' : `Show all ${history.data.length} changes`}
        </Button>
      )}
    </>
  );
}
