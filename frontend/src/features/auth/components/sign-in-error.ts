/** Message shown when a page needed a session and sent the user to sign in. */
export const SESSION_REQUIRED_MESSAGE = 'Please sign in to continue.';

/** Fallback for error names without a message of their own. */
export const SIGN_IN_FAILED_MESSAGE = 'Sign-in failed. Please try again.';

/** Shown when the server cannot be reached while signing in (a name of Markwell's own). */
export const NETWORK_ERROR = 'NetworkError';

const ACCOUNT_NOT_LINKED =
  'This email is already linked to another sign-in method. Sign in the way you did before.';
const PROVIDER_FAILED = 'Your school account could not complete the sign-in. Please try again.';
const CREATE_ACCOUNT_FAILED =
  "We couldn't create your Markwell account. Please try again, or ask your Markwell administrator.";
const SERVER_MISCONFIGURED =
  "Sign-in isn't set up correctly on this server. Please tell your Markwell administrator.";

/** A message for every NextAuth error name the session provider sends (spec §8). */
const MESSAGES: Record<string, string> = {
  SessionRequired: SESSION_REQUIRED_MESSAGE,
  Signin: SIGN_IN_FAILED_MESSAGE,
  OAuthSignin: "We couldn't start sign-in with your school account. Please try again.",
  OAuthCallback: PROVIDER_FAILED,
  OAuthCallbackError: PROVIDER_FAILED,
  OAuthCreateAccount: CREATE_ACCOUNT_FAILED,
  EmailCreateAccount: CREATE_ACCOUNT_FAILED,
  CreateAccount: CREATE_ACCOUNT_FAILED,
  Callback: 'Something went wrong while finishing sign-in. Please try again.',
  AccountNotLinkedError: ACCOUNT_NOT_LINKED,
  OAuthAccountNotLinked: ACCOUNT_NOT_LINKED,
  CredentialsSignin: 'Sign-in failed. Check your name and email and try again.',
  EmailSignin: "The sign-in email couldn't be sent. Please try again.",
  AccessDenied: "You don't have permission to sign in to Markwell.",
  Verification: 'This sign-in link is no longer valid. It may have been used already or it may have expired.',
  InvalidCallbackUrl: "The sign-in link pointed somewhere Markwell can't send you. Please sign in from this page.",
  Configuration: SERVER_MISCONFIGURED,
  MissingSecret: SERVER_MISCONFIGURED,
  MissingAuthorize: SERVER_MISCONFIGURED,
  MissingAdapter: SERVER_MISCONFIGURED,
  MissingAdapterMethods: SERVER_MISCONFIGURED,
  UnsupportedStrategy: SERVER_MISCONFIGURED,
  MissingAPIRoute: SERVER_MISCONFIGURED,
  [NETWORK_ERROR]: "We couldn't reach Markwell. Check your connection and try again.",
};

/** Turns the `?error=` value on the sign-in page into the message a teacher sees, or null. */
export function signInErrorMessage(error: string | null): string | null {
  if (!error) return null;
  return Object.hasOwn(MESSAGES, error) ? MESSAGES[error] : SIGN_IN_FAILED_MESSAGE;
}

/** Every error name with a message of its own (for tests and docs). */
export const KNOWN_SIGN_IN_ERRORS = Object.keys(MESSAGES);
