import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { highlighterLookup, type ResultReviewProps } from '../../lib/definition';
import { parseHighlights, withComment, withoutHighlight } from '../../lib/highlights';
import { useSaveResult } from '../../lib/use-save-result';
import { OverallText } from './OverallText';
import { FeedbackItemList } from './FeedbackItemList';
import { HighlightedText } from './HighlightedText';

function Heading({ children }: { children: string }) {
  return (
    <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
      {children}
    </Typography>
  );
}

/**
 * A feedback result: the student's text with the AI's highlighted passages beside the list of
 * feedback items, and the overall feedback. A teacher can edit a comment, delete a highlight or
 * edit the overall feedback (saved as they type); each is saved with `functionResult/update`.
 */
export function FeedbackReview({ result, fn, readOnly = false, onChanged }: ResultReviewProps) {
  const { current, save, saving } = useSaveResult(result, fn._id, onChanged);
  const parsed = useMemo(() => parseHighlights(current.highlightedText), [current.highlightedText]);
  const lookup = useMemo(() => highlighterLookup(fn.highlights, parsed.items.map((i) => i.type)), [fn.highlights, parsed.items]);
  const dropped = current.droppedHighlights ?? 0;

  return (
    <Stack spacing={3}>
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          alignItems: 'start',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 3fr) minmax(0, 2fr)' },
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Heading>Submission</Heading>
          <HighlightedText highlightedText={current.highlightedText} highlighters={fn.highlights} label="Submission with highlights" />
        </Box>
        <Box component="section" aria-label="Feedback" sx={{ minWidth: 0 }}>
          <Heading>{`Feedback (${parsed.items.length})`}</Heading>
          {!readOnly && dropped > 0 && (
            <Alert severity="info" variant="outlined" sx={{ mb: 1 }}>
              {dropped === 1
                ? '1 highlight from the AI was left out: its passage was not in the text or its highlighter is not on this assignment.'
                : `${dropped} highlights from the AI were left out: their passages were not in the text or their highlighters are not on this assignment.`}
            </Alert>
          )}
          <FeedbackItemList
            items={parsed.items}
            lookup={lookup}
            readOnly={readOnly}
            busy={saving}
            onEditComment={(id, comment) => save({ highlightedText: withComment(parsed, id, comment) })}
            onDelete={(id) => void save({ highlightedText: withoutHighlight(parsed, id) })}
          />
        </Box>
      </Box>
      <OverallText
        label="Overall feedback"
        value={current.feedback}
        readOnly={readOnly}
        saving={saving}
        onSave={(feedback, { quiet, keepalive }) => save({ feedback }, { quiet, keepalive })}
      />
    </Stack>
  );
}
