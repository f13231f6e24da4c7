import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { AnswerBox } from '../api/types';
import { roundFraction, toPercent } from '../lib/geometry';
import type { BoxRect } from '../hooks/use-box-draft';

/** Props for {@link BoxFields}. */
export interface BoxFieldsProps {
  /** The selected question's label, e.g. "1a". */
  label: string;
  /** Its box, or undefined when it has none yet. */
  box: AnswerBox | undefined;
  /** 0-based page shown, where "Add a box" puts a new box. */
  page: number;
  onAdd: (rect: BoxRect) => void;
  onChange: (change: Partial<BoxRect>) => void;
}

type Field = keyof BoxRect;

const FIELDS: { field: Field; label: string }[] = [
  { field: 'x', label: 'Left' },
  { field: 'y', label: 'Top' },
  { field: 'width', label: 'Width' },
  { field: 'height', label: 'Height' },
];

/** Where "Add a box" puts a box before the teacher adjusts it. */
const NEW_BOX: BoxRect = { x: 0.1, y: 0.1, width: 0.8, height: 0.2 };

/** The percent range a field accepts, given the rest of the box: the box stays on the page. */
function range(field: Field, box: BoxRect): [number, number] {
  const pct = (v: number) => Math.round(v * 1000) / 10;
  switch (field) {
    case 'x':
      return [0, pct(1 - box.width)];
    case 'y':
      return [0, pct(1 - box.height)];
    case 'width':
      return [1, pct(1 - box.x)];
    case 'height':
      return [1, pct(1 - box.y)];
  }
}

/**
 * The keyboard way to place a box: its left, top, width and height as percents of the page,
 * for the selected question. Each valid value moves the box at once; a value that would take the
 * box off the page (or is not a number) is refused with a message and leaves the box as it was.
 */
export function BoxFields({ label, box, page, onAdd, onChange }: BoxFieldsProps) {
  // What the teacher is typing, per field, until the field loses focus.
  const [typed, setTyped] = useState<Partial<Record<Field, string>>>({});

  if (!box) {
    return (
      <Box>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Question {label} has no box yet. Draw it on the page, or add one and type where it goes.
        </Typography>
        <Button variant="outlined" size="small" onClick={() => onAdd(NEW_BOX)}>
          Add a box on page {page + 1}
        </Button>
      </Box>
    );
  }

  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography component="legend" variant="body2" sx={{ fontWeight: 600, mb: 1, p: 0 }}>
        Box for question {label}, page {box.page + 1} (percent of the page)
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 1.5 }}>
        {FIELDS.map(({ field, label: fieldLabel }) => {
          const [min, max] = range(field, box);
          const text = typed[field] ?? toPercent(box[field]);
          const value = Number(text);
          const invalid = typed[field] !== undefined && (text.trim() === '' || !(value >= min && value <= max));
          return (
            <TextField
              key={field}
              label={fieldLabel}
              type="number"
              size="small"
              value={text}
              error={invalid}
              helperText={invalid ? `Enter a number from ${min} to ${max}` : undefined}
              onChange={(event) => {
                const next = event.target.value;
                setTyped((prev) => ({ ...prev, [field]: next }));
                const n = Number(next);
                if (next.trim() !== '' && n >= min && n <= max) onChange({ [field]: roundFraction(n / 100) });
              }}
              onBlur={() => {
                // A refused value stays, with its message, until the teacher fixes it.
                if (!invalid) setTyped((prev) => ({ ...prev, [field]: undefined }));
              }}
              slotProps={{
                htmlInput: { min, max, step: 0.1, inputMode: 'decimal' },
                input: { endAdornment: <InputAdornment position="end">%</InputAdornment> },
              }}
            />
          );
        })}
      </Box>
    </Box>
  );
}
