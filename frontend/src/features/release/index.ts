/**
 * Releasing results to students: the "Release" button of the submissions toolbar and its dialog
 * (all reviewed, or the selected rows; email when the server has SMTP; links CSV), and each row's
 * release chip with "Copy link" and "Revoke". The student opens a released result at
 * /results/:token (features/student).
 */
export { ReleaseButton, type ReleaseButtonProps } from './components/ReleaseButton';
export { ReleaseDialog, type ReleaseDialogProps } from './components/ReleaseDialog';
export { ReleaseRowState, releaseChip, type ReleaseRowStateProps } from './components/ReleaseRowState';
export { releaseKeys, useRowRelease, downloadLinksCsv } from './api/releases';
export type { Release, ReleaseState, EmailState } from './api/types';
