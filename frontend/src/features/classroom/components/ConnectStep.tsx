import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { startConnect } from '../lib/connect';

/** Props for {@link ConnectStep}. */
export interface ConnectStepProps {
  /** Why Classroom cannot be used yet, as the server says it. */
  reason: string;
  returnTo: string;
  onClose: () => void;
}

/** Everything the consent screen asks for, in plain words. */
const PERMISSIONS = [
  'See your classes and their class lists, with your students’ email addresses.',
  'See the assignments of your classes and the work your students turned in.',
  'Open Google Drive files: Markwell opens only the files attached to the work you import.',
  'Set grades and return work in Classroom, only when you choose “Send grades to Classroom”.',
];

/**
 * The explanation before the trip to Google: what Markwell will ask for, and a "Connect Google
 * Classroom" button that leaves for the consent screen and comes back to `returnTo`.
 */
export function ConnectStep({ reason, returnTo, onClose }: ConnectStepProps) {
  const [leaving, setLeaving] = useState(false);
  useEffect(() => {
    // Back from Google's page can restore this page from the back/forward cache: unlock the button.
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setLeaving(false);
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);
  return (
    <>
      <DialogContent dividers>
        <Typography sx={{ mb: 2 }}>{reason || 'Connect Google Classroom to import your students’ work.'}</Typography>
        <Typography sx={{ fontWeight: 600 }}>Google will ask you to let Markwell:</Typography>
        <Typography component="ul" sx={{ pl: 3, my: 1 }}>
          {PERMISSIONS.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </Typography>
        <Typography color="text.secondary">
          Importing only reads: Markwell never changes anything in Classroom or Drive unless you send grades. After you
          answer, you come back to this page.
        </Typography>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2, gap: 1, flexWrap: 'wrap' }}>
        <Button onClick={onClose} disabled={leaving}>
          Cancel
        </Button>
        <Button
          variant="contained"
          loading={leaving}
          onClick={() => {
            setLeaving(true);
            startConnect(returnTo);
          }}
        >
          Connect Google Classroom
        </Button>
      </DialogActions>
    </>
  );
}
