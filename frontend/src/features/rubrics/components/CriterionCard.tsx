import AddRounded from '@mui/icons-material/AddRounded';
import ArrowDownwardRounded from '@mui/icons-material/ArrowDownwardRounded';
import ArrowUpwardRounded from '@mui/icons-material/ArrowUpwardRounded';
import ChevronLeftRounded from '@mui/icons-material/ChevronLeftRounded';
import ChevronRightRounded from '@mui/icons-material/ChevronRightRounded';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { Tooltip } from '../../../components/Tooltip';
import Typography from '@mui/material/Typography';
import { memo, type ReactNode } from 'react';
import {
  CRITERION_PLACEHOLDER,
  LEVEL_PLACEHOLDER,
  levelWorth,
  parsePoints,
  type DraftAction,
  type DraftCriterion,
  type DraftLevel,
} from '../rubric-draft';

/** Element ids of a criterion's or level's controls, so the editor can move focus after a change. */
export const controlId = {
  criterionDescription: (key: string) => `${key}-description`,
  criterionUp: (key: string) => `${key}-up`,
  criterionDown: (key: string) => `${key}-down`,
  levelDescription: (key: string) => `${key}-level`,
  levelEarlier: (key: string) => `${key}-earlier`,
  levelLater: (key: string) => `${key}-later`,
  addLevel: (key: string) => `${key}-add-level`,
};

/** Props for {@link CriterionCard}. */
export interface CriterionCardProps {
  criterion: DraftCriterion;
  index: number;
  count: number;
  /** Mark empty required fields (after the teacher tried to save). */
  showErrors: boolean;
  onChange: (action: DraftAction) => void;
}

/** A small icon button with a tooltip; its accessible name is `label`. */
function ToolButton({
  label,
  id,
  disabled,
  onClick,
  children,
}: {
  label: string;
  id?: string;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  const button = (
    <IconButton id={id} size="small" aria-label={label} disabled={disabled} onClick={onClick} sx={{ color: 'text.secondary' }}>
      {children}
    </IconButton>
  );
  // A disabled button fires no events, so its tooltip needs a wrapper (and none is needed then).
  return disabled ? button : <Tooltip title={label}>{button}</Tooltip>;
}

const whiteField = { '& .MuiInputBase-root': { bgcolor: 'background.paper' } };

/**
 * One criterion of the rubric editor: its description and point-range switch on the left, its
 * levels as columns on the right (stacked on phones). Every control is a button or field, so
 * reordering and removing work from the keyboard.
 */
export const CriterionCard = memo(function CriterionCard({ criterion, index, count, showErrors, onChange }: CriterionCardProps) {
  const number = index + 1;
  const headingId = `${criterion.key}-heading`;
  const descriptionEmpty = criterion.description.trim() === '';

  return (
    <Paper
      variant="outlined"
      role="group"
      aria-labelledby={headingId}
      sx={{
        borderRadius: '12px',
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', md: '240px minmax(0, 1fr)' },
        overflow: 'hidden',
      }}
    >
      <Box
        sx={{
          p: 2,
          bgcolor: '#fbfaf7',
          borderRight: { md: 1 },
          borderBottom: { xs: 1, md: 0 },
          borderColor: { xs: 'divider', md: 'divider' },
          display: 'flex',
          flexDirection: 'column',
          gap: 1.5,
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minHeight: 34 }}>
          <Typography
            id={headingId}
            component="h3"
            sx={{ flex: 1, fontWeight: 600, fontSize: '0.8125rem', letterSpacing: '0.06em', textTransform: 'uppercase', color: 'text.secondary' }}
          >
            Criterion {number}
          </Typography>
          <ToolButton
            id={`${criterion.key}-up`}
            label={`Move criterion ${number} up`}
            disabled={index === 0}
            onClick={() => onChange({ type: 'moveCriterion', criterion: index, by: -1 })}
          >
            <ArrowUpwardRounded fontSize="small" />
          </ToolButton>
          <ToolButton
            id={`${criterion.key}-down`}
            label={`Move criterion ${number} down`}
            disabled={index === count - 1}
            onClick={() => onChange({ type: 'moveCriterion', criterion: index, by: 1 })}
          >
            <ArrowDownwardRounded fontSize="small" />
          </ToolButton>
          <ToolButton
            label={`Remove criterion ${number}`}
            disabled={count <= 1}
            onClick={() => onChange({ type: 'removeCriterion', criterion: index })}
          >
            <DeleteOutlineRounded fontSize="small" />
          </ToolButton>
        </Box>
        <TextField
          id={controlId.criterionDescription(criterion.key)}
          multiline
          minRows={2}
          size="small"
          placeholder={CRITERION_PLACEHOLDER}
          value={criterion.description}
          onChange={(event) => onChange({ type: 'setCriterionDescription', criterion: index, description: event.target.value })}
          error={showErrors && descriptionEmpty}
          helperText={showErrors && descriptionEmpty ? 'Criterion description cannot be empty' : undefined}
          slotProps={{ htmlInput: { 'aria-label': `Criterion ${number} description` } }}
          sx={whiteField}
        />
        <FormControlLabel
          control={
            <Switch
              checked={criterion.useRange}
              onChange={(event) => onChange({ type: 'setUseRange', criterion: index, useRange: event.target.checked })}
            />
          }
          label="Point ranges"
          sx={{ mr: 0 }}
        />
      </Box>

      <Box
        sx={{
          p: 2,
          display: 'flex',
          flexDirection: { xs: 'column', md: 'row' },
          alignItems: 'stretch',
          gap: 1.5,
          overflowX: { md: 'auto' },
          minWidth: 0,
        }}
      >
        {criterion.levels.map((level, levelIndex) => (
          <LevelCell
            key={level.key}
            level={level}
            index={levelIndex}
            count={criterion.levels.length}
            criterionIndex={index}
            useRange={criterion.useRange}
            worth={levelWorth(criterion, levelIndex)}
            showErrors={showErrors}
            onChange={onChange}
          />
        ))}
        <Button
          id={controlId.addLevel(criterion.key)}
          variant="outlined"
          startIcon={<AddRounded />}
          onClick={() => onChange({ type: 'addLevel', criterion: index })}
          sx={{
            flex: { md: '0 0 96px' },
            flexDirection: { md: 'column' },
            gap: { md: 0.5 },
            borderStyle: 'dashed',
            minHeight: { xs: 44, md: 'auto' },
            '& .MuiButton-startIcon': { m: { md: 0 } },
          }}
        >
          Add level
        </Button>
      </Box>
    </Paper>
  );
});

interface LevelCellProps {
  level: DraftLevel;
  index: number;
  count: number;
  criterionIndex: number;
  useRange: boolean;
  /** What the level is worth in words ("3 points", "2–4 points"), null while its range is incomplete. */
  worth: string | null;
  showErrors: boolean;
  onChange: (action: DraftAction) => void;
}

/**
 * One level: which it is (level 1 is the best) and what it is worth, its description, and min
 * and max points when point ranges are on.
 */
function LevelCell({ level, index, count, criterionIndex, useRange, worth, showErrors, onChange }: LevelCellProps) {
  const number = index + 1;
  const headingId = `${level.key}-heading`;
  const descriptionEmpty = level.description.trim() === '';
  const min = parsePoints(level.min);
  const max = parsePoints(level.max);
  const minAboveMax = min !== undefined && max !== undefined && min > max;
  const setPoints = (bound: 'min' | 'max') => (value: string) =>
    onChange({ type: 'setLevelPoints', criterion: criterionIndex, level: index, bound, value });

  return (
    <Box
      role="group"
      aria-labelledby={headingId}
      sx={{
        flex: { md: '1 1 0' },
        minWidth: { md: 170 },
        border: 1,
        borderColor: 'divider',
        borderRadius: '10px',
        p: 1.5,
        display: 'flex',
        flexDirection: 'column',
        gap: 1.25,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.25, minHeight: 30 }}>
        <Typography id={headingId} component="h4" variant="body2" sx={{ flex: 1, fontWeight: 600 }}>
          Level {number}
        </Typography>
        <ToolButton
          id={`${level.key}-earlier`}
          label={`Move level ${number} earlier`}
          disabled={index === 0}
          onClick={() => onChange({ type: 'moveLevel', criterion: criterionIndex, level: index, by: -1 })}
        >
          <ChevronLeftRounded fontSize="small" sx={{ display: { xs: 'none', md: 'block' } }} />
          <ArrowUpwardRounded fontSize="small" sx={{ display: { xs: 'block', md: 'none' } }} />
        </ToolButton>
        <ToolButton
          id={`${level.key}-later`}
          label={`Move level ${number} later`}
          disabled={index === count - 1}
          onClick={() => onChange({ type: 'moveLevel', criterion: criterionIndex, level: index, by: 1 })}
        >
          <ChevronRightRounded fontSize="small" sx={{ display: { xs: 'none', md: 'block' } }} />
          <ArrowDownwardRounded fontSize="small" sx={{ display: { xs: 'block', md: 'none' } }} />
        </ToolButton>
        <ToolButton
          label={`Remove level ${number}`}
          disabled={count <= 1}
          onClick={() => onChange({ type: 'removeLevel', criterion: criterionIndex, level: index })}
        >
          <DeleteOutlineRounded fontSize="small" />
        </ToolButton>
      </Box>
      <Typography variant="caption" color="text.secondary" sx={{ mt: -1 }}>
        {index === 0 ? 'Best level · ' : ''}
        {worth ? `worth ${worth}` : 'worth the points set below'}
      </Typography>
      <TextField
        id={controlId.levelDescription(level.key)}
        multiline
        minRows={3}
        size="small"
        placeholder={LEVEL_PLACEHOLDER}
        value={level.description}
        onChange={(event) =>
          onChange({ type: 'setLevelDescription', criterion: criterionIndex, level: index, description: event.target.value })
        }
        error={showErrors && descriptionEmpty}
        helperText={showErrors && descriptionEmpty ? 'Level description cannot be empty' : undefined}
        slotProps={{ htmlInput: { 'aria-label': `Level ${number} description` } }}
        sx={whiteField}
      />
      {useRange && (
        <Box>
          <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
            <PointsField
              label="Min"
              accessibleName={`Level ${number} min points`}
              value={level.min}
              error={(showErrors && min === undefined) || minAboveMax}
              onChange={setPoints('min')}
            />
            <PointsField
              label="Max"
              accessibleName={`Level ${number} max points`}
              value={level.max}
              error={(showErrors && max === undefined) || minAboveMax}
              onChange={setPoints('max')}
            />
          </Box>
          {minAboveMax && (
            <Typography variant="caption" color="error" sx={{ display: 'block', mt: 0.5 }}>
              Min is above max
            </Typography>
          )}
        </Box>
      )}
    </Box>
  );
}

function PointsField({
  label,
  accessibleName,
  value,
  error,
  onChange,
}: {
  label: string;
  accessibleName: string;
  value: string;
  error: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <TextField
      label={label}
      type="number"
      size="small"
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ htmlInput: { 'aria-label': accessibleName, inputMode: 'decimal', step: 'any' } }}
      sx={whiteField}
    />
  );
}
