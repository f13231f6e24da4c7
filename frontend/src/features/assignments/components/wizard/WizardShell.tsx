import ArrowBackRounded from '@mui/icons-material/ArrowBackRounded';
import ArrowForwardRounded from '@mui/icons-material/ArrowForwardRounded';
import CheckRounded from '@mui/icons-material/CheckRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { FormFooter } from './FormFooter';

/** One step of a wizard. */
export interface WizardStepInfo {
  /** Short name under the step's number in the stepper, e.g. "Highlighters". */
  label: string;
  /** The step's heading above its fields. */
  title: string;
  /** A line under the heading. */
  description?: ReactNode;
}

/** Props for {@link WizardShell}. */
export interface WizardShellProps {
  /** The page heading, e.g. "New feedback assignment". */
  title: string;
  steps: WizardStepInfo[];
  /** The step shown, from 1. */
  step: number;
  /** Why the teacher cannot go on yet (shown beside a disabled Next), or null when they can. */
  problem: string | null;
  onBack: () => void;
  onNext: () => void;
  onFinish: () => void;
  /** True while the assignment is being created. */
  submitting?: boolean;
  /** Label of the last step's button. */
  finishLabel?: string;
  /** Shown in the footer beside the buttons, e.g. the live points total. */
  footerExtra?: ReactNode;
  /** The "Discard your changes?" dialog shown when the teacher leaves with unsaved work. */
  leaveGuard?: ReactNode;
  children: ReactNode;
}

/**
 * The frame of every creation wizard: the page heading, a stepper with "Step N of M", the step's
 * card, and a footer (sticky on long steps) with Back and Next. The step is a form, so Enter in
 * a one-line field moves on; Next stays disabled, with the reason beside it, until the step is
 * valid. Focus moves to the step heading whenever the step changes.
 */
export function WizardShell({
  title,
  steps,
  step,
  problem,
  onBack,
  onNext,
  onFinish,
  submitting = false,
  finishLabel = 'Create assignment',
  footerExtra,
  leaveGuard,
  children,
}: WizardShellProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  const current = steps[step - 1];
  const isLast = step === steps.length;

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (problem !== null || submitting) return;
    if (isLast) onFinish();
    else onNext();
  }

  return (
    <Box sx={{ maxWidth: 880, mx: 'auto' }}>
      <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 600, mb: 0.5 }}>
        Step {step} of {steps.length}
      </Typography>
      <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
        {title}
      </Typography>
      <Stepper
        activeStep={step - 1}
        alternativeLabel
        aria-label="Wizard steps"
        sx={{ mt: 3, mb: { xs: 2.5, sm: 3 }, '& .MuiStepLabel-label': { fontSize: { xs: '0.8125rem', sm: '0.875rem' } } }}
      >
        {steps.map((s) => (
          <Step key={s.label}>
            <StepLabel>{s.label}</StepLabel>
          </Step>
        ))}
      </Stepper>

      <Box component="form" noValidate onSubmit={onSubmit}>
        <Card>
          <CardContent sx={{ p: { xs: 2, sm: 3 }, '&:last-child': { pb: { xs: 2.5, sm: 3 } } }}>
            <Typography
              ref={headingRef}
              tabIndex={-1}
              variant="h2"
              sx={{ fontSize: { xs: '1.25rem', sm: '1.375rem' }, outline: 'none', overflowWrap: 'anywhere' }}
            >
              {current.title}
            </Typography>
            {current.description && (
              <Typography color="text.secondary" sx={{ mt: 0.5 }}>
                {current.description}
              </Typography>
            )}
            <Box sx={{ mt: 3 }}>{children}</Box>
          </CardContent>
        </Card>

        <FormFooter
          back={
            step === 1 ? (
              <Button component={RouterLink} to="/library" color="inherit" disabled={submitting}>
                Cancel
              </Button>
            ) : (
              <Button onClick={onBack} color="inherit" startIcon={<ArrowBackRounded />} disabled={submitting}>
                Back
              </Button>
            )
          }
          problem={problem}
          submitLabel={isLast ? finishLabel : 'Next'}
          submitIcon={isLast ? <CheckRounded /> : <ArrowForwardRounded />}
          submitting={submitting}
          extra={footerExtra}
        />
      </Box>
      {leaveGuard}
    </Box>
  );
}
