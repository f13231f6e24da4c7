import Typography from '@mui/material/Typography';

/** A heading inside a definition ("Highlighters"). */
export function Subheading({ children }: { children: string }) {
  return (
    <Typography variant="h3" sx={{ fontSize: '1rem', mb: 1.5 }}>
      {children}
    </Typography>
  );
}
