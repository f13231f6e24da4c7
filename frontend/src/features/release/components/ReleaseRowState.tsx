import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import LinkOffRounded from '@mui/icons-material/LinkOffRounded';
import Box from '@mui/material/Box';
import Chip, { type ChipProps } from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import { Tooltip } from '../../../components/Tooltip';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { copyText } from '../../../lib/clipboard';
import { useRevoke, useRowRelease } from '../api/releases';
import type { Release } from '../api/types';

/** A release's chip: its label, colour and what the tooltip explains. */
export function releaseChip(r: Release | undefined): { label: string; color: ChipProps['color']; hint: string } {
  if (!r || r.state === 'not-released') return { label: 'Not released', color: 'default', hint: 'The student cannot see this result yet.' };
  if (r.state === 'revoked') return { label: 'Not released', color: 'default', hint: 'The link was revoked: it no longer opens.' };
  switch (r.email) {
    case 'sent':
      return { label: 'Emailed', color: 'success', hint: `Released and emailed to ${r.studentEmail}.` };
    case 'bounced':
      return { label: 'Bounced', color: 'error', hint: `The email to ${r.studentEmail} bounced: ${r.emailError ?? ''}`.trim() };
    case 'failed':
      return { label: 'Failed', color: 'error', hint: `The email could not be sent: ${r.emailError ?? ''}`.trim() };
    case 'queued':
      return { label: 'Released', color: 'success', hint: r.emailError ? `Released; the email is waiting. ${r.emailError}` : 'Released; the email is being sent.' };
    default:
      return { label: 'Released', color: 'success', hint: 'Released: the student can open their result with the link.' };
  }
}

/** Props of {@link ReleaseRowState}. */
export interface ReleaseRowStateProps {
  assignmentId: string;
  submissionId: string;
  /** The row's name, for the buttons' labels. */
  name: string;
}

/**
 * A submissions row's release: a chip (Not released, Released, Emailed, Bounced, Failed, the
 * reason in its tooltip) and, while released, "Copy link" and "Revoke" (after a confirmation: a
 * revoked link never opens again, and releasing again hands out a new one).
 */
export function ReleaseRowState({ assignmentId, submissionId, name }: ReleaseRowStateProps) {
  const { data } = useRowRelease(assignmentId, submissionId);
  const r = data ?? undefined;
  const chip = releaseChip(r);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.25, mt: 0.75 }}>
      <Tooltip title={chip.hint}>
        <Chip size="small" variant="outlined" color={chip.color} label={chip.label} tabIndex={0} aria-label={`${chip.label}. ${chip.hint}`} />
      </Tooltip>
      {r?.state === 'released' && r.link && <LiveLinkActions assignmentId={assignmentId} submissionId={submissionId} name={name} link={r.link} />}
    </Box>
  );
}

/**
 * A live link's "Copy link" and "Revoke": drawn only on released rows, so the rows of a class not yet
 * released (most of them, most of the time) carry no mutation, toast or dialog of their own.
 */
function LiveLinkActions({ assignmentId, submissionId, name, link }: ReleaseRowStateProps & { link: string }) {
  const revoke = useRevoke();
  const { showToast } = useToast();
  const [confirming, setConfirming] = useState(false);

  async function copy() {
    const ok = await copyText(link);
    showToast(ok ? { type: 'success', message: `Copied the link for ${name}.` } : { type: 'error', message: "We couldn't copy the link. Download the links (CSV) instead." });
  }

  async function revokeLink() {
    try {
      await revoke.mutateAsync({ assignmentId, submissionIds: [submissionId] });
      showToast({ type: 'success', message: `Revoked the link for ${name}: it no longer opens.` });
    } catch (error) {
      showToast({ type: 'error', message: errorMessage(error, "We couldn't revoke the link. Please try again.") });
    } finally {
      setConfirming(false);
    }
  }

  return (
    <>
      <Tooltip title="Copy link">
        <IconButton size="small" aria-label={`Copy link for ${name}`} onClick={() => void copy()}>
          <ContentCopyRounded fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title="Revoke">
        <span>
          <IconButton size="small" aria-label={`Revoke link for ${name}`} onClick={() => setConfirming(true)} disabled={revoke.isPending}>
            <LinkOffRounded fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <ConfirmDialog
        open={confirming}
        title={`Revoke the link for ${name}?`}
        description="The student's link stops opening at once, including in an email already sent. Releasing again later gives them a new link."
        confirmLabel="Revoke link"
        onConfirm={() => void revokeLink()}
        onClose={() => setConfirming(false)}
        pending={revoke.isPending}
      />
    </>
  );
}
