import InfoOutlined from '@mui/icons-material/InfoOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

/** Props for {@link FormFooter}. */
export interface FormFooterProps {
  /** The way back: Cancel or Back. */
  back: ReactNode;
  /** Why the form cannot be submitted yet, or null when it can. */
  problem: string | null;
  /** Label of the submit button. */
  submitLabel: string;
  submitIcon: ReactNode;
  submitting: boolean;
  /** Shown before the problem, e.g. the live points total. */
  extra?: ReactNode;
}

/**
 * The bar under a creation form, sticky at the bottom of the window on long forms: the way back
 * on the left, the submit button on the right (disabled while there is a problem), and the
 * problem in words between them, linked to the button as its description. On phones the text
 * takes a row of its own above the buttons.
 */
export function FormFooter({ back, problem, submitLabel, submitIcon, submitting, extra }: FormFooterProps) {
  const problemId = useId();
  return (
    <Box
      sx={{
        position: 'sticky',
        bottom: 0,
        zIndex: 2,
        mt: 2,
        mx: { xs: -2, sm: 0 },
        px: { xs: 2, sm: 0 },
        py: 1.5,
        bgcolor: 'background.default',
        borderTop: 1,
        borderColor: 'divider',
        display: 'grid',
        alignItems: 'center',
        columnGap: 2,
        rowGap: 1,
        gridTemplateColumns: { xs: 'auto 1fr auto', sm: 'auto minmax(0, 1fr) auto' },
        gridTemplateAreas: { xs: '"msg msg msg" "back . next"', sm: '"back msg next"' },
      }}
    >
      <Box sx={{ gridArea: 'back' }}>{back}</Box>
      <Box
        sx={{
          gridArea: 'msg',
          minWidth: 0,
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          justifyContent: { xs: 'flex-start', sm: 'flex-end' },
          columnGap: 2,
          rowGap: 0.5,
          '&:empty': { display: 'none' },
        }}
      >
        {extra}
        {problem && (
          <Typography
            id={problemId}
            variant="body2"
            color="text.secondary"
            sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.75, minWidth: 0, overflowWrap: 'anywhere' }}
          >
            <InfoOutlined aria-hidden="true" sx={{ fontSize: 18, mt: '2px', flexShrink: 0 }} />
            {problem}
          </Typography>
        )}
      </Box>
      <Box sx={{ gridArea: 'next', justifySelf: 'end' }}>
        <Button
          type="submit"
          variant="contained"
          disabled={problem !== null}
          loading={submitting}
          aria-describedby={problem ? problemId : undefined}
          endIcon={submitIcon}
        >
          {submitLabel}
        </Button>
      </Box>
    </Box>
  );
}
