import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import type { Attachment, StudentSubmission } from '../api/types';

/** Props for {@link StudentWorkList}. */
export interface StudentWorkListProps {
  work: StudentSubmission[];
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
  disabled?: boolean;
}

function attachmentText(a: Attachment): string {
  const title = a.title || 'Untitled file';
  return a.mimeType === '' ? `${title} (not shared with you)` : title;
}

function WorkRow({ item, checked, onToggle, disabled }: { item: StudentSubmission; checked: boolean; onToggle: () => void; disabled: boolean }) {
  const nameId = useId();
  const detailsId = useId();
  const files = item.attachments.length > 0 ? item.attachments.map(attachmentText).join(', ') : 'No files attached';
  return (
    <Box
      component="label"
      sx={{
        display: 'flex',
        alignItems: 'flex-start',
        gap: 1,
        py: 1,
        borderTop: 1,
        borderColor: 'divider',
        cursor: disabled ? 'default' : 'pointer',
        '&:hover': disabled ? undefined : { bgcolor: 'action.hover' },
      }}
    >
      <Checkbox
        checked={checked}
        onChange={onToggle}
        disabled={disabled}
        slotProps={{ input: { 'aria-labelledby': nameId, 'aria-describedby': detailsId } }}
        sx={{ mt: -0.5 }}
      />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography id={nameId} sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {item.studentName || 'Unnamed student'}
        </Typography>
        <Box id={detailsId}>
          {item.studentEmail && (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {item.studentEmail}
            </Typography>
          )}
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {files}
          </Typography>
          {item.state === 'RETURNED' && (
            <Typography variant="body2" color="text.secondary">
              Already returned in Classroom
            </Typography>
          )}
        </Box>
      </Box>
    </Box>
  );
}

/**
 * The turned-in work on one Classroom assignment: a checkbox per student (name, email and the
 * titles of the attached files) and "Select all".
 */
export function StudentWorkList({ work, selected, onChange, disabled = false }: StudentWorkListProps) {
  const headingId = useId();
  const count = work.filter((w) => selected.has(w.id)).length;
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onChange(next);
  };
  return (
    <Box role="group" aria-labelledby={headingId}>
      <Typography id={headingId} variant="h6" component="h3" sx={{ fontSize: '1rem', mb: 0.5 }}>
        Turned-in work ({work.length})
      </Typography>
      <FormControlLabel
        label="Select all"
        disabled={disabled}
        control={
          <Checkbox
            checked={count === work.length}
            indeterminate={count > 0 && count < work.length}
            onChange={() => onChange(count === work.length ? new Set() : new Set(work.map((w) => w.id)))}
          />
        }
      />
      <Box>
        {work.map((item) => (
          <WorkRow key={item.id} item={item} checked={selected.has(item.id)} onToggle={() => toggle(item.id)} disabled={disabled} />
        ))}
      </Box>
    </Box>
  );
}
