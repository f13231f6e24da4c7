import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useId } from 'react';

/** Props for {@link SettingSwitch}. */
export interface SettingSwitchProps {
  label: string;
  /** A line explaining the setting, read out as the switch's description. */
  description: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/** A labelled on/off setting with a short explanation under its label. */
export function SettingSwitch({ label, description, checked, onChange }: SettingSwitchProps) {
  const descriptionId = useId();
  return (
    <Box>
      <FormControlLabel
        control={
          <Switch
            checked={checked}
            onChange={(event) => onChange(event.target.checked)}
            slotProps={{ input: { 'aria-describedby': descriptionId } }}
          />
        }
        label={label}
        sx={{ ml: -1, '& .MuiFormControlLabel-label': { fontWeight: 500 } }}
      />
      <Typography id={descriptionId} variant="body2" color="text.secondary" sx={{ pl: 5.75, mt: -0.5 }}>
        {description}
      </Typography>
    </Box>
  );
}
