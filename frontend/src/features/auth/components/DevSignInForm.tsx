import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef, useState, type FormEvent } from 'react';
import { isValidEmail } from '../../../lib/validation';

/** Props for {@link DevSignInForm}. */
export interface DevSignInFormProps {
  /** Called with the trimmed name and email once both are valid. */
  onSubmit: (values: { name: string; email: string }) => void;
  /** A sign-in is under way: the button says so and the form is locked. */
  pending?: boolean;
}

interface FieldErrors {
  name?: string;
  email?: string;
}

function validate(name: string, email: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!name.trim()) errors.name = 'Enter your name.';
  if (!email.trim()) errors.email = 'Enter your email address.';
  else if (!isValidEmail(email)) errors.email = 'Enter a valid email address, like name@school.org.';
  return errors;
}

/**
 * The development sign-in: a name and an email, no password. Both are required and the email is
 * checked before anything is sent; Enter in either field submits.
 */
export function DevSignInForm({ onSubmit, pending = false }: DevSignInFormProps) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const found = validate(name, email);
    setErrors(found);
    setSubmitted(true);
    if (found.name) nameRef.current?.focus();
    else if (found.email) emailRef.current?.focus();
    else onSubmit({ name: name.trim(), email: email.trim() });
  };

  // After a first submit, errors follow the text as it is corrected.
  const revalidate = (nextName: string, nextEmail: string) => {
    if (submitted) setErrors(validate(nextName, nextEmail));
  };

  return (
    <Stack component="form" noValidate onSubmit={handleSubmit} aria-label="Development sign-in" aria-describedby="dev-signin-note" spacing={2}>
      <TextField
        label="Name"
        name="name"
        autoComplete="name"
        required
        value={name}
        disabled={pending}
        inputRef={nameRef}
        onChange={(e) => {
          setName(e.target.value);
          revalidate(e.target.value, email);
        }}
        error={Boolean(errors.name)}
        helperText={errors.name}
      />
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={email}
        disabled={pending}
        inputRef={emailRef}
        onChange={(e) => {
          setEmail(e.target.value);
          revalidate(name, e.target.value);
        }}
        error={Boolean(errors.email)}
        helperText={errors.email}
      />
      <Button type="submit" variant="contained" size="large" loading={pending} loadingPosition="start">
        {pending ? 'Signing in…' : 'Continue'}
      </Button>
      <Typography id="dev-signin-note" variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
        Development sign-in — no password. Turn off in production.
      </Typography>
    </Stack>
  );
}
