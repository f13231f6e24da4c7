import '@fontsource/inter/400.css';
import '@fontsource/inter/500.css';
import '@fontsource/inter/600.css';
import '@fontsource/lexend/500.css';
import '@fontsource/lexend/600.css';
import { createTheme } from '@mui/material/styles';

const BODY_FONT = 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const HEADING_FONT = 'Lexend, Inter, system-ui, sans-serif';

const heading = (fontSize: string, fontWeight: number, lineHeight: number) => ({
  fontFamily: HEADING_FONT,
  fontSize,
  fontWeight,
  lineHeight,
  letterSpacing: '-0.01em',
});

/**
 * Markwell's MUI theme: deep teal on a warm paper background, Lexend headings over Inter body
 * text, soft 10px corners and outlined (not shadowed) surfaces.
 */
export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: '#17616b', dark: '#0e4a52', light: '#4a8c94', contrastText: '#ffffff' },
    secondary: { main: '#4a4f9c', contrastText: '#ffffff' },
    success: { main: '#2e7d4f' },
    warning: { main: '#b26a00' },
    // MUI's own info blue (#0288d1) is 3.9:1 under white text: the "Reading…" chip failed AA.
    info: { main: '#1565c0' },
    error: { main: '#b3261e' },
    background: { default: '#f7f5f0', paper: '#ffffff' },
    text: { primary: '#1f2a30', secondary: '#56636b' },
    divider: '#e3dfd6',
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: BODY_FONT,
    h1: heading('2rem', 600, 1.25),
    h2: heading('1.625rem', 600, 1.3),
    h3: heading('1.375rem', 600, 1.3),
    h4: heading('1.25rem', 500, 1.35),
    h5: heading('1.125rem', 500, 1.4),
    h6: heading('1rem', 500, 1.4),
    body1: { fontSize: '1rem', lineHeight: 1.6 },
    body2: { fontSize: '0.875rem', lineHeight: 1.55 },
    button: { textTransform: 'none', fontWeight: 600, letterSpacing: 0 },
  },
  components: {
    // A visible focus ring on every button, link-button, checkbox and switch reached by keyboard
    // (WCAG 2.4.7): MUI's own cue is a faint ripple.
    MuiButtonBase: {
      styleOverrides: { root: { '&.Mui-focusVisible': { outline: '2px solid #17616b', outlineOffset: 2 } } },
    },
    MuiMenuItem: { styleOverrides: { root: { '&.Mui-focusVisible': { outlineOffset: -2 } } } },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: { root: { paddingInline: 18 } },
    },
    MuiPaper: {
      defaultProps: { elevation: 0 },
      styleOverrides: { outlined: { borderColor: '#e3dfd6' } },
    },
    MuiCard: {
      defaultProps: { variant: 'outlined' },
      styleOverrides: { root: { borderRadius: 12 } },
    },
    MuiAppBar: {
      defaultProps: { elevation: 0, color: 'inherit' },
      styleOverrides: {
        root: { backgroundColor: '#ffffff', borderBottom: '1px solid #e3dfd6' },
      },
    },
    MuiTextField: { defaultProps: { fullWidth: true } },
    MuiAlert: { styleOverrides: { root: { borderRadius: 10 } } },
    // MUI's default (action.active, 54 % black) is 4.47:1 on the paper background: text.secondary reaches AA.
    MuiToggleButton: { styleOverrides: { root: { color: '#56636b' } } },
  },
});
