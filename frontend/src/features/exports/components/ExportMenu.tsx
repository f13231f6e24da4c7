import CheckBoxOutlineBlankRounded from '@mui/icons-material/CheckBoxOutlineBlankRounded';
import CheckBoxRounded from '@mui/icons-material/CheckBoxRounded';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { exportResults, saveBlob, type ExportFormat } from '../api/export-results';

/** Props for {@link ExportMenu}. */
export interface ExportMenuProps {
  assignmentId: string;
  /** The selected rows' submission ids; with none, every submission is exported. */
  selectedIds: string[];
  /** Disables the button (e.g. while there is nothing to export). */
  disabled?: boolean;
}

const FORMATS: { format: ExportFormat; label: string }[] = [
  { format: 'csv', label: 'CSV' },
  { format: 'xlsx', label: 'Excel (XLSX)' },
];

/**
 * "Export" in the submissions toolbar: the results as CSV or Excel, of the selected rows when some
 * are selected ("Export 3 selected"), else of every submission, with the feedback text when the
 * teacher ticks it. The file downloads at once; the button spins meanwhile, and a refusal shows
 * the server's message.
 */
export function ExportMenu({ assignmentId, selectedIds, disabled = false }: ExportMenuProps) {
  const { showToast } = useToast();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [includeFeedback, setIncludeFeedback] = useState(false);
  const [pending, setPending] = useState<ExportFormat | null>(null);
  const label = selectedIds.length > 0 ? `Export ${selectedIds.length} selected` : 'Export';

  async function run(format: ExportFormat) {
    setAnchor(null);
    setPending(format);
    try {
      const file = await exportResults({
        assignmentId,
        format,
        ...(selectedIds.length > 0 ? { submissionIds: selectedIds } : {}),
        includeFeedback,
      });
      saveBlob(file.blob, file.fileName);
    } catch (error) {
      showToast({ type: 'error', message: errorMessage(error, "We couldn't export the results. Please try again.") });
    } finally {
      setPending(null);
    }
  }

  return (
    <>
      <Button
        variant="outlined"
        size="small"
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        aria-busy={pending !== null}
        startIcon={pending ? <CircularProgress size={16} color="inherit" aria-label="Exporting" /> : <FileDownloadOutlined />}
        onClick={(e) => setAnchor(e.currentTarget)}
        disabled={disabled || pending !== null}
      >
        {label}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {FORMATS.map(({ format, label: name }) => (
          <MenuItem key={format} onClick={() => void run(format)}>
            <ListItemText>{name}</ListItemText>
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          role="menuitemcheckbox"
          aria-checked={includeFeedback}
          onClick={() => setIncludeFeedback((on) => !on)}
          dense
        >
          <ListItemIcon>
            {/* A picture of a tick box: the menu item itself is the checkbox (a real one inside would nest controls). */}
            {includeFeedback ? <CheckBoxRounded fontSize="small" color="primary" aria-hidden /> : <CheckBoxOutlineBlankRounded fontSize="small" aria-hidden />}
          </ListItemIcon>
          <ListItemText>Include feedback text</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
