import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { criteriaLabel } from '../../lib/labels';
import type { DefinitionProps } from '../page/definition-props';
import { RubricTable } from '../view/RubricTable';

/** A rubric-feedback assignment's rubric, read-only (or a warning when it was deleted). */
export function RubricFeedbackDefinition({ fn }: DefinitionProps) {
  if (!fn.rubric) {
    return <Alert severity="warning">The rubric of this assignment is no longer in your team&apos;s library.</Alert>;
  }
  return (
    <Stack spacing={1.5}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 1.5 }}>
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{fn.rubric.name}</Typography>
        <Typography variant="body2" color="text.secondary">
          {criteriaLabel(fn.rubric.criteria.length)}
        </Typography>
      </Box>
      <RubricTable rubric={fn.rubric} />
    </Stack>
  );
}
