import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import FormControlLabel from '@mui/material/FormControlLabel';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadError } from '../../../components/LoadError';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { copyText } from '../../../lib/clipboard';
import { useStudentLink } from '../api/get-student-link';
import { useUpdateStudentLink } from '../api/update-student-link';

/** The address a student opens for a link token. */
export function studentLinkUrl(token: string): string {
  return `${window.location.origin}/submit/${token}`;
}

/** Props for {@link StudentLinkCard}. */
export interface StudentLinkCardProps {
  assignmentId: string;
}

/**
 * The teacher's student submission link for an assignment: the link with "Copy link", a switch
 * that turns it on or off, a switch that lets students submit again ("Allow resubmission": each
 * later submission is kept as the student's next attempt), and "Create a new link" (after a
 * confirmation: the old link stops working).
 */
export function StudentLinkCard({ assignmentId }: StudentLinkCardProps) {
  const headingId = useId();
  const stateId = useId();
  const resubmitId = useId();
  const { showToast } = useToast();
  const link = useStudentLink(assignmentId);
  const update = useUpdateStudentLink();
  const [confirmRotate, setConfirmRotate] = useState(false);

  const failed = (error: unknown) =>
    showToast({ type: 'error', message: errorMessage(error, "Couldn't change the link. Please try again.") });

  const setEnabled = (enabled: boolean) => {
    if (update.isPending) return;
    update.mutate(
      { assignmentId, enabled },
      {
        onSuccess: (next) =>
          showToast({ type: 'success', message: next.enabled ? 'Student link turned on' : 'Student link turned off' }),
        onError: failed,
      },
    );
  };

  const setAllowResubmission = (allowResubmission: boolean) => {
    if (update.isPending) return;
    update.mutate(
      { assignmentId, allowResubmission },
      {
        onSuccess: (next) =>
          showToast({
            type: 'success',
            message: next.allowResubmission ? 'Students can now submit again' : 'Each student can now submit once',
          }),
        onError: failed,
      },
    );
  };

  const rotate = () => {
    update.mutate(
      { assignmentId, rotate: true },
      {
        onSuccess: () => {
          setConfirmRotate(false);
          showToast({ type: 'success', message: 'New link created. The old link no longer works.' });
        },
        onError: (error) => {
          setConfirmRotate(false);
          failed(error);
        },
      },
    );
  };

  const copy = async (url: string) => {
    if (await copyText(url)) showToast({ type: 'success', message: 'Link copied' });
    else showToast({ type: 'error', message: `Couldn't copy the link. Here it is: ${url}` });
  };

  let body;
  if (link.isPending) {
    body = <Skeleton variant="rounded" height={88} role="progressbar" aria-label="Loading the student link" />;
  } else if (link.isError) {
    body = (
      <LoadError
        message={errorMessage(link.error, "Couldn't load the student link.")}
        onRetry={() => void link.refetch()}
        retrying={link.isFetching}
      />
    );
  } else {
    const { enabled, token, allowResubmission } = link.data;
    const url = studentLinkUrl(token);
    body = (
      <>
        <FormControlLabel
          control={
            <Switch
              checked={enabled}
              onChange={(event) => setEnabled(event.target.checked)}
              disabled={update.isPending}
              slotProps={{ input: { 'aria-describedby': stateId } }}
            />
          }
          label="Accept submissions through this link"
          sx={{ ml: -1, mb: 1, '& .MuiFormControlLabel-label': { fontWeight: 500 } }}
        />
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
          <TextField
            label="Student link"
            value={url}
            size="small"
            slotProps={{ htmlInput: { readOnly: true, 'aria-describedby': stateId } }}
            onFocus={(event) => event.target.select()}
            sx={{ '& input': { color: enabled ? 'text.primary' : 'text.disabled' } }}
          />
          <Button
            variant="outlined"
            startIcon={<ContentCopyRounded />}
            onClick={() => void copy(url)}
            sx={{ height: 40, flexShrink: 0 }}
          >
            Copy link
          </Button>
        </Box>
        <Typography id={stateId} variant="body2" color={enabled ? 'text.secondary' : 'warning.main'} sx={{ mt: 1 }}>
          {enabled
            ? 'Students who open this link can submit their work without signing in.'
            : 'This link is turned off: students cannot submit through it.'}
        </Typography>
        <FormControlLabel
          control={
            <Switch
              checked={allowResubmission}
              onChange={(event) => setAllowResubmission(event.target.checked)}
              disabled={update.isPending}
              slotProps={{ input: { 'aria-describedby': resubmitId } }}
            />
          }
          label="Allow resubmission"
          sx={{ ml: -1, mt: 2, display: 'flex', '& .MuiFormControlLabel-label': { fontWeight: 500 } }}
        />
        <Typography id={resubmitId} variant="body2" color="text.secondary">
          {allowResubmission
            ? "A student who submits again keeps their earlier work: the new submission is listed as their next attempt."
            : 'Each student (by email) can submit once. Turn this on to let students submit again.'}
        </Typography>
        <Button onClick={() => setConfirmRotate(true)} disabled={update.isPending} sx={{ mt: 1.5, ml: -1.5 }}>
          Create a new link
        </Button>
        <ConfirmDialog
          open={confirmRotate}
          title="Create a new link?"
          description="The current link will stop working. Students who have it will need the new one."
          confirmLabel="Create new link"
          onConfirm={rotate}
          onClose={() => setConfirmRotate(false)}
          pending={update.isPending}
        />
      </>
    );
  }

  return (
    <Card component="section" aria-labelledby={headingId}>
      <CardContent sx={{ p: { xs: 2, sm: 3 }, '&:last-child': { pb: { xs: 2.5, sm: 3 } } }}>
        <Typography id={headingId} variant="h2" sx={{ fontSize: '1.25rem', mb: 0.5 }}>
          Student submission link
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Share this link so students can hand in their own work.
        </Typography>
        {body}
      </CardContent>
    </Card>
  );
}
