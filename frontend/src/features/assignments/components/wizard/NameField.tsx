import TextField from '@mui/material/TextField';
import { lengthHint } from '../../../../lib/length-hint';

/** Longest assignment name the form accepts. */
export const MAX_NAME_LENGTH = 200;

/** Props for {@link NameField}. */
export interface NameFieldProps {
  value: string;
  onChange: (value: string) => void;
  autoFocus?: boolean;
}

/** The assignment's name. */
export function NameField({ value, onChange, autoFocus = true }: NameFieldProps) {
  return (
    <TextField
      label="Assignment name"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      required
      autoFocus={autoFocus}
      autoComplete="off"
      placeholder="e.g. Persuasive essay: school uniforms"
      helperText={lengthHint(value, MAX_NAME_LENGTH) ?? 'Your team sees this name in the library.'}
      slotProps={{ htmlInput: { maxLength: MAX_NAME_LENGTH } }}
    />
  );
}

/** Why a name cannot be used yet, or null. */
export function nameProblem(name: string): string | null {
  return name.trim() === '' ? 'Enter a name for the assignment to continue.' : null;
}

/** Shared explanations of the assignment flags. */
export const HANDWRITTEN_HELP = 'Submissions are scans or photos of handwritten work.';
export const INSTANT_FEEDBACK_HELP = 'Students see their grade and feedback as soon as they submit.';
