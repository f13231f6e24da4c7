import AlternateEmailRounded from '@mui/icons-material/AlternateEmailRounded';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import DownloadRounded from '@mui/icons-material/DownloadRounded';
import DriveFileRenameOutlineRounded from '@mui/icons-material/DriveFileRenameOutlineRounded';
import TextSnippetOutlined from '@mui/icons-material/TextSnippetOutlined';
import type { ReactNode } from 'react';
import { ActionsMenu } from '../../../components/ActionsMenu';
import type { Submission } from '../api/types';

/** What a teacher can do with one submission. */
export type SubmissionAction = 'rename' | 'email' | 'view' | 'download' | 'delete';

const ITEMS: { action: SubmissionAction; label: string; icon: ReactNode }[] = [
  { action: 'rename', label: 'Rename', icon: <DriveFileRenameOutlineRounded fontSize="small" /> },
  { action: 'email', label: 'Set student email', icon: <AlternateEmailRounded fontSize="small" /> },
  { action: 'view', label: 'View text', icon: <TextSnippetOutlined fontSize="small" /> },
  { action: 'download', label: 'Download original', icon: <DownloadRounded fontSize="small" /> },
  { action: 'delete', label: 'Delete', icon: <DeleteOutlineRounded fontSize="small" /> },
];

/**
 * The "More" button of a submission row and its menu: rename, set the student's email, view the
 * text, download the original file (rows with a file), delete. A standard menu button, usable from the keyboard.
 */
export function SubmissionActionsMenu({ submission, onAction }: { submission: Submission; onAction: (action: SubmissionAction) => void }) {
  const actions = ITEMS.filter(({ action }) => action !== 'download' || submission.location !== '').map(({ action, label, icon }) => ({
    label,
    icon,
    onSelect: () => onAction(action),
    destructive: action === 'delete',
  }));
  return <ActionsMenu label={`Actions for ${submission.name}`} actions={actions} />;
}
