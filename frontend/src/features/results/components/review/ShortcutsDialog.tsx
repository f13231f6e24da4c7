import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';

/** The review screen's keys and what they do. */
export const REVIEW_SHORTCUTS: { keys: string[]; action: string; gradeOnly?: boolean }[] = [
  { keys: ['1', '…', '9'], action: 'Tick or untick a criterion of the current answer', gradeOnly: true },
  { keys: ['j'], action: 'Next submission' },
  { keys: ['k'], action: 'Previous submission' },
  { keys: ['n'], action: 'Next submission not yet reviewed' },
  { keys: ['?'], action: 'Show these keys' },
];

/** Props for {@link ShortcutsDialog}. */
export interface ShortcutsDialogProps {
  open: boolean;
  onClose: () => void;
  /** Lists the number keys (grade results only). */
  grade: boolean;
}

/** The sheet `?` opens: every key of the review screen. Keys do nothing while typing in a field. */
export function ShortcutsDialog({ open, onClose, grade }: ShortcutsDialogProps) {
  const titleId = useId();
  const rows = REVIEW_SHORTCUTS.filter((s) => grade || !s.gradeOnly);
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>Keyboard shortcuts</DialogTitle>
      <DialogContent>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 1.25, m: 0 }}>
          {rows.map(({ keys, action }) => (
            <Box key={action} sx={{ display: 'contents' }}>
              <Box component="dt" sx={{ display: 'flex', gap: 0.5, alignItems: 'center' }}>
                {keys.map((k) =>
                  k === '…' ? (
                    <span key={k}>–</span>
                  ) : (
                    <Box
                      key={k}
                      component="kbd"
                      sx={{ fontFamily: 'inherit', fontWeight: 600, minWidth: 24, textAlign: 'center', px: 0.75, py: 0.25, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.default' }}
                    >
                      {k}
                    </Box>
                  ),
                )}
              </Box>
              <Box component="dd" sx={{ m: 0 }}>
                {action}
              </Box>
            </Box>
          ))}
        </Box>
        <Box component="p" sx={{ color: 'text.secondary', mb: 0, mt: 2 }}>
          Keys do nothing while you type in a field.
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} autoFocus>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
