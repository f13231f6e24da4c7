import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ClassSummary } from '../../api/types';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function When({ at }: { at: string }) {
  const date = new Date(at);
  if (!at || Number.isNaN(date.getTime())) return null;
  return (
    <Typography variant="caption" color="text.secondary">
      {`Generated ${dateFormat.format(date)}`}
    </Typography>
  );
}

function Points({ title, items }: { title: string; items: readonly string[] }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 0.5 }}>
        {title}
      </Typography>
      {items.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          Nothing to note.
        </Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
          {items.map((item, i) => (
            <Typography key={i} component="li" variant="body2" sx={{ mb: 0.5, overflowWrap: 'anywhere' }}>
              {item}
            </Typography>
          ))}
        </Box>
      )}
    </Box>
  );
}

/** The AI's class summary: what the class met and missed, common mistakes, and a next lesson. */
export function SummaryView({ summary }: { summary: ClassSummary }) {
  return (
    <>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(3, minmax(0, 1fr))' } }}>
        <Points title="Met" items={summary.met} />
        <Points title="Missed" items={summary.missed} />
        <Points title="Common mistakes" items={summary.commonMistakes} />
      </Box>
      {summary.nextLesson.trim() !== '' && (
        <Box sx={{ bgcolor: 'rgba(23, 97, 107, 0.06)', borderRadius: '10px', p: 2 }}>
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 0.5 }}>
            Next lesson
          </Typography>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {summary.nextLesson}
          </Typography>
        </Box>
      )}
      <When at={summary.generatedAt} />
    </>
  );
}
