import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useToast } from '../../../components/toast';
import { ApiError } from '../../../lib/api-client';
import { ACCEPTED_TYPES_TEXT, submissionFileType } from '../../../lib/submission-files';
import { isValidEmail } from '../../../lib/validation';
import { getLtiLearner } from '../api/get-lti-learner';
import type { LinkAssignment } from '../api/types';
import { submitErrorMessage, useSubmitWork, type SubmitStage } from '../hooks/use-submit-work';
import { ltiDetailsFrom } from '../lib/lti';
import { FilePicker } from './FilePicker';

/** Said when a student picks a file of another kind. */
const UNSUPPORTED_FILE_MESSAGE = `This kind of file can't be submitted. Choose a ${ACCEPTED_TYPES_TEXT} file.`;

/** Said when a student picks an empty file (the server's words for it, said at once). */
export const EMPTY_FILE_MESSAGE = 'This file is empty.';

/** What the form leaves in the thank-you page's history entry: proof this tab submitted. */
export interface SubmittedState {
  submitted: true;
  assignmentName: string;
  /** The link takes another submission from the same student (their next attempt). */
  allowResubmission: boolean;
}

interface FieldErrors {
  name?: string;
  email?: string;
  file?: string;
}

function validate(name: string, email: string, file: File | null): FieldErrors {
  const errors: FieldErrors = {};
  if (name.trim() === '') errors.name = 'Enter your name.';
  if (email.trim() === '') errors.email = 'Enter your email address.';
  else if (!isValidEmail(email)) errors.email = 'Enter a valid email address, like name@school.org.';
  if (!file) errors.file = 'Choose the file to submit.';
  return errors;
}

function SubmitProgress({ stage }: { stage: SubmitStage }) {
  if (!stage) return null;
  const uploading = stage.step === 'uploading';
  const percent = uploading ? Math.round(stage.progress * 100) : 0;
  const label = uploading ? `Uploading your file… ${percent}%` : 'Submitting…';
  return (
    <Box role="status" aria-live="polite">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 0.75 }}>
        {label}
      </Typography>
      <LinearProgress
        variant={uploading ? 'determinate' : 'indeterminate'}
        value={uploading ? percent : undefined}
        aria-label={uploading ? 'Upload progress' : 'Submitting'}
      />
    </Box>
  );
}

/** Props for {@link SubmitForm}. */
export interface SubmitFormProps {
  linkToken: string;
  assignment: LinkAssignment;
  /**
   * Called when the server answers 404 to the submission: the link may have been turned off or
   * replaced while the form was open (or the course launch expired).
   */
  onNotFound?: () => void;
}

/**
 * The student's form: name, email and one file. Submitting uploads the file and records it, then
 * opens the result page (instant feedback) or the thank-you page.
 */
export function SubmitForm({ linkToken, assignment, onNotFound }: SubmitFormProps) {
  const { showToast } = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const submit = useSubmitWork();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string>();
  const [checked, setChecked] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const fileButtonRef = useRef<HTMLButtonElement>(null);
  // A pupil launched from their course: name and email come from the launch and cannot be edited.
  const ltiLaunch = searchParams.get('ltiLaunch') ?? undefined;
  const [launched, setLaunched] = useState(false);
  useEffect(() => {
    if (!ltiLaunch) return;
    let live = true;
    getLtiLearner(assignment._id, ltiLaunch).then(
      (learner) => {
        if (!live) return;
        setName(learner.name);
        setEmail(learner.email);
        setLaunched(true);
      },
      () => showToast({ type: 'error', message: 'Your launch from the course has expired. Please open the activity again from your course.' }),
    );
    return () => {
      live = false;
    };
  }, [assignment._id, ltiLaunch, showToast]);

  const errors = checked ? validate(name, email, file) : {};
  const pending = submit.isPending;

  const selectFile = (picked: File) => {
    if (!submissionFileType(picked)) {
      setFileError(UNSUPPORTED_FILE_MESSAGE);
      return;
    }
    if (picked.size === 0) {
      setFileError(EMPTY_FILE_MESSAGE);
      return;
    }
    setFileError(undefined);
    setFile(picked);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    setChecked(true);
    const found = validate(name, email, file);
    if (found.name) return nameRef.current?.focus();
    if (found.email) return emailRef.current?.focus();
    if (found.file || !file) return fileButtonRef.current?.focus();

    submit.mutate(
      { linkToken, assignment, studentName: name, studentEmail: email, file, ltiDetails: ltiDetailsFrom(searchParams), ltiLaunch },
      {
        onSuccess: (result) => {
          const instant = result.assignment?.provideInstantFeedback ?? assignment.provideInstantFeedback;
          if (instant) {
            void navigate(`/student/view-result/${assignment._id}/${result.submissionId}`);
          } else {
            const here = location.pathname.replace(/\/+$/, '');
            const state: SubmittedState = {
              submitted: true,
              assignmentName: assignment.name,
              allowResubmission: (result.assignment?.allowResubmission ?? assignment.allowResubmission) === true,
            };
            void navigate(`${here}/success`, { state });
          }
        },
        onError: (error) => {
          showToast({ type: 'error', message: submitErrorMessage(error) });
          if (error instanceof ApiError && error.status === 404) onNotFound?.();
        },
      },
    );
  };

  return (
    <Card>
      <CardContent sx={{ p: { xs: 2, sm: 3 }, '&:last-child': { pb: { xs: 2.5, sm: 3 } } }}>
        <Box component="form" noValidate onSubmit={onSubmit} aria-label="Submit your work">
          <Stack spacing={2.5}>
            <TextField
              label="Your name"
              value={name}
              onChange={(event) => setName(event.target.value)}
              required
              autoComplete="name"
              disabled={pending || launched}
              error={Boolean(errors.name)}
              helperText={errors.name}
              inputRef={nameRef}
              slotProps={{ htmlInput: { maxLength: 200 } }}
            />
            <TextField
              label="Your email"
              type="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              required
              autoComplete="email"
              disabled={pending || launched}
              error={Boolean(errors.email)}
              helperText={errors.email}
              inputRef={emailRef}
              slotProps={{ htmlInput: { inputMode: 'email', maxLength: 320 } }}
            />
            <FilePicker
              file={file}
              onSelect={selectFile}
              error={fileError ?? errors.file}
              disabled={pending}
              buttonRef={fileButtonRef}
            />
            {assignment.isHandWritten && (
              <Alert severity="info" variant="outlined" sx={{ bgcolor: 'background.paper' }}>
                This is handwritten work: a clear, well-lit photo or scan of every page works best.
              </Alert>
            )}
            <SubmitProgress stage={submit.stage} />
            <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, alignItems: { sm: 'center' }, gap: 2 }}>
              <Button type="submit" variant="contained" size="large" loading={pending} sx={{ minWidth: 160 }}>
                Submit
              </Button>
              <Typography variant="body2" color="text.secondary">
                Your teacher will see your name, email and work.
              </Typography>
            </Box>
          </Stack>
        </Box>
      </CardContent>
    </Card>
  );
}
