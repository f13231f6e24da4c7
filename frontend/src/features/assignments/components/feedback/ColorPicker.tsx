import CheckRounded from '@mui/icons-material/CheckRounded';
import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Popover from '@mui/material/Popover';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { colorName, colorValue, formatColor, HUES, parseColor, SHADES, type Shade } from '../../lib/colors';

/** Props for {@link ColorPicker}. */
export interface ColorPickerProps {
  /** The colour as `<hue>-<shade>`, e.g. purple-500. */
  value: string;
  onChange: (color: string) => void;
}

/**
 * A button showing the current colour that opens a palette: a shade select (100–900) and a grid
 * of the 19 hues at that shade. Each swatch is a button named by its colour in words ("Purple");
 * picking one closes the palette.
 */
export function ColorPicker({ value, onChange }: ColorPickerProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const { hue, shade } = parseColor(value);
  const titleId = useId();

  return (
    <>
      <Button
        variant="outlined"
        color="inherit"
        aria-label={`Colour ${colorName(value)}`}
        aria-haspopup="dialog"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        endIcon={<ExpandMoreRounded />}
        sx={{ height: 56, minWidth: { sm: 188 }, justifyContent: 'flex-start', '& .MuiButton-endIcon': { ml: 'auto' }, borderColor: 'rgba(0, 0, 0, 0.23)', fontWeight: 500, whiteSpace: 'nowrap' }}
      >
        <Box
          component="span"
          aria-hidden="true"
          sx={{ width: 20, height: 20, borderRadius: '50%', bgcolor: colorValue(hue, shade), mr: 1, flexShrink: 0, boxShadow: 'inset 0 0 0 1px rgba(0,0,0,0.12)' }}
        />
        {colorName(value)}
      </Button>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        transformOrigin={{ vertical: 'top', horizontal: 'left' }}
        slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { p: 2, width: 304, maxWidth: 'calc(100vw - 32px)', mt: 0.5 } } }}
      >
        <Typography id={titleId} variant="h6" component="h3" sx={{ mb: 1.5 }}>
          Choose a colour
        </Typography>
        <TextField
          select
          size="small"
          label="Shade"
          value={shade}
          onChange={(event) => onChange(formatColor(hue, Number(event.target.value) as Shade))}
          slotProps={{ select: { native: true } }}
          sx={{ mb: 2 }}
        >
          {SHADES.map((s) => (
            <option key={s} value={s}>
              {s} · {s === 500 ? 'normal' : colorName(formatColor('red', s)).replace(/ red$/, '').toLowerCase()}
            </option>
          ))}
        </TextField>
        <Box
          role="group"
          aria-label="Hue"
          sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(32px, 1fr))', gap: 1 }}
        >
          {HUES.map((h) => {
            const color = formatColor(h, shade);
            const selected = h === hue;
            return (
              <ButtonBase
                key={h}
                aria-label={colorName(color)}
                aria-pressed={selected}
                title={colorName(color)}
                onClick={() => {
                  onChange(color);
                  setAnchor(null);
                }}
                sx={{
                  aspectRatio: '1',
                  borderRadius: '50%',
                  bgcolor: colorValue(h, shade),
                  boxShadow: selected ? '0 0 0 2px #fff, 0 0 0 4px #1f2a30' : 'inset 0 0 0 1px rgba(0,0,0,0.12)',
                  color: shade >= 400 ? '#fff' : '#1f2a30',
                  '&.Mui-focusVisible': { outline: '2px solid #17616b', outlineOffset: 2 },
                }}
              >
                {selected && <CheckRounded aria-hidden="true" sx={{ fontSize: 18 }} />}
              </ButtonBase>
            );
          })}
        </Box>
      </Popover>
    </>
  );
}
