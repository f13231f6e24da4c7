import ChevronLeftRounded from '@mui/icons-material/ChevronLeftRounded';
import ChevronRightRounded from '@mui/icons-material/ChevronRightRounded';
import DownloadRounded from '@mui/icons-material/DownloadRounded';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import HistoryRounded from '@mui/icons-material/HistoryRounded';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { MarkdownEditor } from '../../../components/MarkdownEditor';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { DOCX_FILE_NAME, downloadDocx, saveBlob } from '../api/download-docx';
import { listVersions, viewVersion, type VersionSelection } from '../lib/versions';
import type { PastDocument } from '../types';
import { Markdown } from './Markdown';

/** Props of {@link DocumentPane}. */
export interface DocumentPaneProps {
  document: string;
  pastDocuments: PastDocument[];
  /** Message indexes whose version is the teacher's own edit ("Your edit"), see `editIndexes`. */
  edits?: ReadonlySet<number>;
  /** An answer is streaming: the document may be changing under the teacher's eyes. */
  streaming: boolean;
  onChange: (document: string) => void;
}

/**
 * The chat's document: the current one (rendered, or a rich-text editor to edit it by hand),
 * earlier versions to step back through or pick from the versions list (read-only, each with "Use
 * this version"; the teacher's own edits are labelled "Your edit"), and the Word download.
 */
export function DocumentPane({ document, pastDocuments, edits, streaming, onChange }: DocumentPaneProps) {
  const { showToast } = useToast();
  const headingId = useId();
  const [selected, setSelected] = useState<VersionSelection>('current');
  const [editing, setEditing] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [versionsAnchor, setVersionsAnchor] = useState<HTMLElement | null>(null);
  const versionsMenuId = useId();
  // A new version or an answer streaming brings the pane back to the current document.
  const [seen, setSeen] = useState({ count: pastDocuments.length, streaming });
  if (seen.count !== pastDocuments.length || seen.streaming !== streaming) {
    setSeen({ count: pastDocuments.length, streaming });
    setSelected('current');
    if (streaming) setEditing(false);
  }

  const view = viewVersion(pastDocuments, document, selected, edits);
  const versions = listVersions(pastDocuments, document, selected, edits);
  const isEditing = editing && !view.readOnly && !streaming;

  const download = async () => {
    setDownloading(true);
    try {
      saveBlob(await downloadDocx(view.shown), DOCX_FILE_NAME);
    } catch (err) {
      showToast({ type: 'error', message: errorMessage(err, 'The Word file could not be made. Please try again.') });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ borderRadius: '12px', p: 2, display: 'flex', flexDirection: 'column', gap: 1.5, minWidth: 0 }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, justifyContent: 'space-between' }}>
        <Typography id={headingId} variant="h2" sx={{ fontSize: '1.125rem' }}>
          Document
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {!view.readOnly && (
            <Button
              size="small"
              startIcon={isEditing ? <VisibilityOutlined /> : <EditOutlined />}
              onClick={() => setEditing((e) => !e)}
              disabled={streaming}
              aria-pressed={isEditing}
            >
              {isEditing ? 'Preview' : 'Edit'}
            </Button>
          )}
          <Button
            size="small"
            variant="contained"
            startIcon={<DownloadRounded />}
            onClick={() => void download()}
            loading={downloading}
            disabled={streaming || view.shown.trim() === ''}
          >
            Download Word
          </Button>
        </Box>
      </Box>

      {(pastDocuments.length > 0 || view.label) && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap' }}>
          <IconButton
            size="small"
            aria-label="Previous version"
            disabled={view.prev === null || streaming}
            onClick={() => view.prev !== null && setSelected(view.prev)}
          >
            <ChevronLeftRounded />
          </IconButton>
          <Typography variant="body2" aria-live="polite" sx={{ minWidth: 0 }}>
            {view.label}
          </Typography>
          <IconButton
            size="small"
            aria-label="Next version"
            disabled={view.next === null || streaming}
            onClick={() => view.next !== null && setSelected(view.next)}
          >
            <ChevronRightRounded />
          </IconButton>
          {versions.length > 1 && (
            <>
              <Button
                size="small"
                startIcon={<HistoryRounded />}
                endIcon={<ExpandMoreRounded />}
                aria-haspopup="menu"
                aria-controls={versionsAnchor ? versionsMenuId : undefined}
                aria-expanded={versionsAnchor ? 'true' : undefined}
                disabled={streaming}
                onClick={(event) => setVersionsAnchor(event.currentTarget)}
              >
                Versions
              </Button>
              <Menu id={versionsMenuId} anchorEl={versionsAnchor} open={versionsAnchor !== null} onClose={() => setVersionsAnchor(null)}>
                {versions.map((v) => (
                  <MenuItem
                    key={v.label}
                    selected={v.selected}
                    onClick={() => {
                      setSelected(v.selection);
                      setVersionsAnchor(null);
                    }}
                  >
                    <ListItemText primary={v.label} secondary={v.selection === 'current' ? 'Current document' : undefined} />
                  </MenuItem>
                ))}
              </Menu>
            </>
          )}
          {view.readOnly && (
            <Button
              size="small"
              variant="outlined"
              sx={{ ml: 'auto' }}
              onClick={() => {
                onChange(view.shown);
                setSelected('current');
              }}
            >
              Use this version
            </Button>
          )}
        </Box>
      )}
      {view.readOnly && (
        <Typography variant="caption" color="text.secondary">
          An earlier version, read-only.
        </Typography>
      )}

      {isEditing ? (
        <MarkdownEditor label="Edit the document" value={document} onChange={onChange} minHeight={320} maxHeight="70vh" autoFocus />
      ) : (
        <Box
          aria-label={view.readOnly ? 'Earlier version' : 'Current document'}
          role="document"
          sx={{ minWidth: 0, maxHeight: { md: '70vh' }, overflowY: { md: 'auto' } }}
        >
          {view.shown.trim() === '' ? (
            <Typography color="text.secondary">The document is empty.</Typography>
          ) : (
            <Markdown>{view.shown}</Markdown>
          )}
        </Box>
      )}
    </Paper>
  );
}
