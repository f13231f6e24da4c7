import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import type { WorkflowField } from '../api/types';

/** Props for {@link WorkflowSummary}. */
export interface WorkflowSummaryProps {
  fields: WorkflowField[];
  /** The answers the run was started with, by field name. */
  inputs: Record<string, string>;
  onChange: () => void;
}

/** The answers a workflow run started from, folded into a short list, with "Change answers". */
export function WorkflowSummary({ fields, inputs, onChange }: WorkflowSummaryProps) {
  const headingId = useId();
  const answered = fields.filter((field) => (inputs[field.name] ?? '') !== '');
  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      variant="outlined"
      sx={{ p: { xs: 2, sm: 2.5 }, borderRadius: '12px', mb: 3 }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography id={headingId} variant="h2" sx={{ fontSize: '1.125rem' }}>
          Your answers
        </Typography>
        <Button startIcon={<EditOutlined />} onClick={onChange}>
          Change answers
        </Button>
      </Box>
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'minmax(120px, 200px) minmax(0, 1fr)' },
          columnGap: 2,
          rowGap: { xs: 0.25, sm: 1 },
          m: 0,
          mt: 1.5,
          '& dt': { color: 'text.secondary', typography: 'body2', fontWeight: 600 },
        }}
      >
        {answered.map((field) => (
          <Box key={field.name} sx={{ display: 'contents' }}>
            <dt>{field.label}</dt>
            <Box
              component="dd"
              sx={{
                m: 0,
                mb: { xs: 1, sm: 0 },
                typography: 'body2',
                whiteSpace: 'pre-wrap',
                overflowWrap: 'anywhere',
              }}
            >
              {inputs[field.name]}
            </Box>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}
