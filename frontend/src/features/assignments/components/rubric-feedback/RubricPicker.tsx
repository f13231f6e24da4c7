import AddRounded from '@mui/icons-material/AddRounded';
import TableChartOutlined from '@mui/icons-material/TableChartOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { Rubric } from '../../api/types';
import { criteriaLabel } from '../../lib/labels';

/** Props for {@link RubricPicker}. */
export interface RubricPickerProps {
  rubrics: Rubric[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  value: string | null;
  onChange: (rubricId: string) => void;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

function updatedText(rubric: Rubric): string | null {
  const when = rubric.updatedAt ?? rubric.createdAt;
  if (!when) return null;
  const date = new Date(when);
  return Number.isNaN(date.getTime()) ? null : `Updated ${dateFormat.format(date)}`;
}

/**
 * The team's rubrics as a radio list (each with its criteria count), an empty state that sends
 * the teacher to create one, and loading and error states.
 */
export function RubricPicker({ rubrics, loading, failed, onRetry, value, onChange }: RubricPickerProps) {
  if (loading) {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 3, color: 'text.secondary' }}>
        <CircularProgress size={20} aria-label="Loading rubrics" />
        <Typography color="inherit">Loading your team&apos;s rubrics…</Typography>
      </Box>
    );
  }
  if (failed || !rubrics) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={onRetry}>
            Try again
          </Button>
        }
      >
        We couldn&apos;t load your team&apos;s rubrics.
      </Alert>
    );
  }
  if (rubrics.length === 0) {
    return (
      <Paper
        variant="outlined"
        sx={{ borderStyle: 'dashed', px: { xs: 2, sm: 4 }, py: 5, display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: 1.5 }}
      >
        <TableChartOutlined color="primary" aria-hidden="true" sx={{ fontSize: 36 }} />
        <Typography sx={{ fontWeight: 600 }}>Your team has no rubrics yet.</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 420 }}>
          A rubric-feedback assignment needs a saved rubric. Creating one leaves this wizard; come back when it&apos;s
          saved.
        </Typography>
        <Button component={RouterLink} to="/rubrics/new" variant="contained" startIcon={<AddRounded />}>
          Create a rubric first
        </Button>
      </Paper>
    );
  }
  return (
    <RadioGroup
      aria-label="Rubric"
      value={value ?? ''}
      onChange={(event) => onChange(event.target.value)}
      sx={{ display: 'grid', gap: 1.5 }}
    >
      {rubrics.map((r) => {
        const selected = r._id === value;
        const nameId = `rubric-${r._id}-name`;
        const detailId = `rubric-${r._id}-detail`;
        const updated = updatedText(r);
        return (
          <Box
            key={r._id}
            component="label"
            sx={{
              display: 'flex',
              alignItems: 'flex-start',
              gap: 1,
              p: 1.5,
              pr: 2,
              border: 1,
              borderRadius: '10px',
              cursor: 'pointer',
              borderColor: selected ? 'primary.main' : 'divider',
              bgcolor: selected ? 'rgba(23, 97, 107, 0.05)' : 'background.paper',
              boxShadow: selected ? 'inset 0 0 0 1px #17616b' : 'none',
              transition: 'border-color 120ms, background-color 120ms',
              '&:hover': { borderColor: 'primary.light' },
            }}
          >
            <Radio
              value={r._id}
              sx={{ mt: -0.5 }}
              slotProps={{ input: { 'aria-labelledby': nameId, 'aria-describedby': detailId } }}
            />
            <Box sx={{ minWidth: 0, pt: 0.25 }}>
              <Typography id={nameId} sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                {r.name}
              </Typography>
              <Typography id={detailId} variant="body2" color="text.secondary">
                {criteriaLabel(r.criteria.length)}
                {updated && ` · ${updated}`}
              </Typography>
            </Box>
          </Box>
        );
      })}
    </RadioGroup>
  );
}
