import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import type { RubricCriterion } from '../../../../lib/rubrics';
import { criterionMax, formatPoints, levelRange, pointsFit } from '../../lib/rubric';

/** One criterion's part of a rubric review. */
export interface CriterionDraft {
  level: number;
  /** The points as typed (a string while the teacher edits a range). */
  points: string;
  feedback: string;
}

/** Props of {@link CriterionReview}. */
export interface CriterionReviewProps {
  criterion: RubricCriterion;
  index: number;
  draft: CriterionDraft;
  readOnly?: boolean;
  onLevel: (level: number) => void;
  onPoints: (points: string) => void;
  onFeedback: (feedback: string) => void;
}

function rangeLabel([min, max]: [number, number]): string {
  if (min === max) return `${formatPoints(min)} ${min === 1 ? 'pt' : 'pts'}`;
  return `${formatPoints(min)}–${formatPoints(max)} pts`;
}

/**
 * A rubric criterion in a review: its levels as a radio group, the points (a number within the
 * level's range when the criterion uses ranges, else the level's), and the feedback on it.
 * Read-only, it shows the chosen level, the points and the feedback.
 */
export function CriterionReview({ criterion, index, draft, readOnly = false, onLevel, onPoints, onFeedback }: CriterionReviewProps) {
  const headingId = useId();
  const title = criterion.criterionDescription || `Criterion ${index + 1}`;
  const levels = criterion.levelDescriptions.length ? criterion.levelDescriptions : ['Level'];
  const range = levelRange(criterion, draft.level);
  const points = Number(draft.points);
  const fits = draft.points.trim() !== '' && pointsFit(criterion, draft.level, points);
  const max = criterionMax(criterion);

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ border: 1, borderColor: 'divider', borderRadius: '10px', p: 2 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, alignItems: 'baseline', mb: 1 }}>
        <Typography id={headingId} component="h4" variant="subtitle1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {title}
        </Typography>
        <Typography variant="body2" sx={{ fontWeight: 600, flexShrink: 0 }}>
          {`${fits ? formatPoints(points) : '–'} / ${formatPoints(max)} pts`}
        </Typography>
      </Box>
      {readOnly ? (
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          <strong>{`Level ${draft.level + 1}`}</strong>
          {levels[draft.level] ? `: ${levels[draft.level]}` : ''}
        </Typography>
      ) : (
        <RadioGroup
          aria-labelledby={headingId}
          name={`criterion-${index}`}
          value={String(draft.level)}
          onChange={(e) => onLevel(Number(e.target.value))}
        >
          {levels.map((description, level) => (
            <FormControlLabel
              key={level}
              value={String(level)}
              control={<Radio size="small" />}
              sx={{ alignItems: 'flex-start', mr: 0, '& .MuiRadio-root': { pt: 0.5 } }}
              label={
                <Typography variant="body2" sx={{ pt: 0.75, overflowWrap: 'anywhere' }}>
                  <strong>{`Level ${level + 1}`}</strong>
                  {description ? `: ${description}` : ''}
                  <Box component="span" sx={{ color: 'text.secondary' }}>{` (${rangeLabel(levelRange(criterion, level))})`}</Box>
                </Typography>
              }
            />
          ))}
        </RadioGroup>
      )}
      {!readOnly && criterion.useRange && range[0] !== range[1] && (
        <TextField
          label="Points"
          type="number"
          size="small"
          value={draft.points}
          onChange={(e) => onPoints(e.target.value)}
          error={!fits}
          helperText={fits ? `Between ${formatPoints(range[0])} and ${formatPoints(range[1])} for this level` : `Enter points between ${formatPoints(range[0])} and ${formatPoints(range[1])}.`}
          slotProps={{ htmlInput: { min: range[0], max: range[1], step: 'any', 'aria-label': `Points for ${title}` } }}
          sx={{ mt: 1.5, maxWidth: 260 }}
        />
      )}
      {readOnly ? (
        draft.feedback.trim() !== '' && (
          <Typography variant="body2" sx={{ mt: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {draft.feedback}
          </Typography>
        )
      ) : (
        <TextField
          label="Feedback"
          value={draft.feedback}
          onChange={(e) => onFeedback(e.target.value)}
          multiline
          minRows={2}
          fullWidth
          size="small"
          slotProps={{ htmlInput: { 'aria-label': `Feedback on ${title}` } }}
          sx={{ mt: 1.5 }}
        />
      )}
    </Box>
  );
}
