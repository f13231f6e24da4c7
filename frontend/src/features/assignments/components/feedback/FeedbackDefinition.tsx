import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { DefinitionProps } from '../page/definition-props';
import { Subheading } from '../page/Subheading';
import { HighlighterList } from '../view/HighlighterList';

/** A feedback assignment's question context and highlighters, read-only. */
export function FeedbackDefinition({ fn }: DefinitionProps) {
  return (
    <Stack spacing={3}>
      <Box>
        <Subheading>Question context</Subheading>
        <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {fn.context?.trim() ? fn.context : <Box component="span" sx={{ color: 'text.secondary' }}>None given.</Box>}
        </Typography>
      </Box>
      <Box>
        <Subheading>Highlighters</Subheading>
        <HighlighterList highlights={fn.highlights ?? []} />
      </Box>
    </Stack>
  );
}
