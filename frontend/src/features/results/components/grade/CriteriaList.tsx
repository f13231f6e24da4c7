import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Typography from '@mui/material/Typography';
import { formatPoints } from '../../lib/answers';
import type { QuestionInfo } from '../../lib/definition';

/** Props for {@link CriteriaList}. */
export interface CriteriaListProps {
  /** The answer's label ("1b"), naming the group for screen readers. */
  label: string;
  criteria: QuestionInfo['criteria'];
  /** Which criteria the answer meets. */
  met: readonly boolean[];
  readOnly?: boolean;
  /** Shows each criterion's number key (1–9): this is the answer the keys act on. */
  showKeys?: boolean;
  onToggle: (criterionIndex: number) => void;
}

function pointsLabel(points: number): string {
  return `${formatPoints(points)} ${Math.abs(points) === 1 ? 'pt' : 'pts'}`;
}

/** The criteria of one answer as checkboxes: ticked when met; labelled with description and points. */
export function CriteriaList({ label, criteria, met, readOnly = false, showKeys = false, onToggle }: CriteriaListProps) {
  if (criteria.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No criteria for this question.
      </Typography>
    );
  }
  return (
    <FormGroup aria-label={`Criteria of question ${label}`} role="group">
      {criteria.map((criterion, index) => (
        <FormControlLabel
          key={index}
          disabled={readOnly}
          sx={{ alignItems: 'flex-start', mr: 0, py: 0.25, '& .MuiCheckbox-root': { mt: -0.75 } }}
          control={
            <Checkbox
              checked={met[index] === true}
              onChange={() => onToggle(index)}
              size="small"
              sx={{ '&.Mui-focusVisible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -4 } }}
            />
          }
          label={
            // Inline text flow, so on a phone the description wraps under its key, not onto a line of its own.
            <Box component="span" sx={{ display: 'block' }}>
              {showKeys && index < 9 && (
                <Box
                  component="kbd"
                  aria-hidden="true"
                  sx={{ display: 'inline-block', mr: 1, fontFamily: 'inherit', fontSize: '0.75rem', fontWeight: 600, px: 0.75, borderRadius: 1, border: 1, borderColor: 'divider', color: 'text.secondary' }}
                >
                  {index + 1}
                </Box>
              )}
              <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
                {criterion.description.trim() || `Criterion ${index + 1}`}
              </Box>{' '}
              <Box component="span" sx={{ color: 'text.secondary', whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                ({pointsLabel(criterion.points)})
              </Box>
            </Box>
          }
        />
      ))}
    </FormGroup>
  );
}
