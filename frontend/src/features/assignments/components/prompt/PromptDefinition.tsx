import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { DefinitionProps } from '../page/definition-props';

/** A prompt assignment's prompt, read-only. */
export function PromptDefinition({ fn }: DefinitionProps) {
  return (
    <Box
      sx={{
        whiteSpace: 'pre-wrap',
        overflowWrap: 'anywhere',
        bgcolor: 'rgba(23, 97, 107, 0.04)',
        border: 1,
        borderColor: 'divider',
        borderRadius: '10px',
        p: { xs: 2, sm: 2.5 },
      }}
    >
      <Typography>{fn.prompt}</Typography>
    </Box>
  );
}
